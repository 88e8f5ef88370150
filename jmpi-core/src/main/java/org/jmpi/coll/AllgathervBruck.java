package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Bruck's allgather (Bruck et al., 1997) for blocks of any size. Rank {@code r} keeps a temporary buffer with the
 * blocks of ranks {@code r, r + 1, ...} (modulo {@code p}) one after the other; in step {@code k} it sends the first
 * {@code min(2^k, p - 2^k)} of them to rank {@code r - 2^k} and appends as many received from rank {@code r + 2^k}.
 * After {@code ceil(log2 p)} steps it holds all blocks and copies them into place. Also serves the allgather with
 * equal blocks.
 *
 * <p>Cost: {@code ceil(log2 p) alpha + (p - 1) / p * N beta} for {@code N} bytes in all, plus one local copy of
 * everything: as few steps as recursive doubling, for any {@code p}. Best for short messages.
 */
final class AllgathervBruck {
    private AllgathervBruck() {}

    /**
     * @param send this rank's block, or null when it already sits at its place in {@code recv}
     */
    static void build(Schedule s, MessageData send, MessageData recv, long[] offsets, long[] lengths) {
        int p = s.size();
        int r = s.rank();
        long[] at = new long[p + 1]; // at[i]: offset in the temporary of the block of rank r + i
        for (int i = 0; i < p; i++) {
            at[i + 1] = at[i] + lengths[(r + i) % p];
        }
        MessageData tmp = s.tempBytes(at[p]);
        Round first = s.round();
        MessageData own = send != null ? send : Blocks.slice(recv, offsets[r], lengths[r]);
        long ownBytes = Math.min(own.bytes(), lengths[r]);
        first.local(() -> Blocks.copy(own, 0, tmp, 0, ownBytes));
        for (int dist = 1; dist < p; dist <<= 1) {
            int m = Math.min(dist, p - dist);
            Round round = dist == 1 ? first : s.round();
            round.recv((r + dist) % p, Blocks.slice(tmp, at[dist], at[dist + m] - at[dist]))
                    .send((r - dist + p) % p, Blocks.slice(tmp, 0, at[m]));
        }
        s.round().local(() -> {
            for (int i = send == null ? 1 : 0; i < p; i++) {
                int owner = (r + i) % p;
                Blocks.copy(tmp, at[i], recv, offsets[owner], lengths[owner]);
            }
        });
    }
}
