package org.jmpi.tests.coll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * MPI 4.0's persistent collectives and partitioned communication on an intercommunicator (the even world ranks
 * against the odd ones). Persistent collectives: each form the
 * blocking intercommunicator collectives have, built once, started together ({@code startAll}) three times with new
 * contents, and after each activation compared with the blocking collective run on the same inputs (every output
 * array, including what a call must leave untouched). Then: a persistent collective started again before it completed,
 * and the in-place forms, which do not apply to intercommunicators. Partitioned: a send to the other group's rank of
 * the same number, partitions made ready in reverse order.
 */
class PersistentIntercommTest {

    @MpiTest(ranks = {2, 3, 5}, modes = Mode.THREADS, timeoutSeconds = 120)
    void threads() throws MPIException {
        scenario();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, timeoutSeconds = 120)
    void processes() throws MPIException {
        scenario();
    }

    /** One collective: its input and output arrays, how to run it blocking, and its persistent request. */
    private interface Blocking {
        void run() throws MPIException;
    }

    private record Case(String name, int[] in, int[] out, Blocking blocking, Prequest persistent) {}

    static void scenario() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int colour = rank % 2;
        Intracomm local = w.split(colour, rank);
        Intercomm inter = w.createIntercomm(local, 0, 1 - colour, 23);
        int me = inter.getRank();
        int ls = inter.getSize();
        int rs = inter.getRemoteSize();
        // roots: rank 0 of the evens sends to (or receives from) the odds; rank ls - 1 of the odds likewise
        int evensRoot = colour == 0 ? (me == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0;
        int oddsRoot = colour == 1 ? (me == ls - 1 ? MPI.ROOT : MPI.PROC_NULL) : rs - 1;
        int[] ones = new int[rs];
        int[] displs = new int[rs];
        for (int r = 0; r < rs; r++) {
            ones[r] = 2;
            displs[r] = 2 * (rs - 1 - r); // blocks in reverse order
        }
        // reduce-scatter: both groups reduce vectors of 6 elements, each scatters the other's sum by its own counts
        int[] localCounts = new int[ls];
        for (int i = 0; i < 6; i++) {
            localCounts[i % ls]++;
        }

        List<Case> cases = new ArrayList<>();
        int[] bcastBuf = new int[3];
        cases.add(new Case("bcast", bcastBuf, bcastBuf, () -> inter.bcast(bcastBuf, 3, MPI.INT, evensRoot),
                inter.bcastInit(bcastBuf, 3, MPI.INT, evensRoot)));
        int[] arIn = new int[2];
        int[] arOut = new int[2];
        cases.add(new Case("allreduce", arIn, arOut, () -> inter.allReduce(arIn, arOut, 2, MPI.INT, MPI.SUM),
                inter.allReduceInit(arIn, arOut, 2, MPI.INT, MPI.SUM)));
        int[] redIn = new int[2];
        int[] redOut = new int[2];
        cases.add(new Case("reduce", redIn, redOut, () -> inter.reduce(redIn, redOut, 2, MPI.INT, MPI.MAX, oddsRoot),
                inter.reduceInit(redIn, redOut, 2, MPI.INT, MPI.MAX, oddsRoot)));
        int[] agIn = new int[2];
        int[] agOut = new int[2 * rs];
        cases.add(new Case("allgather", agIn, agOut, () -> inter.allGather(agIn, 2, MPI.INT, agOut, 2, MPI.INT),
                inter.allGatherInit(agIn, 2, MPI.INT, agOut, 2, MPI.INT)));
        int[] agvOut = new int[2 * rs];
        cases.add(new Case("allgatherv", agIn, agvOut,
                () -> inter.allGatherv(agIn, 2, MPI.INT, agvOut, ones, displs, MPI.INT),
                inter.allGathervInit(agIn, 2, MPI.INT, agvOut, ones, displs, MPI.INT)));
        int[] aaIn = new int[2 * rs];
        int[] aaOut = new int[2 * rs];
        cases.add(new Case("alltoall", aaIn, aaOut, () -> inter.allToAll(aaIn, 2, MPI.INT, aaOut, 2, MPI.INT),
                inter.allToAllInit(aaIn, 2, MPI.INT, aaOut, 2, MPI.INT)));
        int[] gIn = new int[2];
        int[] gOut = new int[2 * rs];
        cases.add(new Case("gather", gIn, gOut, () -> inter.gather(gIn, 2, MPI.INT, gOut, 2, MPI.INT, evensRoot),
                inter.gatherInit(gIn, 2, MPI.INT, gOut, 2, MPI.INT, evensRoot)));
        int[] sIn = new int[2 * rs];
        int[] sOut = new int[2];
        cases.add(new Case("scatter", sIn, sOut, () -> inter.scatter(sIn, 2, MPI.INT, sOut, 2, MPI.INT, oddsRoot),
                inter.scatterInit(sIn, 2, MPI.INT, sOut, 2, MPI.INT, oddsRoot)));
        int[] rsbIn = new int[2 * rs];
        int[] rsbOut = new int[2];
        cases.add(new Case("reduce_scatter_block", rsbIn, rsbOut,
                () -> inter.reduceScatterBlock(rsbIn, rsbOut, 2, MPI.INT, MPI.SUM),
                inter.reduceScatterBlockInit(rsbIn, rsbOut, 2, MPI.INT, MPI.SUM)));
        int[] rscIn = new int[6];
        int[] rscOut = new int[localCounts[me]];
        cases.add(new Case("reduce_scatter", rscIn, rscOut,
                () -> inter.reduceScatter(rscIn, rscOut, localCounts, MPI.INT, MPI.SUM),
                inter.reduceScatterInit(rscIn, rscOut, localCounts, MPI.INT, MPI.SUM)));
        Prequest barrier = inter.barrierInit();

        Prequest[] all = new Prequest[cases.size() + 1];
        for (int i = 0; i < cases.size(); i++) {
            all[i] = cases.get(i).persistent();
        }
        all[cases.size()] = barrier;
        for (int activation = 0; activation < 3; activation++) {
            for (Case c : cases) {
                fill(c, rank, activation);
            }
            Prequest.startAll(all);
            Request.waitAll(all);
            List<int[]> got = new ArrayList<>();
            for (Case c : cases) {
                got.add(c.out().clone());
            }
            for (Case c : cases) {
                fill(c, rank, activation);
                c.blocking().run();
            }
            for (int i = 0; i < cases.size(); i++) {
                Case c = cases.get(i);
                assertThat(got.get(i)).as("%s, activation %d, world rank %d", c.name(), activation, rank)
                        .containsExactly(c.out());
            }
        }

        // a start while the previous activation may still run: refused, the request untouched
        inter.setErrhandler(MPI.ERRORS_RETURN);
        barrier.start();
        assertThatThrownBy(barrier::start).isInstanceOfSatisfying(MPIException.class,
                e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_REQUEST));
        barrier.waitFor();
        // in-place forms do not apply to intercommunicators, persistent or not
        assertThatThrownBy(() -> inter.allReduceInit(new int[1], 1, MPI.INT, MPI.SUM))
                .isInstanceOfSatisfying(MPIException.class,
                        e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_UNSUPPORTED_OPERATION));
        for (Prequest p : all) {
            p.free();
        }
        partitioned(inter, colour, rank);
        inter.free();
        local.free();
    }

    /**
     * Partitioned communication across the groups: local rank r of the evens sends 4 partitions, made ready last one
     * first, to remote rank r of the odds, three activations with new contents.
     */
    private static void partitioned(Intercomm inter, int colour, int rank) throws MPIException {
        int me = inter.getRank();
        if (me >= Math.min(inter.getSize(), inter.getRemoteSize())) {
            return;
        }
        int[] buf = new int[8];
        Prequest p = colour == 0 ? inter.pSendInit(buf, 4, 2, MPI.INT, me, 5)
                : inter.pRecvInit(buf, 4, 2, MPI.INT, me, 5);
        for (int activation = 0; activation < 3; activation++) {
            for (int i = 0; i < buf.length; i++) {
                buf[i] = colour == 0 ? 100 * activation + 10 * rank + i : -1;
            }
            p.start();
            if (colour == 0) {
                for (int q = 3; q >= 0; q--) {
                    p.pReady(q);
                }
            }
            p.waitFor();
            if (colour == 1) {
                for (int i = 0; i < buf.length; i++) {
                    // the sender is the evens' local rank me: world rank 2 me
                    assertThat(buf[i]).as("partitioned, activation %d, element %d", activation, i)
                            .isEqualTo(100 * activation + 20 * me + i);
                }
            }
        }
        p.free();
    }

    /** New contents for an activation: the inputs from the rank and activation, the outputs a marker. */
    private static void fill(Case c, int rank, int activation) {
        int[] in = c.in();
        for (int i = 0; i < in.length; i++) {
            in[i] = 1000 * activation + 10 * rank + i;
        }
        if (c.out() != in) {
            Arrays.fill(c.out(), -7);
        }
    }
}
