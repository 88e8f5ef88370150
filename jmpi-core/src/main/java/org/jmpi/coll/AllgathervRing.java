package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Ring allgather of blocks of any size: in step {@code k} ({@code 0 <= k < p - 1}) rank {@code r} sends block
 * {@code r - k} to rank {@code r + 1} and receives block {@code r - k - 1} from rank {@code r - 1} (modulo
 * {@code p}), each straight into its place in the receive buffer. Also serves the allgather with equal blocks.
 *
 * <p>Cost: {@code (p - 1) alpha + (p - 1) / p * N beta} for {@code N} bytes in all: the fewest bytes per rank and only
 * neighbour traffic, but {@code p - 1} steps. Best for long messages. Any {@code p}.
 */
final class AllgathervRing {
    private AllgathervRing() {}

    /**
     * @param send this rank's block, or null when it already sits at its place in {@code recv}
     * @param offsets block offsets in packed bytes of {@code recv}
     * @param lengths block lengths in packed bytes
     */
    static void build(Schedule s, MessageData send, MessageData recv, long[] offsets, long[] lengths) {
        int p = s.size();
        int r = s.rank();
        Round first = s.round();
        if (send != null) {
            MessageData own = Blocks.slice(recv, offsets[r], Math.min(send.bytes(), lengths[r]));
            first.local(() -> Blocks.copy(send, own));
        }
        int right = (r + 1) % p;
        int left = (r - 1 + p) % p;
        for (int k = 0; k < p - 1; k++) {
            int out = (r - k + p) % p;
            int in = (r - k - 1 + p) % p;
            Round round = k == 0 ? first : s.round();
            round.recv(left, Blocks.slice(recv, offsets[in], lengths[in]))
                    .send(right, Blocks.slice(recv, offsets[out], lengths[out]));
        }
    }
}
