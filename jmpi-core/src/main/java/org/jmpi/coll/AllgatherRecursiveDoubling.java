package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Recursive-doubling allgather: in step {@code k} ranks whose new ranks differ in bit {@code k} swap everything they
 * have gathered so far (a run of {@code 2^k} blocks that lies in one piece in the receive buffer), so after
 * {@code log2 p} steps all have everything. A size that is not a power of two is folded first (see {@link Fold}): the
 * ranks that sit out hand their block to a partner before and get the whole result from it after.
 *
 * <p>Cost: {@code log2 p * alpha + (p - 1) n beta} for a power of two, plus {@code 2 alpha + (n + p n) beta} on
 * the folded ranks otherwise. Best for short messages on a power of two ranks. Blocks go straight into the receive
 * buffer, no temporary.
 */
final class AllgatherRecursiveDoubling {
    private AllgatherRecursiveDoubling() {}

    static void build(Schedule s, MessageData send, MessageData recv, long block) {
        int p = s.size();
        int r = s.rank();
        Fold f = new Fold(p);
        Round first = s.round();
        if (send != null) {
            MessageData own = Blocks.slice(recv, r * block, Math.min(block, send.bytes()));
            first.local(() -> Blocks.copy(send, own));
        }
        if (f.sitsOut(r)) {
            first.send(r + 1, Blocks.slice(recv, r * block, block));
            s.round().recv(r + 1, recv);
            return;
        }
        if (r < 2 * f.rem) {
            first.recv(r - 1, Blocks.slice(recv, (r - 1) * block, block));
        }
        int nr = f.newRank(r);
        for (int mask = 1; mask < f.pof2; mask <<= 1) {
            int partner = nr ^ mask;
            int mine = nr & ~(mask - 1);
            int theirs = partner & ~(mask - 1);
            s.round()
                    .recv(f.oldRank(partner), run(recv, block, f, theirs, mask))
                    .send(f.oldRank(partner), run(recv, block, f, mine, mask));
        }
        if (r < 2 * f.rem) {
            s.round().send(r - 1, recv);
        }
    }

    /** The blocks of new ranks {@code [from, from + count)}. */
    private static MessageData run(MessageData recv, long block, Fold f, int from, int count) {
        long lo = f.firstOld(from) * block;
        long hi = f.firstOld(from + count) * block;
        return Blocks.slice(recv, lo, hi - lo);
    }
}
