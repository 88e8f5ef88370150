package org.jmpi.tests.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.comm.ContextIds;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * Context ids: creating and freeing 100,000 communicators leaks none; many communicators alive at once keep their
 * messages apart; threads creating communicators at once on different parents under THREAD_MULTIPLE get distinct
 * contexts that agree across ranks.
 */
class ContextIdTest {

    /** Dup, split and create in turn, freeing each; the pool ends where it started. */
    private static void createAndFree(int rounds) throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        Group all = w.getGroup();
        int before = ContextIds.get().inUse();
        for (int i = 0; i < rounds; i++) {
            Intracomm c = switch (i % 3) {
                case 0 -> w.dup();
                case 1 -> w.split(rank % 2, -rank);
                default -> w.create(all);
            };
            if (i % 1000 == 0) {
                int[] v = {1};
                c.allReduce(v, 1, MPI.INT, MPI.SUM);
                assertThat(v[0]).isEqualTo(c.getSize());
            }
            c.free();
        }
        assertThat(ContextIds.get().inUse()).isEqualTo(before);
        assertThat(size).isPositive();
    }

    @MpiTest(ranks = 1, modes = Mode.THREADS, timeoutSeconds = 120)
    void aHundredThousandCommunicatorsLeakNothing() throws MPIException {
        createAndFree(100_000);
    }

    /**
     * More creations than the pool has slots ({@link ContextIds#SLOTS}), so a leak would end in MPI_ERR_INTERN; each
     * costs an allreduce or two, which on a loaded 2-core machine is hundreds of microseconds, hence fewer rounds.
     */
    @MpiTest(ranks = {2, 3}, modes = Mode.THREADS, timeoutSeconds = 120)
    void moreCommunicatorsThanSlotsLeakNothing() throws MPIException {
        createAndFree(ContextIds.SLOTS + 500);
    }

    @MpiTest(ranks = {2}, modes = Mode.PROCESSES, timeoutSeconds = 120)
    void moreCommunicatorsThanSlotsOverProcesses() throws MPIException {
        createAndFree(ContextIds.SLOTS + 100);
    }

    /**
     * 300 communicators alive at once: each rank sends one message on each to its right neighbour, all with the same
     * tag, then receives them in reverse order of creation; each receive must get the message of its own communicator.
     */
    @MpiTest(ranks = {1, 2, 3, 8}, modes = Mode.THREADS)
    void manyLiveCommunicatorsKeepMessagesApart() throws MPIException {
        manyLive();
    }

    @MpiTest(ranks = {3}, modes = Mode.PROCESSES)
    void manyLiveCommunicatorsOverProcesses() throws MPIException {
        manyLive();
    }

    private static void manyLive() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        List<Intracomm> comms = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            comms.add(i % 2 == 0 ? w.dup() : comms.get(i - 1).split(0, rank));
        }
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        for (int i = 0; i < comms.size(); i++) {
            comms.get(i).send(new int[] {i}, 1, MPI.INT, right, 9);
        }
        int[] in = new int[1];
        for (int i = comms.size() - 1; i >= 0; i--) {
            comms.get(i).recv(in, 1, MPI.INT, left, 9);
            assertThat(in[0]).isEqualTo(i);
        }
        for (Intracomm c : comms) {
            c.free();
        }
    }

    /**
     * Four threads per rank, each on its own duplicate of the world, create and free communicators at the same time;
     * each new communicator must work (an allreduce and a ring message on it, with a tag every thread uses).
     */
    @MpiTest(ranks = {1, 3}, modes = Mode.THREADS, init = false, timeoutSeconds = 120)
    void threadsCreateAtOnceOnDifferentParents() throws Exception {
        concurrentCreation(100);
    }

    @MpiTest(ranks = {2}, modes = Mode.PROCESSES, init = false, timeoutSeconds = 120)
    void threadsCreateAtOnceOverProcesses() throws Exception {
        concurrentCreation(50);
    }

    private static void concurrentCreation(int rounds) throws Exception {
        int provided = MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
        assertThat(provided).isEqualTo(MPI.THREAD_MULTIPLE);
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int threads = 4;
        Intracomm[] parents = new Intracomm[threads];
        for (int t = 0; t < threads; t++) {
            parents[t] = w.dup();
        }
        int before = ContextIds.get().inUse();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Intracomm parent = parents[t];
                int id = t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < rounds; i++) {
                        Intracomm c = i % 2 == 0 ? parent.dup() : parent.split(0, -rank);
                        int[] v = {id};
                        c.allReduce(v, 1, MPI.INT, MPI.SUM);
                        assertThat(v[0]).isEqualTo(id * size);
                        int[] in = new int[1];
                        c.sendRecv(new int[] {id * 1000 + rank}, 1, MPI.INT, (c.getRank() + 1) % size, 3, in, 1,
                                MPI.INT, (c.getRank() + size - 1) % size, 3);
                        assertThat(in[0] / 1000).isEqualTo(id);
                        c.free();
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        assertThat(ContextIds.get().inUse()).isEqualTo(before);
        for (Intracomm p : parents) {
            p.free();
        }
        MPI.Finalize();
    }
}
