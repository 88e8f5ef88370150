package org.jmpi.tests.coll;

import static org.jmpi.tests.coll.CollTesting.BIG;
import static org.jmpi.tests.coll.CollTesting.assertArray;
import static org.jmpi.tests.coll.CollTesting.assertRange;
import static org.jmpi.tests.coll.CollTesting.describe;
import static org.jmpi.tests.coll.CollTesting.forEachAlgorithm;
import static org.jmpi.tests.coll.CollTesting.marked;
import static org.jmpi.tests.coll.CollTesting.values;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;
import org.jmpi.coll.Algorithm;
import org.jmpi.coll.CollConfig;
import org.jmpi.coll.Collective;
import org.jmpi.coll.Tuning;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * Reduce, allreduce, reduce-scatter, reduce-scatter-block, scan and exscan (with their in-place forms): every
 * algorithm, every root, counts from 0 to about 2 MiB, with a commutative operation (MPI.SUM on MPI.INT) and a
 * non-commutative one (composition of affine maps, a user function on MPI.INT2 pairs), whose result shows whether
 * operands were combined in rank order.
 */
class ReductionTest {

    @MpiTest(ranks = {1, 2, 3, 4, 5, 7, 8}, modes = Mode.THREADS, timeoutSeconds = 180)
    void threads() throws MPIException {
        all();
    }

    @MpiTest(ranks = {2, 3, 4}, modes = Mode.PROCESSES, timeoutSeconds = 180)
    void processes() throws MPIException {
        all();
    }

    /** An operation under test and its sequential reference. */
    abstract static class Case {
        final String name;
        final Datatype type;
        /** Ints per element. */
        final int width;
        final boolean commutative;

        Case(String name, Datatype type, int width, boolean commutative) {
            this.name = name;
            this.type = type;
            this.width = width;
            this.commutative = commutative;
        }

        abstract Op op();

        /** Rank {@code rank}'s input, {@code count} elements. */
        abstract int[] input(int rank, int count);

        /** {@code acc = acc op next} (acc holds the lower ranks) for element {@code e}. */
        abstract void combine(int[] acc, int[] next, int e);

        /** The reduction of the inputs of ranks {@code [lo, hi)}. */
        int[] reduce(int lo, int hi, int count) {
            int[] acc = input(lo, count);
            for (int r = lo + 1; r < hi; r++) {
                int[] next = input(r, count);
                for (int e = 0; e < count; e++) {
                    combine(acc, next, e);
                }
            }
            return acc;
        }
    }

    static final Case SUM = new Case("MPI_SUM on MPI.INT", MPI.INT, 1, true) {
        @Override
        Op op() {
            return MPI.SUM;
        }

        @Override
        int[] input(int rank, int count) {
            return values(rank, 0, count);
        }

        @Override
        void combine(int[] acc, int[] next, int e) {
            acc[e] += next[e];
        }
    };

    /**
     * Composition of affine maps {@code x -> a x + b} (mod 2^32) on MPI.INT2 pairs (a, b): "u then v" is
     * {@code (a_u a_v, b_u a_v + b_v)}, associative but not commutative. Written against the ByteBuffer form of
     * UserFunction.
     */
    static final Case AFFINE = new Case("affine composition on MPI.INT2", MPI.INT2, 2, false) {
        @Override
        Op op() {
            return new Op(new UserFunction() {
                @Override
                public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) {
                    IntBuffer u = in.asIntBuffer();
                    IntBuffer v = inOut.asIntBuffer();
                    for (int e = 0; e < count; e++) {
                        int au = u.get(2 * e);
                        int bu = u.get(2 * e + 1);
                        int av = v.get(2 * e);
                        int bv = v.get(2 * e + 1);
                        v.put(2 * e, au * av);
                        v.put(2 * e + 1, bu * av + bv);
                    }
                }
            }, false);
        }

        @Override
        int[] input(int rank, int count) {
            int[] x = values(rank, 0, count);
            int[] a = new int[2 * count];
            for (int e = 0; e < count; e++) {
                a[2 * e] = 2 * (x[e] & 0xFF) + 1;
                a[2 * e + 1] = x[e];
            }
            return a;
        }

