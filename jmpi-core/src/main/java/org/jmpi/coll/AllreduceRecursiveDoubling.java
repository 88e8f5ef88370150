package org.jmpi.coll;

/**
 * Recursive-doubling allreduce: in step {@code k} ranks whose new ranks differ in bit {@code k} exchange their whole
 * partial results and both combine them, so after {@code log2 p} steps every rank has the full result. A size that is
 * not a power of two is folded first (see {@link Fold}): the ranks that sit out send their input to a partner before
 * and receive the result from it after.
 *
 * <p>Operands stay in rank order: the partial result of the lower new ranks is always the left operand (computed
 * into the other buffer and the two swapped when needed), so non-commutative operations are fine.
 *
 * <p>Cost: {@code log2 p (alpha + n beta + n gamma)}, plus {@code 2 (alpha + n beta)} when folded: the fewest steps,
 * but every step moves the whole vector. Best for short messages; the default for non-commutative operations.
 */
final class AllreduceRecursiveDoubling {
    private AllreduceRecursiveDoubling() {}

    /** Builds the allreduce; returns the array holding the result. */
    static Object build(Schedule s, ReduceBuffers b) {
        int r = s.rank();
        Fold f = new Fold(s.size());
        boolean commute = b.red.commutative();
        if (f.sitsOut(r)) {
            Object result = b.resultArray();
            s.round().send(r + 1, b.input);
            s.round().recv(r + 1, b.all(result));
            return result;
        }
        Round round = s.round();
        Object acc = b.accumulator(round);
        Object tmp = b.temp();
        if (r < 2 * f.rem) {
            // the partner r - 1 is the lower rank: tmp op acc
            round.recv(r - 1, b.all(tmp));
            round = s.round();
            round.local(b.reduce(tmp, acc, 0, b.count));
        }
        int nr = f.newRank(r);
        for (int mask = 1; mask < f.pof2; mask <<= 1) {
            int partnerNew = nr ^ mask;
            int partner = f.oldRank(partnerNew);
            round.recv(partner, b.all(tmp)).send(partner, b.all(acc));
            round = s.round();
            if (partnerNew < nr || commute) {
                round.local(b.reduce(tmp, acc, 0, b.count));
            } else {
                round.local(b.reduce(acc, tmp, 0, b.count));
                Object t = acc;
                acc = tmp;
                tmp = t;
            }
        }
        if (r < 2 * f.rem) {
            round.send(r - 1, b.all(acc));
        }
        return acc;
    }
}
