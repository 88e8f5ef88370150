package org.jmpi.coll;

/**
 * The binomial tree over ranks relative to a root, shared by the tree algorithms. In relative ranks
 * ({@code rel = (rank - root) mod p}), the parent of {@code rel > 0} is {@code rel} without its lowest set bit, and
 * its children are {@code rel + 2^j} for each {@code 2^j} below that bit (for the root, below {@code p}). The subtree
 * of {@code rel} is the relative ranks {@code [rel, rel + lowbit(rel))}, cut at {@code p}.
 */
final class Binomial {
    private Binomial() {}

    /** The lowest set bit of {@code rel}, or the smallest power of two at least {@code p} for the root. */
    static int top(int rel, int p) {
        return rel == 0 ? (p <= 1 ? 1 : Fold.highestOneBit(p - 1) << 1) : Integer.lowestOneBit(rel);
    }

    /** Number of relative ranks in the subtree of {@code rel}. */
    static int subtreeSize(int rel, int p) {
        return Math.min(top(rel, p), p - rel);
    }

    static int abs(int rel, int root, int p) {
        return (rel + root) % p;
    }

    static int rel(int rank, int root, int p) {
        return (rank - root + p) % p;
    }
}
