package org.jmpi.coll;

/**
 * Ring reduce-scatter: block {@code i} of the vector (its {@code counts[i]} elements) travels round the ring starting
 * at rank {@code i + 1}, each rank adding its own contribution, and ends complete at rank {@code i}: in step
 * {@code k} rank {@code r} sends block {@code r - k - 1} to rank {@code r + 1} and combines block {@code r - k - 2}
 * from rank {@code r - 1} (modulo {@code p}). Also serves reduce-scatter-block.
 *
 * <p>Cost: {@code (p - 1) alpha + (p - 1) / p N beta + (p - 1) / p N gamma} for {@code N} bytes of input: the
 * fewest bytes, neighbour traffic only, {@code p - 1} steps. Best for long messages. Commutative operations only.
 */
final class ReduceScatterRing {
    private ReduceScatterRing() {}

    static void build(Schedule s, ReduceBuffers b, int[] counts) {
        int p = s.size();
        int r = s.rank();
        int[] displs = displacements(counts);
        Round round = s.round();
        Object acc = b.loadedTemp(round);
        if (p > 1) {
            Object tmp = b.temp();
            int right = (r + 1) % p;
            int left = (r - 1 + p) % p;
            for (int k = 0; k < p - 1; k++) {
                int out = (r - k - 1 + p) % p;
                int in = (r - k - 2 + 2 * p) % p;
                round.recv(left, b.data(tmp, displs[in], counts[in]))
                        .send(right, b.data(acc, displs[out], counts[out]));
                round = s.round();
                round.local(b.reduce(tmp, acc, displs[in], counts[in]));
            }
        }
        storeBlock(b, round, acc, displs[r], counts[r]);
    }

    /** Element offsets of the blocks: the prefix sums of {@code counts}. */
    static int[] displacements(int[] counts) {
        int[] d = new int[counts.length + 1];
        for (int i = 0; i < counts.length; i++) {
            d[i + 1] = d[i] + counts[i];
        }
        return d;
    }

    /** A local step in {@code round}: copies elements {@code [first, first + n)} of {@code acc} to the output. */
    static void storeBlock(ReduceBuffers b, Round round, Object acc, int first, int n) {
        org.jmpi.datatype.MessageData src = b.data(acc, first, n);
        org.jmpi.datatype.MessageData dst = b.output;
        round.local(() -> Blocks.copy(src, 0, dst, 0, src.bytes()));
    }
}
