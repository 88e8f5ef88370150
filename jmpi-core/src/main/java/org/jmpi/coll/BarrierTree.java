package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Tree barrier: a binomial fan-in of empty messages to rank 0, then a binomial fan-out from it. Rank {@code r}'s
 * children are {@code r + 2^j} for every {@code 2^j} below the lowest set bit of {@code r} (every {@code 2^j < p}
 * for rank 0).
 *
 * <p>Cost: {@code 2 * ceil(log2 p) * alpha}, twice the dissemination barrier's rounds but only {@code 2 (p - 1)}
 * messages in all instead of {@code p * ceil(log2 p)}, which matters when messages queue behind each other.
 */
final class BarrierTree {
    private BarrierTree() {}

    static void build(Schedule s) {
        int p = s.size();
        int r = s.rank();
        if (p == 1) {
            return;
        }
        int top = r == 0 ? Fold.highestOneBit(p - 1) << 1 : Integer.lowestOneBit(r);
        Round in = s.round();
        for (int mask = 1; mask < top && r + mask < p; mask <<= 1) {
            in.recv(r + mask, MessageData.EMPTY);
        }
        if (r != 0) {
            s.round().send(r - top, MessageData.EMPTY);
            s.round().recv(r - top, MessageData.EMPTY);
        }
        Round out = s.round();
        for (int mask = 1; mask < top && r + mask < p; mask <<= 1) {
            out.send(r + mask, MessageData.EMPTY);
        }
    }
}
