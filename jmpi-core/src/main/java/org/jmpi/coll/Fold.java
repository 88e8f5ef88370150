package org.jmpi.coll;

/**
 * Folding a communicator of any size onto a power of two, for the recursive doubling and halving algorithms
 * (Thakur, Rabenseifner and Gropp, "Optimization of collective communication operations in MPICH", 2005). With
 * {@code pof2} the largest power of two not above {@code p} and {@code rem = p - pof2}, the first {@code 2 * rem}
 * ranks pair up, (0, 1), (2, 3), ...: the even rank of each pair hands its data to the odd one and sits out; the
 * others take part as "new ranks" {@code 0 .. pof2 - 1}, in the order of their ranks. New rank {@code i} stands for
 * the ranks {@code [firstOld(i), firstOld(i + 1))}: two of them for {@code i < rem}, else one. Because the order is
 * kept, algorithms built on the fold still combine operands in rank order.
 */
final class Fold {
    final int p;
    final int pof2;
    final int rem;

    Fold(int p) {
        this.p = p;
        this.pof2 = highestOneBit(p);
        this.rem = p - pof2;
    }

    /**
     * The largest power of two not above {@code p} (0 for 0), as {@link Integer#highestOneBit} computes it but without
     * its call of {@link Integer#numberOfLeadingZeros}, 79 bytes of bytecode, which C1 does not inline: the collectives
     * that asked for it on every call made that JDK method hot, and C2 compiled it on the rank's core within the
     * program's first thousands of collectives, and again after the JDK had called it with other values
     * (a deoptimization).
     */
    static int highestOneBit(int p) {
        int h = p;
        while ((h & (h - 1)) != 0) {
            h &= h - 1; // clears the lowest set bit
        }
        return h;
    }

    /** The new rank of {@code rank}, or -1 for a rank that sits out. */
    int newRank(int rank) {
        if (rank < 2 * rem) {
            return rank % 2 == 0 ? -1 : rank / 2;
        }
        return rank - rem;
    }

    /** The rank that takes part as new rank {@code nr}. */
    int oldRank(int nr) {
        return nr < rem ? 2 * nr + 1 : nr + rem;
    }

    /** The first of the ranks new rank {@code nr} stands for ({@code p} for {@code nr == pof2}). */
    int firstOld(int nr) {
        return nr < rem ? 2 * nr : nr + rem;
    }

    /** True when {@code rank} sits out (its odd partner {@code rank + 1} works for it). */
    boolean sitsOut(int rank) {
        return rank < 2 * rem && rank % 2 == 0;
    }
}
