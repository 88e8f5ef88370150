package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Linear scatter: the root sends each rank its block straight from the send buffer, all messages at once (see
 * {@link ScattervLinear}).
 *
 * <p>Cost: {@code (p - 1) (alpha + n beta)} at the root for blocks of {@code n} bytes, overlapping, with no
 * intermediate copy. Best for long blocks. Any {@code p}, any root.
 */
final class ScatterLinear {
    private ScatterLinear() {}

    static void build(Schedule s, MessageData send, MessageData recv, long block, int root) {
        int p = s.size();
        long[] offsets = new long[p];
        long[] lengths = new long[p];
        for (int i = 0; i < p; i++) {
            offsets[i] = i * block;
            lengths[i] = block;
        }
        ScattervLinear.build(s, send, offsets, lengths, recv, root);
    }
}
