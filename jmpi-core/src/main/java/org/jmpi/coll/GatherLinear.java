package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Linear gather: every rank sends its block straight to the root, which posts all receives at once, each into its
 * place in the receive buffer (no copy). Also the gather half of {@link GathervLinear}.
 *
 * <p>Cost: {@code (p - 1) (alpha + n beta)} at the root for blocks of {@code n} bytes, but the messages overlap and
 * there is no intermediate copy. Best for long blocks. Any {@code p}, any root.
 */
final class GatherLinear {
    private GatherLinear() {}

    /**
     * @param send this rank's block, or null at a root working in place
     * @param recv the root's receive buffer ({@code p * block} bytes); ignored elsewhere
     */
    static void build(Schedule s, MessageData send, MessageData recv, long block, int root) {
        int p = s.size();
        long[] offsets = new long[p];
        long[] lengths = new long[p];
        for (int i = 0; i < p; i++) {
            offsets[i] = i * block;
            lengths[i] = block;
        }
        GathervLinear.build(s, send, recv, offsets, lengths, root);
    }
}
