package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Binomial-tree scatter (MPICH's short-message scatter), the mirror of {@link GatherBinomial}: the root sends each
 * child the blocks of the child's whole subtree in one message (in relative-rank order, which needs a rotated copy
 * unless the root is rank 0); every inner rank receives its subtree's blocks into a temporary buffer, keeps the first
 * and passes the rest on.
 *
 * <p>Cost: {@code ceil(log2 p) alpha + (p - 1) / p * N beta} for {@code N} bytes in all, plus copies at inner ranks.
 * Best for short blocks. Any {@code p}, any root.
 */
final class ScatterBinomial {
    private ScatterBinomial() {}

    static void build(Schedule s, MessageData send, MessageData recv, long block, int root) {
        int p = s.size();
        int r = s.rank();
        int rel = Binomial.rel(r, root, p);
        int size = Binomial.subtreeSize(rel, p);
        int top = Binomial.top(rel, p);
        int parent = Binomial.abs(rel - top, root, p);
        if (size == 1) {
            if (rel != 0) {
                s.round().recv(parent, recv);
            } else if (recv != null) {
                s.round().local(() -> Blocks.copy(Blocks.slice(send, 0, block), recv));
            }
            return;
        }
        MessageData tmp;
        Round first = s.round();
        if (rel == 0) {
            if (root == 0) {
                tmp = send;
            } else {
                MessageData rotated = s.tempBytes(p * block);
                first.local(() -> {
                    for (int i = 0; i < p; i++) {
                        Blocks.copy(send, Binomial.abs(i, root, p) * block, rotated, i * block, block);
                    }
                });
                tmp = rotated;
            }
        } else {
            tmp = s.tempBytes(size * block);
            first.recv(parent, tmp);
        }
        Round out = s.round();
        if (recv != null) {
            out.local(() -> Blocks.copy(tmp, 0, recv, 0, block));
        }
        for (int mask = top >> 1; mask > 0; mask >>= 1) {
            int child = rel + mask;
            if (child < p) {
                long bytes = Binomial.subtreeSize(child, p) * block;
                out.send(Binomial.abs(child, root, p), Blocks.slice(tmp, mask * block, bytes));
            }
        }
    }
}
