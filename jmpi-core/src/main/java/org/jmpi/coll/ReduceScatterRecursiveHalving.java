package org.jmpi.coll;

/**
 * Reduce-scatter by recursive halving (Thakur et al., 2005): partners swap halves of their current window of blocks
 * (the farthest partner first, a window being the blocks of a run of ranks) and each combines the half it keeps,
 * until every rank holds its own complete block. A size that is not a power of two is folded first (see
 * {@link Fold}): a rank that sits out hands its input to its partner, which keeps both their blocks and finally
 * returns the one that belongs to it. Also serves reduce-scatter-block.
 *
 * <p>Cost: {@code log2 p alpha + (p - 1) / p N beta + (p - 1) / p N gamma} for {@code N} bytes of input (plus
 * {@code 2 alpha + N beta} when folded): as few bytes as the ring in far fewer steps. Best for short and medium
 * messages. Commutative operations only.
 */
final class ReduceScatterRecursiveHalving {
    private ReduceScatterRecursiveHalving() {}

    static void build(Schedule s, ReduceBuffers b, int[] counts) {
        int r = s.rank();
        Fold f = new Fold(s.size());
        int[] displs = ReduceScatterRing.displacements(counts);
        if (f.sitsOut(r)) {
            s.round().send(r + 1, b.input);
            s.round().recv(r + 1, b.output);
            return;
        }
        Round round = s.round();
        Object from = r < 2 * f.rem ? null : b.inputBuffer(); // as in AllreduceRabenseifner
        Object acc = from != null ? b.temp() : b.loadedTemp(round);
        Object tmp = b.temp();
        if (r < 2 * f.rem) {
            round.recv(r - 1, b.all(tmp));
            round = s.round();
            round.local(b.reduce(tmp, acc, 0, b.count));
        }
        // element offset of the blocks of new ranks [0, pof2]
        int[] starts = new int[f.pof2 + 1];
        for (int i = 0; i <= f.pof2; i++) {
            starts[i] = displs[f.firstOld(i)];
        }
        round = AllreduceRabenseifner.reduceScatter(s, b, round, acc, from, tmp, starts, f, f.newRank(r), 0);
        if (r < 2 * f.rem) {
            round.send(r - 1, b.data(acc, displs[r - 1], counts[r - 1]));
        }
        ReduceScatterRing.storeBlock(b, round, acc, displs[r], counts[r]);
    }
}
