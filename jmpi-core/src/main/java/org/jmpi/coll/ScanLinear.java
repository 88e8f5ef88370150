package org.jmpi.coll;

/**
 * Linear inclusive scan: rank {@code r} receives the prefix result of ranks {@code 0..r-1} from rank {@code r - 1},
 * combines it with its input (prefix on the left) and passes its own result to rank {@code r + 1}.
 *
 * <p>Cost: {@code (p - 1) (alpha + n beta + n gamma)} on the critical path, but each rank sends and receives the
 * vector only once ({@code n beta} per rank against {@code log2 p} times for recursive doubling). Any {@code p}, any
 * operation.
 */
final class ScanLinear {
    private ScanLinear() {}

    /** Builds the scan; returns the array holding this rank's result. */
    static Object build(Schedule s, ReduceBuffers b) {
        int p = s.size();
        int r = s.rank();
        Round round = s.round();
        Object result = b.accumulator(round);
        if (r > 0) {
            Object tmp = b.temp();
            round.recv(r - 1, b.all(tmp));
            round = s.round();
            round.local(b.reduce(tmp, result, 0, b.count));
        }
        if (r < p - 1) {
            round.send(r + 1, b.all(result));
        }
        return result;
    }
}
