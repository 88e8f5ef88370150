package org.jmpi.tests.coll;

import java.util.List;
import java.util.function.Consumer;
import mpi.MPIException;
import org.jmpi.coll.Algorithm;
import org.jmpi.coll.Collective;
import org.jmpi.coll.Tuning;

/**
 * Helpers of the collective tests: forcing each algorithm in turn, deterministic data, and the counts every
 * algorithm is checked with. Every rank computes the expected result on its own from the same formulas (a sequential
 * reference), so a check needs no communication.
 */
final class CollTesting {
    private CollTesting() {}

    /** Element counts: empty, one, odd sizes, and about 2 MiB of ints ({@code bigInts}). */
    static int[] counts(int bigInts) {
        return new int[] {0, 1, 7, 1001, bigInts};
    }

    /** About 2 MiB of ints, an odd number. */
    static final int BIG = (2 << 20) / 4 + 3;

    /** A body that may throw MPIException. */
    @FunctionalInterface
    interface Body {
        void run(Algorithm a) throws MPIException;
    }

    /**
     * Runs {@code body} once per algorithm of {@code c}, with that algorithm forced on this rank, and checks that the
     * last call of the body used it.
     */
    static void forEachAlgorithm(Collective c, Body body) throws MPIException {
        forEachAlgorithm(c, true, body);
    }

    /**
     * Runs {@code body} once per algorithm of {@code c}, with that algorithm forced on this rank. With
     * {@code commutative} false the body uses a non-commutative operation: then an algorithm that reorders operands
     * must not have been used, forced or not.
     */
    static void forEachAlgorithm(Collective c, boolean commutative, Body body) throws MPIException {
        List<Algorithm> all = Algorithm.of(c);
        try {
            for (Algorithm a : all) {
                Tuning.force(c, a);
                body.run(a);
                Algorithm used = Tuning.lastSelected();
                if (commutative && used != a) {
                    throw new AssertionError("forced " + a + " but the last call used " + used);
                }
                if (!commutative && (!used.orderPreserving() || (a.orderPreserving() && used != a))) {
                    throw new AssertionError("forced " + a + " with a non-commutative operation, but the last call used "
                            + used);
                }
            }
        } finally {
            Tuning.force(c, null);
        }
    }

    /** The value rank {@code rank} contributes at index {@code i}: distinct across ranks and indices. */
    static int value(int rank, int i) {
        return rank * 1_000_003 + i * 7 + 13;
    }

    /** {@code n} values of {@code rank} starting at index {@code from}. */
    static int[] values(int rank, int from, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = value(rank, from + i);
        }
        return a;
    }

    /** Fills with a marker that no rank contributes, to see what a collective wrote. */
    static int[] marked(int n) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, -777);
        return a;
    }

    /** A short description of one case, for assertion messages. */
    static String describe(Algorithm a, int count, int root) {
        return a.collective().key() + "/" + a.key() + " count " + count + (root >= 0 ? " root " + root : "");
    }

    static <T> void each(List<T> items, Consumer<T> c) {
        items.forEach(c);
    }

    /** Fails with the first differing index (arrays may hold millions of elements). */
    static void assertArray(int[] actual, int[] expected, String what) {
        if (java.util.Arrays.equals(actual, expected)) {
            return;
        }
        int n = Math.min(actual.length, expected.length);
        for (int i = 0; i < n; i++) {
            if (actual[i] != expected[i]) {
                throw new AssertionError(what + ": element " + i + " is " + actual[i] + ", expected " + expected[i]);
            }
        }
        throw new AssertionError(what + ": length " + actual.length + ", expected " + expected.length);
    }

    /** Fails with the first differing index, comparing {@code n} elements from the given offsets. */
    static void assertRange(int[] actual, int aFrom, int[] expected, int eFrom, int n, String what) {
        for (int i = 0; i < n; i++) {
            if (actual[aFrom + i] != expected[eFrom + i]) {
                throw new AssertionError(what + ": element " + (aFrom + i) + " is " + actual[aFrom + i] + ", expected "
                        + expected[eFrom + i]);
            }
        }
    }
}
