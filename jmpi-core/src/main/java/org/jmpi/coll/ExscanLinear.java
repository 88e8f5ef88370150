package org.jmpi.coll;

/**
 * Linear exclusive scan: rank {@code r} receives the prefix result of ranks {@code 0..r-1} from rank {@code r - 1}
 * straight into its result, combines it with its input into a temporary and passes that on to rank {@code r + 1}.
 * Rank 0 sends its input and gets no result.
 *
 * <p>Cost: {@code (p - 1) (alpha + n beta + n gamma)} on the critical path, {@code n beta} per rank. Any {@code p},
 * any operation.
 */
final class ExscanLinear {
    private ExscanLinear() {}

    /** Builds the exclusive scan; returns the array holding this rank's result (null at rank 0). */
    static Object build(Schedule s, ReduceBuffers b) {
        int p = s.size();
        int r = s.rank();
        if (r == 0) {
            if (p > 1) {
                s.round().send(1, b.input);
            }
            return null;
        }
        Object result = b.resultArray();
        Round first = s.round();
        // take the input first: in place, the prefix arrives in the same buffer
        Object next = r < p - 1 ? b.loadedTemp(first) : null;
        first.recv(r - 1, b.all(result));
        if (next != null) {
            Round round = s.round();
            round.local(b.reduce(result, next, 0, b.count));
            round.send(r + 1, b.all(next));
        }
        return result;
    }
}
