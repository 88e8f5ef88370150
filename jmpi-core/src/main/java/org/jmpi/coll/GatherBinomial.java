package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Binomial-tree gather (MPICH's short-message gather): every rank collects the blocks of its subtree (see
 * {@link Binomial}) in a temporary buffer, in relative-rank order, and sends them to its parent in one message. The
 * root receives in relative order and rotates the blocks into place at the end (no rotation needed for root 0, which
 * receives straight into its buffer).
 *
 * <p>Cost: {@code ceil(log2 p) alpha + (p - 1) / p * N beta} for {@code N} bytes in all, plus a copy of each block at
 * the inner ranks: fewer messages than the linear gather, so best for short blocks. Any {@code p}, any root.
 */
final class GatherBinomial {
    private GatherBinomial() {}

    static void build(Schedule s, MessageData send, MessageData recv, long block, int root) {
        int p = s.size();
        int r = s.rank();
        int rel = Binomial.rel(r, root, p);
        int size = Binomial.subtreeSize(rel, p);
        int top = Binomial.top(rel, p);
        if (size == 1) {
            if (rel != 0) {
                s.round().send(Binomial.abs(rel - top, root, p), send);
            } else if (send != null) {
                // p == 1
                s.round().local(() -> Blocks.copy(send, Blocks.slice(recv, 0, block)));
            }
            return;
        }
        // the subtree's blocks, relative rank rel + i at offset i * block
        boolean direct = rel == 0 && root == 0;
        MessageData tmp = direct ? recv : s.tempBytes(size * block);
        Round in = s.round();
        if (send != null) {
            MessageData own = Blocks.slice(tmp, 0, block);
            in.local(() -> Blocks.copy(send, own));
        } else if (!direct) {
            // the root in place: its own block waits in the receive buffer
            MessageData own = Blocks.slice(recv, root * block, block);
            MessageData dst = Blocks.slice(tmp, 0, block);
            in.local(() -> Blocks.copy(own, dst));
        }
        for (int mask = 1; mask < top && rel + mask < p; mask <<= 1) {
            int child = rel + mask;
            long bytes = Binomial.subtreeSize(child, p) * block;
            in.recv(Binomial.abs(child, root, p), Blocks.slice(tmp, mask * block, bytes));
        }
        if (rel != 0) {
            s.round().send(Binomial.abs(rel - top, root, p), Blocks.slice(tmp, 0, size * block));
        } else if (!direct) {
            s.round().local(() -> {
                for (int i = 0; i < p; i++) {
                    Blocks.copy(tmp, i * block, recv, Binomial.abs(i, root, p) * block, block);
                }
            });
        }
    }
}
