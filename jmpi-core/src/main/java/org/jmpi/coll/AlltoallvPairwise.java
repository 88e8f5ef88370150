package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Pairwise all-to-all: in step {@code k} ({@code 1 <= k < p}) rank {@code r} sends its block for rank {@code r + k}
 * and receives the block from rank {@code r - k} (modulo {@code p}), one exchange at a time. Serves alltoall,
 * alltoallv and alltoallw alike.
 *
 * <p>Cost: {@code (p - 1) alpha + N beta} per rank for {@code N} bytes sent, in {@code p - 1} steps: one message in
 * each direction at a time, so no rank is flooded. Best for long blocks. Any {@code p}.
 */
final class AlltoallvPairwise {
    private AlltoallvPairwise() {}

    static void build(Schedule s, MessageData[] send, MessageData[] recv) {
        int p = s.size();
        int r = s.rank();
        Round first = s.round();
        MessageData mine = send[r];
        MessageData own = recv[r];
        long n = Math.min(mine.bytes(), own.bytes());
        first.local(() -> Blocks.copy(mine, 0, own, 0, n));
        for (int k = 1; k < p; k++) {
            int to = (r + k) % p;
            int from = (r - k + p) % p;
            Round round = k == 1 ? first : s.round();
            round.recv(from, recv[from]).send(to, send[to]);
        }
    }
}
