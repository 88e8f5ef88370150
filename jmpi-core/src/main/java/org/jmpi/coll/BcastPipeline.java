package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Pipelined chain broadcast: the ranks form a chain from the root (relative ranks {@code 0, 1, ..., p - 1}) and the
 * message travels down it in segments of {@code jmpi.coll.bcast.segment} bytes; in round {@code t} a rank receives
 * segment {@code t} from its predecessor while it passes segment {@code t - 1} on, so all links are busy at once.
 *
 * <p>Cost: {@code (p - 2 + S) (alpha + n / S * beta)} for {@code S} segments: close to {@code n beta} for long
 * messages whatever {@code p}, when {@code S >> p}. Each rank sends and receives the message once, so it also suits
 * links that are slow compared to memory (TCP). Any {@code p}, any root.
 */
final class BcastPipeline {
    private BcastPipeline() {}

    static void build(Schedule s, MessageData buf, int root, long segment) {
        int p = s.size();
        if (p == 1) {
            return;
        }
        long n = buf.bytes();
        int segments = (int) Math.max(1, (n + segment - 1) / segment);
        int rel = Binomial.rel(s.rank(), root, p);
        int prev = Binomial.abs(rel - 1, root, p);
        int next = Binomial.abs(rel + 1, root, p);
        boolean receives = rel != 0;
        boolean sends = rel != p - 1;
        for (int t = 0; t <= segments; t++) {
            Round r = s.round();
            if (receives && t < segments) {
                r.recv(prev, segment(buf, segment, t));
            }
            if (sends && t > 0) {
                r.send(next, segment(buf, segment, t - 1));
            }
        }
    }

    private static MessageData segment(MessageData buf, long segment, int t) {
        long from = t * segment;
        return Blocks.slice(buf, from, Math.min(segment, buf.bytes() - from));
    }
}
