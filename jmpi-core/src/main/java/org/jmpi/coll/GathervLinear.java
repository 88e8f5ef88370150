package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Linear gather of blocks of any size: every rank sends its block to the root, which receives each straight into its
 * place (packed bytes {@code [offsets[i], offsets[i] + lengths[i])} of the receive buffer), all receives posted at
 * once.
 *
 * <p>Cost: {@code (p - 1) alpha + N beta} at the root for {@code N} bytes in all. The usual algorithm for gatherv,
 * where only the root knows every block's size. Any {@code p}, any root.
 */
final class GathervLinear {
    private GathervLinear() {}

    /**
     * @param send this rank's block, or null at a root working in place
     * @param recv the root's receive buffer; ignored elsewhere
     * @param offsets the root's block offsets in packed bytes (ignored elsewhere)
     * @param lengths the root's block lengths in packed bytes (ignored elsewhere)
     */
    static void build(Schedule s, MessageData send, MessageData recv, long[] offsets, long[] lengths, int root) {
        int p = s.size();
        int r = s.rank();
        Round round = s.round();
        if (r != root) {
            round.send(root, send);
            return;
        }
        for (int k = 1; k < p; k++) {
            int i = (root + k) % p;
            round.recv(i, Blocks.slice(recv, offsets[i], lengths[i]));
        }
        if (send != null) {
            long n = Math.min(send.bytes(), lengths[root]);
            MessageData own = Blocks.slice(recv, offsets[root], n);
            round.local(() -> Blocks.copy(send, own));
        }
    }
}