        @Override
        void combine(int[] acc, int[] next, int e) {
            int au = acc[2 * e];
            int bu = acc[2 * e + 1];
            acc[2 * e] = au * next[2 * e];
            acc[2 * e + 1] = bu * next[2 * e] + next[2 * e + 1];
        }
    };

    static void all() throws MPIException {
        segmentedRing();
        for (Case c : new Case[] {SUM, AFFINE}) {
            // about 2 MiB with MPI.SUM; the user function (which copies through IntBuffer views) gets 512 KiB
            int big = c.commutative ? BIG : (BIG / 4) / c.width;
            int[] counts = {0, 1, 7, 1001, big};
            forEachAlgorithm(Collective.REDUCE, c.commutative, a -> {
                for (int count : counts) {
                    reduce(a, c, count);
                }
            });
            forEachAlgorithm(Collective.ALLREDUCE, c.commutative, a -> {
                for (int count : counts) {
                    allreduce(a, c, count);
                }
            });
            forEachAlgorithm(Collective.REDUCE_SCATTER, c.commutative, a -> {
                for (int count : counts) {
                    // blocks of about count / size elements, so that the whole vector has about count elements
                    reduceScatter(a, c, count / MPI.COMM_WORLD.getSize() + (count > 0 ? 1 : 0));
                }
            });
            forEachAlgorithm(Collective.REDUCE_SCATTER_BLOCK, c.commutative, a -> {
                for (int count : counts) {
                    reduceScatterBlock(a, c, count / MPI.COMM_WORLD.getSize() + (count > 0 ? 1 : 0));
                }
            });
            forEachAlgorithm(Collective.SCAN, c.commutative, a -> {
                for (int count : counts) {
                    scan(a, c, count, false);
                }
            });
            forEachAlgorithm(Collective.EXSCAN, c.commutative, a -> {
                for (int count : counts) {
                    scan(a, c, count, true);
                }
            });
        }
    }

    /** The ring allreduce with segments much smaller than its blocks, so that every step takes many rounds. */
    static void segmentedRing() throws MPIException {
        CollConfig d = CollConfig.defaults();
        Tuning.useConfig(new CollConfig(d.forced(), d.bcastLong(), d.bcastPipeline(), d.bcastSegment(), d.gatherShort(),
                d.allgatherShort(), d.alltoallShort(), d.alltoallMedium(), d.allreduceShort(), d.allreduceLong(), 20,
                d.reduceLong(), d.reduceScatterLong(), d.pace(), d.hierarchical()));
        try {
            Tuning.force(Collective.ALLREDUCE, Algorithm.ALLREDUCE_RING);
            for (int count : new int[] {1, 5, 6, 1001, 40_003}) {
                allreduce(Algorithm.ALLREDUCE_RING, SUM, count);
            }
        } finally {
            Tuning.force(Collective.ALLREDUCE, null);
            Tuning.useConfig(null);
        }
    }

    static String what(Algorithm a, Case c, int count, int root) {
        return describe(a, count, root) + " " + c.name;
    }

    static void reduce(Algorithm a, Case c, int count) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int[] expected = c.reduce(0, size, count);
        Op op = c.op();
        for (int root = 0; root < size; root++) {
            int[] recv = rank == root ? marked(c.width * count) : null;
            w.reduce(c.input(rank, count), recv, count, c.type, op, root);
            if (rank == root) {
                assertArray(recv, expected, what(a, c, count, root));
            }
            int[] buf = c.input(rank, count);
            w.reduce(buf, count, c.type, op, root);
            if (rank == root) {
                assertArray(buf, expected, what(a, c, count, root) + " in place");
            } else {
                assertArray(buf, c.input(rank, count), what(a, c, count, root) + " in place, input unchanged");
            }
        }
    }

    static void allreduce(Algorithm a, Case c, int count) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int[] expected = c.reduce(0, size, count);
        Op op = c.op();
        int[] send = c.input(rank, count);
        int[] recv = marked(c.width * count);
        w.allReduce(send, recv, count, c.type, op);
        assertArray(recv, expected, what(a, c, count, -1));
        assertArray(send, c.input(rank, count), what(a, c, count, -1) + " input unchanged");
        int[] buf = c.input(rank, count);
        w.allReduce(buf, count, c.type, op);
        assertArray(buf, expected, what(a, c, count, -1) + " in place");
        // a direct buffer as output, a heap buffer slice as input
        if (count > 0 && count < 2000) {
            IntBuffer out = MPI.newIntBuffer(c.width * count);
            int[] padded = new int[c.width * count + 3];
            System.arraycopy(c.input(rank, count), 0, padded, 3, c.width * count);
            w.allReduce(MPI.slice(padded, 3), out, count, c.type, op);
            int[] got = new int[c.width * count];
            out.get(0, got);
            assertArray(got, expected, what(a, c, count, -1) + " slice in, direct buffer out");
            IntBuffer in = MPI.newIntBuffer(c.width * count);
            in.put(0, c.input(rank, count));
            IntBuffer out2 = MPI.newIntBuffer(c.width * count);
            w.allReduce(in, out2, count, c.type, op);
            out2.get(0, got);
            assertArray(got, expected, what(a, c, count, -1) + " direct buffers in and out");
            in.get(0, got);
            assertArray(got, c.input(rank, count), what(a, c, count, -1) + " direct buffers, input unchanged");
        }
    }

    static void reduceScatter(Algorithm a, Case c, int count) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int[] counts = GatherScatterTest.vcounts(size, count);
        int total = 0;
        int at = 0;
        for (int i = 0; i < size; i++) {
            if (i < rank) {
                at += counts[i];
            }
            total += counts[i];
        }
        int[] whole = c.reduce(0, size, total);
        int mine = counts[rank];
        Op op = c.op();
        int[] recv = marked(c.width * mine + 1);
        w.reduceScatter(c.input(rank, total), recv, counts, c.type, op);
        assertRange(recv, 0, whole, c.width * at, c.width * mine, what(a, c, count, -1));
        assertRange(recv, c.width * mine, new int[] {-777}, 0, 1, what(a, c, count, -1) + " past the block");
        int[] buf = c.input(rank, total);
        w.reduceScatter(buf, counts, c.type, op);
        assertRange(buf, 0, whole, c.width * at, c.width * mine, what(a, c, count, -1) + " in place");
    }

    static void reduceScatterBlock(Algorithm a, Case c, int count) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int[] whole = c.reduce(0, size, size * count);
        Op op = c.op();
        int[] recv = marked(c.width * count);
        w.reduceScatterBlock(c.input(rank, size * count), recv, count, c.type, op);
        assertRange(recv, 0, whole, c.width * count * rank, c.width * count, what(a, c, count, -1));
        int[] buf = c.input(rank, size * count);
        w.reduceScatterBlock(buf, count, c.type, op);
        assertRange(buf, 0, whole, c.width * count * rank, c.width * count, what(a, c, count, -1) + " in place");
    }

    static void scan(Algorithm a, Case c, int count, boolean exclusive) throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        Op op = c.op();
        int[] recv = marked(c.width * count);
        if (exclusive) {
            w.exScan(c.input(rank, count), recv, count, c.type, op);
        } else {
            w.scan(c.input(rank, count), recv, count, c.type, op);
        }
        int[] expected = exclusive ? (rank == 0 ? marked(c.width * count) : c.reduce(0, rank, count))
                : c.reduce(0, rank + 1, count);
        assertArray(recv, expected, what(a, c, count, -1));
        int[] buf = c.input(rank, count);
        if (exclusive) {
            w.exScan(buf, count, c.type, op);
        } else {
            w.scan(buf, count, c.type, op);
        }
        int[] expectedInPlace = exclusive && rank == 0 ? c.input(rank, count) : expected;
        assertArray(buf, expectedInPlace, what(a, c, count, -1) + " in place");
    }
}
