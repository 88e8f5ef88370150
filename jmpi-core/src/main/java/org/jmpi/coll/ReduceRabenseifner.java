package org.jmpi.coll;

/**
 * Rabenseifner's reduction: a reduce-scatter by recursive halving (as in {@link AllreduceRabenseifner}) followed by a
 * binomial gather of the complete blocks to the root. The halving runs in new ranks relative to the root's (see
 * {@link Fold}), so that the blocks arrive at the root in one piece each; when the root itself sits out of the fold,
 * its partner gathers and passes the result on.
 *
 * <p>Cost: {@code 2 log2 p alpha + 2 (p - 1) / p n beta + (p - 1) / p n gamma}: about twice the bytes of the vector
 * whatever {@code p}, against {@code log2 p} times for the binomial tree. Best for long messages. Commutative
 * operations only.
 */
final class ReduceRabenseifner {
    private ReduceRabenseifner() {}

    /** Builds the reduction; returns the array holding the result at the root, null elsewhere. */
    static Object build(Schedule s, ReduceBuffers b, int root) {
        int r = s.rank();
        Fold f = new Fold(s.size());
        boolean rootSitsOut = f.sitsOut(root);
        int gatherer = rootSitsOut ? root + 1 : root;
        if (f.sitsOut(r)) {
            s.round().send(r + 1, b.input);
            if (r == root) {
                Object result = b.resultArray();
                s.round().recv(r + 1, b.all(result));
                return result;
            }
            return null;
        }
        Round round = s.round();
        Object from = r < 2 * f.rem ? null : b.inputBuffer(); // as in AllreduceRabenseifner
        Object acc = from != null ? (r == root ? b.resultArray() : b.temp())
                : r == root ? b.accumulator(round) : b.loadedTemp(round);
        Object tmp = b.temp();
        if (r < 2 * f.rem) {
            round.recv(r - 1, b.all(tmp));
            round = s.round();
            round.local(b.reduce(tmp, acc, 0, b.count));
        }
        int nr = f.newRank(r);
        int shift = f.newRank(gatherer);
        int pof2 = f.pof2;
        int[] starts = ReduceBuffers.blockStarts(b.count, pof2);
        round = AllreduceRabenseifner.reduceScatter(s, b, round, acc, from, tmp, starts, f, nr, shift);
        // binomial gather of the blocks to relative rank 0 (the gatherer); relative rank i holds block i
        int rel = (nr - shift + pof2) % pof2;
        int top = Binomial.top(rel, pof2);
        for (int mask = 1; mask < top && rel + mask < pof2; mask <<= 1) {
            int child = f.oldRank((rel + mask + shift) % pof2);
            round.recv(child, AllreduceRabenseifner.blocks(b, acc, starts, rel + mask, mask));
        }
        if (rel != 0) {
            int parent = f.oldRank((rel - top + shift) % pof2);
            s.round().send(parent, AllreduceRabenseifner.blocks(b, acc, starts, rel, top));
            return null;
        }
        if (rootSitsOut) {
            s.round().send(root, b.all(acc));
            return null;
        }
        return acc;
    }
}
