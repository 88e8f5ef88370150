package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Binomial-tree broadcast: each rank receives the whole message from its parent, then sends it to all its
 * children at once (see {@link Binomial}).
 *
 * <p>Cost: {@code ceil(log2 p) * (alpha + n beta)}. Best for short messages, where the latency term dominates; for
 * long ones every level moves the whole message. Any {@code p}, any root.
 */
final class BcastBinomial {
    private BcastBinomial() {}

    static void build(Schedule s, MessageData buf, int root) {
        int p = s.size();
        int rel = Binomial.rel(s.rank(), root, p);
        int top = Binomial.top(rel, p);
        if (rel != 0) {
            s.round().recv(Binomial.abs(rel - top, root, p), buf);
        }
        Round out = s.round();
        for (int mask = top >> 1; mask > 0; mask >>= 1) {
            if (rel + mask < p) {
                out.send(Binomial.abs(rel + mask, root, p), buf);
            }
        }
    }
}
