package org.jmpi.coll;

/**
 * Recursive-doubling inclusive scan (MPICH's scan): each rank keeps its result and a partial sum of a growing run of
 * ranks around it; in step {@code k} it swaps partial sums with rank {@code r xor 2^k} (if that exists), and when the
 * partner is lower it adds the partner's partial sum to both, else only to its partial sum. The lower partial sum is
 * always the left operand, so rank order holds for non-commutative operations.
 *
 * <p>Cost: {@code ceil(log2 p) (alpha + n beta + 2 n gamma)}. Any {@code p}, any operation; the default scan.
 */
final class ScanRecursiveDoubling {
    private ScanRecursiveDoubling() {}

    /** Builds the scan; returns the array holding this rank's result. */
    static Object build(Schedule s, ReduceBuffers b) {
        int p = s.size();
        int r = s.rank();
        boolean commute = b.red.commutative();
        Round round = s.round();
        Object result = b.accumulator(round);
        if (p == 1) {
            return result;
        }
        Object partial = b.loadedTemp(round);
        Object tmp = b.temp();
        for (int mask = 1; mask < p; mask <<= 1) {
            int partner = r ^ mask;
            if (partner >= p) {
                continue;
            }
            round.recv(partner, b.all(tmp)).send(partner, b.all(partial));
            round = s.round();
            if (partner < r) {
                round.local(b.reduce(tmp, partial, 0, b.count));
                round.local(b.reduce(tmp, result, 0, b.count));
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
