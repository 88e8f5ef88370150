package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Bruck's all-to-all (Bruck et al., 1997) for equal blocks. Rank {@code r} first rotates its send blocks so that
 * position {@code i} holds the block for rank {@code r + i}. In step {@code k} it packs the blocks at positions whose
 * bit {@code k} is set, sends them to rank {@code r + 2^k}, and unpacks what rank {@code r - 2^k} sent into the same
 * positions. Afterwards position {@code i} holds the block from rank {@code r - i}, which a last copy puts in place.
 *
 * <p>Cost: {@code ceil(log2 p) (alpha + p / 2 * n beta)} for blocks of {@code n} bytes, plus local copies: far fewer
 * messages than the pairwise exchange but about {@code log2 p / 2} times the bytes. Best for short blocks and many
 * ranks. Any {@code p}.
 */
final class AlltoallBruck {
    private AlltoallBruck() {}

    static void build(Schedule s, MessageData send, MessageData recv, long block) {
        int p = s.size();
        int r = s.rank();
        MessageData rot = s.tempBytes(p * block);
        Round first = s.round();
        first.local(() -> {
            for (int i = 0; i < p; i++) {
                Blocks.copy(send, ((r + i) % p) * block, rot, i * block, block);
            }
        });
        int maxPacked = (p + 1) / 2;
        MessageData out = s.tempBytes(maxPacked * block);
        MessageData in = s.tempBytes(maxPacked * block);
        Round round = first;
        Runnable unpackPrevious = null;
        for (int dist = 1; dist < p; dist <<= 1) {
            int d = dist;
            int n = 0;
            for (int i = 0; i < p; i++) {
                if ((i & d) != 0) {
                    n++;
                }
            }
            long bytes = n * block;
            if (round == null) {
                round = s.round();
            }
            if (unpackPrevious != null) {
                round.local(unpackPrevious);
            }
            round.local(() -> {
                int k = 0;
                for (int i = 0; i < p; i++) {
                    if ((i & d) != 0) {
                        Blocks.copy(rot, i * block, out, (k++) * block, block);
                    }
                }
            });
            round.recv((r - d + p) % p, Blocks.slice(in, 0, bytes)).send((r + d) % p, Blocks.slice(out, 0, bytes));
            unpackPrevious = () -> {
                int k = 0;
                for (int i = 0; i < p; i++) {
                    if ((i & d) != 0) {
                        Blocks.copy(in, (k++) * block, rot, i * block, block);
                    }
                }
            };
            round = null;
        }
        Round last = s.round();
        if (unpackPrevious != null) {
            last.local(unpackPrevious);
        }
        last.local(() -> {
            for (int i = 0; i < p; i++) {
                Blocks.copy(rot, i * block, recv, ((r - i + p) % p) * block, block);
            }
        });
    }
}
