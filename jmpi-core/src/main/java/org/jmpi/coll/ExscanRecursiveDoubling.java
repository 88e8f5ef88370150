package org.jmpi.coll;

/**
 * Recursive-doubling exclusive scan (MPICH's exscan): as {@link ScanRecursiveDoubling}, but a rank's result only
 * collects the partial sums of lower partners (the first one copied, later ones added on the left), never its own
 * input. Rank 0 gets no result (its receive buffer is left as it is, as MPI allows).
 *
 * <p>Cost: {@code ceil(log2 p) (alpha + n beta + 2 n gamma)}. Any {@code p}, any operation; the default exscan.
 */
final class ExscanRecursiveDoubling {
    private ExscanRecursiveDoubling() {}

    /** Builds the exclusive scan; returns the array holding this rank's result (null at rank 0). */
    static Object build(Schedule s, ReduceBuffers b) {
        int p = s.size();
        int r = s.rank();
        boolean commute = b.red.commutative();
        if (p == 1) {
            return null;
        }
        Round round = s.round();
        Object partial = b.loadedTemp(round);
        Object tmp = b.temp();
        Object result = r == 0 ? null : b.resultArray();
        boolean haveResult = false;
        for (int mask = 1; mask < p; mask <<= 1) {
            int partner = r ^ mask;
            if (partner >= p) {
                continue;
            }
            round.recv(partner, b.all(tmp)).send(partner, b.all(partial));
            round = s.round();
            if (partner < r) {
                round.local(b.reduce(tmp, partial, 0, b.count));
                if (haveResult) {
                    round.local(b.reduce(tmp, result, 0, b.count));
                } else {
                    round.local(b.copy(tmp, result, 0, b.count));
                    haveResult = true;
                }
            } else if (commute) {
                round.local(b.reduce(tmp, partial, 0, b.count));
            } else {
                round.local(b.reduce(partial, tmp, 0, b.count));
                Object t = partial;
                partial = tmp;
                tmp = t;
            }
        }
        return result;
    }
}
