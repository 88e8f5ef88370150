package org.jmpi.tests.coll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jmpi.tests.coll.CollTesting.BIG;
import static org.jmpi.tests.coll.CollTesting.assertArray;
import static org.jmpi.tests.coll.CollTesting.marked;
import static org.jmpi.tests.coll.CollTesting.values;

import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.jmpi.coll.Algorithm;
import org.jmpi.coll.CollConfig;
import org.jmpi.coll.Tuning;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * The hierarchical collectives on jobs whose ranks are on several (emulated) hosts: chosen automatically for barrier,
 * bcast, reduce, allreduce and allgather when a communicator spans hosts with more than one rank on some host (from 64 KiB
 * by default; here, with {@code jmpi.coll.hierarchical=0}, at every size), and correct for every root, sizes from one
 * element to about 2 MiB, in place, on direct buffers, non-blocking, on a communicator
 * whose ranks run in the other order, with hosts of unequal sizes, and with the ranks dealt to the hosts in turn (a
 * host's ranks not consecutive: the allgather then stays flat). A non-commutative operation never takes them, nor
 * does a job with {@code jmpi.coll.hierarchical=off}. (On one host, where a forced hierarchical algorithm runs with a
 * single group, the other collective tests run them among every algorithm.)
 */
class HierarchicalCollectivesTest {

    /** Consecutive ranks share a host: 3 ranks as 2 + 1, 4 as 2 + 2, 5 as 3 + 2. */
    @MpiTest(ranks = {3, 4, 5}, modes = Mode.PROCESSES, hosts = 2, timeoutSeconds = 180)
    void twoHosts() throws MPIException {
        consecutiveOnTwo = true;
        everything(MPI.COMM_WORLD, true);
        Intracomm reversed = MPI.COMM_WORLD.split(0, MPI.COMM_WORLD.getSize() - MPI.COMM_WORLD.getRank());
        everything(reversed, true);
        reversed.free();
        notForNonCommutativeOperations();
        fromTheThreshold();
        notWhenTurnedOff();
    }

    /** 7 ranks on 3 hosts as 3 + 2 + 2. */
    @MpiTest(ranks = {7}, modes = Mode.PROCESSES, hosts = 3, timeoutSeconds = 180)
    void threeHosts() throws MPIException {
        everything(MPI.COMM_WORLD, true);
    }

    /** 5 ranks dealt to 2 hosts in turn: ranks 0, 2, 4 on one, 1, 3 on the other. */
    @MpiTest(ranks = {5}, modes = Mode.PROCESSES, hosts = 2, roundRobin = true, timeoutSeconds = 180)
    void ranksDealtToHostsInTurn() throws MPIException {
        everything(MPI.COMM_WORLD, false);
    }

    /** Every case on {@code c}; {@code consecutive}: whether each host's ranks are consecutive in {@code c}. */
    static void everything(Intracomm c, boolean consecutive) throws MPIException {
        c.barrier();
        assertThat(Tuning.lastSelected()).isEqualTo(Algorithm.BARRIER_HIERARCHICAL);
        if (c == MPI.COMM_WORLD) {
            BarrierBcastTest.barrierHoldsEveryoneBack(); // every barrier algorithm forced in turn, on these hosts
        }
        Tuning.useConfig(hierarchicalFrom("0"));
        try {
            for (int count : new int[] {1, 7, 1001, BIG}) {
                bcast(c, count);
                reduce(c, count);
                allreduce(c, count);
                allgather(c, count, consecutive);
            }
            nonBlocking(c);
        } finally {
            Tuning.useConfig(null);
        }
    }

    /** The parameters with {@code jmpi.coll.hierarchical} set to {@code value}. */
    static CollConfig hierarchicalFrom(String value) {
        return CollConfig.from(name -> name.equals("jmpi.coll.hierarchical") ? value : null);
    }

    /**
     * Every root. The binomial tree stays where it sends between hosts only once per host but the root's (from rank 0
     * of 4 ranks on 2 hosts as 2 + 2; with 3 + 2 the tree from rank 0 sends 2 to 3 as well as 0 to 4); some root takes
     * the hierarchical algorithm on every layout here.
     */
    static void bcast(Intracomm c, int count) throws MPIException {
        int rank = c.getRank();
        boolean hierarchical = false;
        for (int root = 0; root < c.getSize(); root++) {
            int[] expected = values(root, 0, count);
            int[] buf = rank == root ? expected.clone() : marked(count);
            c.bcast(buf, count, MPI.INT, root);
            assertArray(buf, expected, "bcast count " + count + " root " + root);
            Algorithm used = Tuning.lastSelected();
            assertThat(used).isIn(Algorithm.BCAST_HIERARCHICAL, Algorithm.BCAST_BINOMIAL);
            hierarchical |= used == Algorithm.BCAST_HIERARCHICAL;
            if (root == 0 && c == MPI.COMM_WORLD && consecutiveOnTwo && c.getSize() == 4) {
                assertThat(used).isEqualTo(Algorithm.BCAST_BINOMIAL);
            }
        }
        assertThat(hierarchical).isTrue();
    }

    /** Whether the world's ranks are on 2 hosts in runs (set by the test method that places them so). */
    static boolean consecutiveOnTwo;

    /** The element-wise sum of every rank's {@code values(rank, 0, count)}. */
    static int[] sum(int size, int count) {
        int[] s = new int[count];
        for (int r = 0; r < size; r++) {
            int[] v = values(r, 0, count);
            for (int i = 0; i < count; i++) {
                s[i] += v[i];
            }
        }
        return s;
    }

    /** Every root; as the bcast, the binomial tree stays where it sends between hosts only once per host. */
    static void reduce(Intracomm c, int count) throws MPIException {
        int rank = c.getRank();
        int[] expected = sum(c.getSize(), count);
        boolean hierarchical = false;
        for (int root = 0; root < c.getSize(); root++) {
            int[] recv = rank == root ? marked(count) : null;
            int[] input = values(rank, 0, count);
            c.reduce(input, recv, count, MPI.INT, MPI.SUM, root);
            Algorithm used = Tuning.lastSelected();
            assertThat(used).isIn(Algorithm.REDUCE_HIERARCHICAL, Algorithm.REDUCE_BINOMIAL);
            hierarchical |= used == Algorithm.REDUCE_HIERARCHICAL;
            assertArray(input, values(rank, 0, count), "reduce input unchanged");
            if (rank == root) {
                assertArray(recv, expected, "reduce count " + count + " root " + root);
            }
            int[] buf = values(rank, 0, count);
            c.reduce(buf, count, MPI.INT, MPI.SUM, root);
            if (rank == root) {
                assertArray(buf, expected, "reduce in place count " + count + " root " + root);
            }
        }
        assertThat(hierarchical).isTrue();
    }

    static void allreduce(Intracomm c, int count) throws MPIException {
        int rank = c.getRank();
        int[] expected = sum(c.getSize(), count);
        int[] input = values(rank, 0, count);
        int[] recv = marked(count);
        c.allReduce(input, recv, count, MPI.INT, MPI.SUM);
        assertThat(Tuning.lastSelected()).isEqualTo(Algorithm.ALLREDUCE_HIERARCHICAL);
        assertArray(recv, expected, "allreduce count " + count);
        assertArray(input, values(rank, 0, count), "allreduce input unchanged");
        int[] buf = values(rank, 0, count);
        c.allReduce(buf, count, MPI.INT, MPI.SUM);
        assertArray(buf, expected, "allreduce in place count " + count);
        IntBuffer in = MPI.newIntBuffer(count);
        in.put(0, values(rank, 0, count));
        IntBuffer out = MPI.newIntBuffer(count);
        c.allReduce(in, out, count, MPI.INT, MPI.SUM);
        int[] got = new int[count];
        out.get(0, got);
        assertArray(got, expected, "allreduce direct buffers count " + count);
    }

    static void allgather(Intracomm c, int count, boolean consecutive) throws MPIException {
        int rank = c.getRank();
        int size = c.getSize();
        int[] expected = new int[size * count];
        for (int r = 0; r < size; r++) {
            System.arraycopy(values(r, 0, count), 0, expected, r * count, count);
        }
        int[] recv = marked(size * count);
        c.allGather(values(rank, 0, count), count, MPI.INT, recv, count, MPI.INT);
        assertArray(recv, expected, "allgather count " + count);
        Algorithm used = Tuning.lastSelected();
        if (consecutive) {
            assertThat(used).isEqualTo(Algorithm.ALLGATHER_HIERARCHICAL);
        } else {
            assertThat(used.hierarchical()).as("allgather with a host's ranks apart: %s", used).isFalse();
        }
        int[] buf = marked(size * count);
        System.arraycopy(values(rank, 0, count), 0, buf, rank * count, count);
        c.allGather(buf, count, MPI.INT);
        assertArray(buf, expected, "allgather in place count " + count);
    }

    /** iAllReduce and iBcast on direct buffers and an iBarrier, started together and completed in the other order. */
    static void nonBlocking(Intracomm c) throws MPIException {
        int rank = c.getRank();
        int count = 40_000;
        IntBuffer in = MPI.newIntBuffer(count);
        in.put(0, values(rank, 0, count));
        IntBuffer out = MPI.newIntBuffer(count);
        IntBuffer b = MPI.newIntBuffer(count);
        int root = c.getSize() - 1;
        if (rank == root) {
            b.put(0, values(root, 0, count));
        }
        Request r1 = c.iAllReduce(in, out, count, MPI.INT, MPI.SUM);
        Request r2 = c.iBcast(b, count, MPI.INT, root);
        Request r3 = c.iBarrier();
        r3.waitFor();
        r2.waitFor();
        r1.waitFor();
        int[] got = new int[count];
        out.get(0, got);
        assertArray(got, sum(c.getSize(), count), "iallreduce");
        b.get(0, got);
        assertArray(got, values(root, 0, count), "ibcast");
    }

    /** A non-commutative operation keeps an order-preserving algorithm, and the right result. */
    static void notForNonCommutativeOperations() throws MPIException {
        for (int count : new int[] {1, 1001, 40_000}) {
            ReductionTest.allreduce(Algorithm.ALLREDUCE_RECURSIVE_DOUBLING, ReductionTest.AFFINE, count);
            assertThat(Tuning.lastSelected().orderPreserving()).isTrue();
            ReductionTest.reduce(Algorithm.REDUCE_BINOMIAL, ReductionTest.AFFINE, count);
            assertThat(Tuning.lastSelected().orderPreserving()).isTrue();
        }
    }

    /** By default, a 16 KiB allreduce is flat, a 64 KiB one hierarchical. */
    static void fromTheThreshold() throws MPIException {
        assertThat(allreduceTook(4096).hierarchical()).isFalse();
        assertThat(allreduceTook(16384)).isEqualTo(Algorithm.ALLREDUCE_HIERARCHICAL);
    }

    /** With {@code jmpi.coll.hierarchical=off} the flat algorithms run. */
    static void notWhenTurnedOff() throws MPIException {
        Tuning.useConfig(hierarchicalFrom("off"));
        try {
            MPI.COMM_WORLD.barrier();
            assertThat(Tuning.lastSelected()).isEqualTo(Algorithm.BARRIER_DISSEMINATION);
            assertThat(allreduceTook(1001).hierarchical()).isFalse();
            assertThat(allreduceTook(BIG).hierarchical()).isFalse();
        } finally {
            Tuning.useConfig(null);
        }
    }

    /** The algorithm a correct allreduce of {@code count} ints on the world took. */
    static Algorithm allreduceTook(int count) throws MPIException {
        int[] buf = values(MPI.COMM_WORLD.getRank(), 0, count);
        MPI.COMM_WORLD.allReduce(buf, count, MPI.INT, MPI.SUM);
        assertArray(buf, sum(MPI.COMM_WORLD.getSize(), count), "allreduce of " + count);
        return Tuning.lastSelected();
    }
}
