package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Linear all-to-all: every rank posts all its receives and all its sends at once (to {@code r + 1, r + 2, ...} in
 * turn, so that not every rank sends to the same peer first) and copies its own block locally. Serves alltoall,
 * alltoallv and alltoallw alike: blocks are given one message view per peer.
 *
 * <p>Cost: {@code (p - 1) alpha + N beta} per rank for {@code N} bytes sent, all overlapping: one round, the most
 * messages in flight at once. Best for medium blocks and moderate {@code p}. Any {@code p}.
 */
final class AlltoallvLinear {
    private AlltoallvLinear() {}

    /**
     * @param send the block for each rank
     * @param recv the place of the block from each rank
     */
    static void build(Schedule s, MessageData[] send, MessageData[] recv) {
        int p = s.size();
        int r = s.rank();
        Round round = s.round();
        MessageData mine = send[r];
        MessageData own = recv[r];
        long n = Math.min(mine.bytes(), own.bytes());
        round.local(() -> Blocks.copy(mine, 0, own, 0, n));
        for (int k = 1; k < p; k++) {
            round.recv((r - k + p) % p, recv[(r - k + p) % p]);
        }
        for (int k = 1; k < p; k++) {
            round.send((r + k) % p, send[(r + k) % p]);
        }
    }
}
