package org.jmpi.coll;

/**
 * Ring allreduce: a ring reduce-scatter followed by a ring allgather (Patarasuk and Yuan, 2009). The vector is cut
 * into {@code p} blocks; in each of {@code p - 1} steps every rank sends one block to its right neighbour and
 * combines the block it gets from its left neighbour, after which rank {@code r} holds the complete block
 * {@code r + 1}; {@code p - 1} more steps pass the complete blocks round.
 *
 * <p>Cost: {@code 2 (p - 1) alpha + 2 (p - 1) / p n beta + (p - 1) / p n gamma}: the fewest bytes per rank, only
 * neighbour traffic, no folding for any {@code p}, but {@code 2 (p - 1)} steps. Best for long messages. Commutative
 * operations only.
 */
final class AllreduceRing {
    private AllreduceRing() {}

    /** Builds the allreduce; returns the array holding the result. */
    static Object build(Schedule s, ReduceBuffers b) {
        int p = s.size();
        int r = s.rank();
        Round round = s.round();
        Object acc = b.accumulator(round);
        if (p == 1) {
            return acc;
        }
        Object tmp = b.temp();
        int[] starts = ReduceBuffers.blockStarts(b.count, p);
        int right = (r + 1) % p;
        int left = (r - 1 + p) % p;
        for (int k = 0; k < p - 1; k++) {
            int out = (r - k + p) % p;
            int in = (r - k - 1 + p) % p;
            round.recv(left, block(b, tmp, starts, in)).send(right, block(b, acc, starts, out));
            round = s.round();
            round.local(b.reduce(tmp, acc, starts[in], starts[in + 1] - starts[in]));
        }
        for (int k = 0; k < p - 1; k++) {
            int out = (r + 1 - k + p) % p;
            int in = (r - k + p) % p;
            round.recv(left, block(b, acc, starts, in)).send(right, block(b, acc, starts, out));
            round = s.round();
        }
        return acc;
    }

    static org.jmpi.datatype.MessageData block(ReduceBuffers b, Object array, int[] starts, int i) {
        return b.data(array, starts[i], starts[i + 1] - starts[i]);
    }
}
