package org.jmpi.coll;

/**
 * Rabenseifner's allreduce: a reduce-scatter by recursive halving followed by an allgather by recursive doubling
 * (Rabenseifner 2004; Thakur et al. 2005). The vector is cut into {@code pof2} blocks. In the halving steps partners
 * swap halves of their current window of blocks (the farthest partner first) and each combines the half it keeps,
 * until new rank {@code i} holds the complete block {@code i}; the doubling steps then swap ever larger runs of
 * complete blocks. A size that is not a power of two is folded first (see {@link Fold}).
 *
 * <p>Cost: {@code 2 log2 p alpha + 2 (p - 1) / p n beta + (p - 1) / p n gamma}: about twice the bytes of the vector
 * whatever {@code p}, with few steps. Best for medium and long messages. Commutative operations only (halves are
 * combined in whatever order the partners meet).
 */
final class AllreduceRabenseifner {
    private AllreduceRabenseifner() {}

    /** Builds the allreduce; returns the array holding the result. */
    static Object build(Schedule s, ReduceBuffers b) {
        int r = s.rank();
        Fold f = new Fold(s.size());
        if (f.sitsOut(r)) {
            Object result = b.resultArray();
            s.round().send(r + 1, b.input);
            s.round().recv(r + 1, b.all(result));
            return result;
        }
        Round round = s.round();
        // a rank that folds in a neighbour's whole vector first needs all of its own input in the accumulator;
        // the others load only the half their first step keeps (reduceScatter)
        Object from = r < 2 * f.rem ? null : b.inputBuffer();
        Object acc = from != null ? b.resultArray() : b.accumulator(round);
        Object tmp = b.temp();
        if (r < 2 * f.rem) {
            round.recv(r - 1, b.all(tmp));
            round = s.round();
            round.local(b.reduce(tmp, acc, 0, b.count));
        }
        int nr = f.newRank(r);
        int[] starts = ReduceBuffers.blockStarts(b.count, f.pof2);
        round = reduceScatter(s, b, round, acc, from, tmp, starts, f, nr, 0);
        for (int mask = 1; mask < f.pof2; mask <<= 1) {
            int partnerNew = nr ^ mask;
            int partner = f.oldRank(partnerNew);
            int mine = nr & ~(mask - 1);
            int theirs = partnerNew & ~(mask - 1);
            round.recv(partner, blocks(b, acc, starts, theirs, mask)).send(partner, blocks(b, acc, starts, mine, mask));
            round = s.round();
        }
        if (r < 2 * f.rem) {
            round.send(r - 1, b.all(acc));
        }
        return acc;
    }

    /**
     * Recursive halving over the {@code pof2} group, in new ranks rotated by {@code shift} (relative rank
     * {@code (nr - shift) mod pof2}): afterwards relative rank {@code i} holds the complete block {@code i} in
     * {@code acc}. Returns the round that holds the last pending reduction. {@code from}: null when {@code acc}
     * holds this rank's input already, else the input ({@link ReduceBuffers#inputBuffer}), of which only the blocks
     * the first step keeps are copied into {@code acc}.
     */
    static Round reduceScatter(Schedule s, ReduceBuffers b, Round round, Object acc, Object from, Object tmp,
            int[] starts, Fold f, int nr, int shift) {
        int pof2 = f.pof2;
        int rel = (nr - shift + pof2) % pof2;
        int lo = 0;
        Object src = acc;
        if (from != null && pof2 > 1) {
            // acc not loaded: the first step sends from the input, and only the half it keeps is copied (a 2-rank
            // allreduce of 256 KiB copied its whole input first: half the copying, and the memory the partner had
            // just read from is written once less)
            int mask = pof2 >> 1;
            int keep = (rel & mask) == 0 ? lo : lo + mask;
            round.local(b.copy(from, acc, starts[keep], starts[keep + mask] - starts[keep]));
            src = from;
        } else if (from != null) {
            round.local(b.copy(from, acc, 0, b.count));
        }
        for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
            int partnerRel = rel ^ mask;
            int partner = f.oldRank((partnerRel + shift) % pof2);
            int keep = (rel & mask) == 0 ? lo : lo + mask;
            int give = (rel & mask) == 0 ? lo + mask : lo;
            round.recv(partner, blocks(b, tmp, starts, keep, mask)).send(partner, blocks(b, src, starts, give, mask));
            src = acc;
            round = s.round();
            round.local(b.reduce(tmp, acc, starts[keep], starts[keep + mask] - starts[keep]));
            lo = keep;
        }
        return round;
    }

    /** Blocks {@code [first, first + n)} of a working array. */
    static org.jmpi.datatype.MessageData blocks(ReduceBuffers b, Object array, int[] starts, int first, int n) {
        return b.data(array, starts[first], starts[first + n] - starts[first]);
    }
}
