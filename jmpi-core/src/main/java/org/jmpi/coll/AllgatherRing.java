package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Ring allgather of equal blocks: {@link AllgathervRing} with block {@code i} at packed bytes
 * {@code [i * n, (i + 1) * n)}.
 *
 * <p>Cost: {@code (p - 1) (alpha + n beta)} for blocks of {@code n} bytes. Best for long messages. Any {@code p}.
 */
final class AllgatherRing {
    private AllgatherRing() {}

    static void build(Schedule s, MessageData send, MessageData recv, long block) {
        int p = s.size();
        AllgathervRing.build(s, send, recv, equalOffsets(p, block), equalLengths(p, block));
    }

    static long[] equalOffsets(int p, long block) {
        long[] o = new long[p];
        for (int i = 0; i < p; i++) {
            o[i] = i * block;
        }
        return o;
    }

    static long[] equalLengths(int p, long block) {
        long[] l = new long[p];
        java.util.Arrays.fill(l, block);
        return l;
    }
}
