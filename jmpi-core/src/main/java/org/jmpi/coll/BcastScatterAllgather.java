package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Broadcast as a binomial scatter followed by a ring allgather (van de Geijn; Barnett et al. 1994; MPICH's long
 * message broadcast). The message is cut into {@code p} chunks of {@code ceil(n / p)} bytes; relative rank
 * {@code i} ends the scatter with chunk {@code i}, having received from its parent the chunks of its whole subtree;
 * then in {@code p - 1} ring steps every rank passes on the chunk it got last.
 *
 * <p>Cost: {@code (ceil(log2 p) + p - 1) alpha + 2 (p - 1) / p * n beta}: about twice the bytes of one send of the
 * message, whatever {@code p}, against {@code log2 p} times for the binomial tree. Best for long messages and more
 * than two ranks. Any {@code p}, any root; chunks past the end are empty.
 */
final class BcastScatterAllgather {
    private BcastScatterAllgather() {}

    static void build(Schedule s, MessageData buf, int root) {
        int p = s.size();
        if (p == 1) {
            return;
        }
        long n = buf.bytes();
        long chunk = (n + p - 1) / p;
        int rel = Binomial.rel(s.rank(), root, p);
        int top = Binomial.top(rel, p);
        // binomial scatter: the subtree of rel receives the chunks [rel, rel + subtree)
        if (rel != 0) {
            s.round().recv(Binomial.abs(rel - top, root, p), range(buf, chunk, rel, Binomial.subtreeSize(rel, p)));
        }
        Round out = s.round();
        for (int mask = top >> 1; mask > 0; mask >>= 1) {
            int child = rel + mask;
            if (child < p) {
                out.send(Binomial.abs(child, root, p), range(buf, chunk, child, Binomial.subtreeSize(child, p)));
            }
        }
        // ring allgather of the chunks, in relative ranks
        int right = Binomial.abs((rel + 1) % p, root, p);
        int left = Binomial.abs((rel - 1 + p) % p, root, p);
        for (int k = 0; k < p - 1; k++) {
            int sendChunk = (rel - k + p) % p;
            int recvChunk = (rel - k - 1 + p) % p;
            s.round().recv(left, range(buf, chunk, recvChunk, 1)).send(right, range(buf, chunk, sendChunk, 1));
        }
    }

    /** Chunks {@code [first, first + count)} of the message, cut at its end. */
    static MessageData range(MessageData buf, long chunk, int first, int count) {
        long n = buf.bytes();
        long from = Math.min(n, first * chunk);
        long to = Math.min(n, (first + (long) count) * chunk);
        return Blocks.slice(buf, from, to - from);
    }
}
