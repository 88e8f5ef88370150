package org.jmpi.coll;

/**
 * Binomial-tree reduction (see {@link Binomial}): every rank combines the partial results of its children's
 * subtrees with its own, one child after the other, and sends the result to its parent. A rank without children
 * sends its input as it is.
 *
 * <p>For a commutative operation the tree is rooted at the root. For a non-commutative one it is rooted at rank 0:
 * there the subtree of rank {@code r} is the ranks {@code [r, r + lowbit(r))} and each child's subtree follows its
 * parent's ranks, so combining "mine op child's" keeps rank order; rank 0 then sends the result to the root (one
 * more message when the root is not 0).
 *
 * <p>Cost: {@code ceil(log2 p) (alpha + n beta + n gamma)}. Best for short messages. Any {@code p}, any root, any
 * operation.
 */
final class ReduceBinomial {
    private ReduceBinomial() {}

    /** Builds the reduction; returns the array holding the result at the root, null elsewhere. */
    static Object build(Schedule s, ReduceBuffers b, int root) {
        int p = s.size();
        int r = s.rank();
        boolean commute = b.red.commutative();
        int treeRoot = commute ? root : 0;
        int rel = Binomial.rel(r, treeRoot, p);
        int top = Binomial.top(rel, p);
        int parent = Binomial.abs(rel - top, treeRoot, p);
        Object acc = null;
        if (rel + 1 >= p || top == 1) {
            // no children
            if (rel != 0) {
                s.round().send(parent, b.input);
            } else {
                acc = b.accumulator(s.round());
            }
        } else {
            Round round = s.round();
            acc = b.accumulator(round);
            Object tmp = b.temp();
            for (int mask = 1; mask < top && rel + mask < p; mask <<= 1) {
                round.recv(Binomial.abs(rel + mask, treeRoot, p), b.all(tmp));
                round = s.round();
                if (commute) {
                    round.local(b.reduce(tmp, acc, 0, b.count));
                } else {
                    // acc holds ranks [rel, rel + mask), tmp the next ones: acc op tmp, computed into tmp
                    round.local(b.reduce(acc, tmp, 0, b.count));
                    Object t = acc;
                    acc = tmp;
                    tmp = t;
                }
            }
            if (rel != 0) {
                round.send(parent, b.all(acc));
                acc = null;
            }
        }
        if (treeRoot != root) {
            if (r == treeRoot) {
                s.round().send(root, b.all(acc));
                return null;
            }
            if (r == root) {
                Object result = b.resultArray();
                s.round().recv(treeRoot, b.all(result));
                return result;
            }
        }
        return r == root ? acc : null;
    }
}
