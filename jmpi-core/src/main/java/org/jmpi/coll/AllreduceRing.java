package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Ring allreduce: a ring reduce-scatter followed by a ring allgather (Patarasuk and Yuan, 2009). The vector is cut
 * into {@code p} blocks; in each of {@code p - 1} steps every rank sends one block to its right neighbour and
 * combines the block it gets from its left neighbour, after which rank {@code r} holds the complete block
 * {@code r + 1}; {@code p - 1} more steps pass the complete blocks round.
 *
 * <p>Each reduce-scatter step moves its block in segments of {@code jmpi.coll.allreduce.segment} bytes, one round
 * per segment: segment {@code j} is combined while segment {@code j + 1} is on its way, so computation overlaps
 * communication (and the peer's copy, in threads mode).
 *
 * <p>Cost: {@code 2 (p - 1) alpha + 2 (p - 1) / p n beta + (p - 1) / p n gamma} (plus {@code alpha} per extra
 * segment, with the {@code gamma} term mostly hidden): the fewest bytes per rank, only neighbour traffic, no folding
 * for any {@code p}, but {@code 2 (p - 1)} steps. Best for long messages. Commutative operations only.
 */
final class AllreduceRing {
    private AllreduceRing() {}

    /** Builds the allreduce; returns the array holding the result. */
    static Object build(Schedule s, ReduceBuffers b, long segmentBytes) {
        int p = s.size();
        int r = s.rank();
        Round round = s.round();
        Object from = p > 1 ? b.inputBuffer() : null;
        Object acc = from != null ? b.resultArray() : b.accumulator(round);
        if (p == 1) {
            return acc;
        }
        Object tmp = b.temp();
        int[] starts = ReduceBuffers.blockStarts(b.count, p);
        if (from != null) {
            // every block but our own into the accumulator: ours goes out from the input in the first step and
            // comes back whole in the allgather (with 2 ranks, half the copying)
            round.local(b.copy(from, acc, 0, starts[r]));
            round.local(b.copy(from, acc, starts[r + 1], b.count - starts[r + 1]));
        }
        int seg = (int) Math.max(1, Math.min(Integer.MAX_VALUE, segmentBytes / b.bytes(1)));
        int right = (r + 1) % p;
        int left = (r - 1 + p) % p;
        Runnable pending = null;
        for (int k = 0; k < p - 1; k++) {
            int out = (r - k + p) % p;
            int in = (r - k - 1 + p) % p;
            int outLen = starts[out + 1] - starts[out];
            int inLen = starts[in + 1] - starts[in];
            int segments = Math.max(1, Math.max((outLen + seg - 1) / seg, (inLen + seg - 1) / seg));
            for (int j = 0; j < segments; j++) {
                int inFrom = Math.min(inLen, j * seg);
                int inN = Math.min(inLen, inFrom + seg) - inFrom;
                int outFrom = Math.min(outLen, j * seg);
                int outN = Math.min(outLen, outFrom + seg) - outFrom;
                if (pending != null) {
                    round.local(pending);
                }
                if (j == 0 || inN > 0) {
                    round.recv(left, b.data(tmp, starts[in] + inFrom, inN));
                }
                if (j == 0 || outN > 0) {
                    round.send(right, b.data(k == 0 && from != null ? from : acc, starts[out] + outFrom, outN));
                }
                pending = b.reduce(tmp, acc, starts[in] + inFrom, inN);
                round = s.round();
            }
        }
        round.local(pending);
        for (int k = 0; k < p - 1; k++) {
            int out = (r + 1 - k + p) % p;
            int in = (r - k + p) % p;
            round.recv(left, block(b, acc, starts, in)).send(right, block(b, acc, starts, out));
            round = s.round();
        }
        return acc;
    }

    static MessageData block(ReduceBuffers b, Object array, int[] starts, int i) {
        return b.data(array, starts[i], starts[i + 1] - starts[i]);
    }
}
