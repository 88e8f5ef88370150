package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Bruck's allgather of equal blocks: {@link AllgathervBruck} with block {@code i} at packed bytes
 * {@code [i * n, (i + 1) * n)}.
 *
 * <p>Cost: {@code ceil(log2 p) alpha + (p - 1) n beta} plus a local copy. Best for short messages on any {@code p}.
 */
final class AllgatherBruck {
    private AllgatherBruck() {}

    static void build(Schedule s, MessageData send, MessageData recv, long block) {
        int p = s.size();
        AllgathervBruck.build(s, send, recv, AllgatherRing.equalOffsets(p, block),
                AllgatherRing.equalLengths(p, block));
    }
}
