package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Dissemination barrier (Hensgen, Finkel and Manber, 1988). In round {@code k} every rank sends an empty message to
 * rank {@code r + 2^k} and receives one from {@code r - 2^k} (modulo {@code p}); after {@code ceil(log2 p)} rounds
 * every rank has heard, directly or not, from every other.
 *
 * <p>Cost: {@code ceil(log2 p) * alpha}. Works for any {@code p}; the default barrier.
 */
final class BarrierDissemination {
    private BarrierDissemination() {}

    static void build(Schedule s) {
        int p = s.size();
        int r = s.rank();
        for (int k = 1; k < p; k <<= 1) {
            s.round().recv((r - k + p) % p, MessageData.EMPTY).send((r + k) % p, MessageData.EMPTY);
        }
    }
}
