package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Linear scatter of blocks of any size: the root sends every rank its block (packed bytes
 * {@code [offsets[i], offsets[i] + lengths[i])} of the send buffer) straight from the send buffer, all at once;
 * every other rank receives into its buffer. Also the scatter half of {@link ScatterLinear}.
 *
 * <p>Cost: {@code (p - 1) alpha + N beta} at the root for {@code N} bytes in all. The usual algorithm for scatterv,
 * where only the root knows every block's size. Any {@code p}, any root.
 */
final class ScattervLinear {
    private ScattervLinear() {}

    /**
     * @param send the root's send buffer; ignored elsewhere
     * @param recv this rank's block, or null at a root working in place
     */
    static void build(Schedule s, MessageData send, long[] offsets, long[] lengths, MessageData recv, int root) {
        int p = s.size();
        int r = s.rank();
        Round round = s.round();
        if (r != root) {
            round.recv(root, recv);
            return;
        }
        for (int k = 1; k < p; k++) {
            int i = (root + k) % p;
            round.send(i, Blocks.slice(send, offsets[i], lengths[i]));
        }
        if (recv != null) {
            long n = Math.min(recv.bytes(), lengths[root]);
            MessageData own = Blocks.slice(send, offsets[root], n);
            round.local(() -> Blocks.copy(own, recv));
        }
    }
}
