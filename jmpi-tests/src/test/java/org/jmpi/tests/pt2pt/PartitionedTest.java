package org.jmpi.tests.pt2pt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * MPI 4.0's partitioned communication between pairs of ranks (rank 2i sends to 2i+1; an odd last rank talks to
 * PROC_NULL): partitions marked ready by four threads in random order while the receiver polls {@code pArrived} and
 * checks each partition as it arrives; different partition counts on the two sides; arrays and direct buffers; three
 * activations with new data each; two partitioned operations with the same tag matched in init order although their
 * partitions travel in the opposite order; and the errors.
 */
class PartitionedTest {
    private static final int ACTIVATIONS = 3;

    @MpiTest(ranks = {1, 2, 3, 4}, modes = Mode.THREADS, init = false, timeoutSeconds = 120)
    void threads() throws MPIException {
        all();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, init = false, timeoutSeconds = 120)
    void processes() throws MPIException {
        all();
    }

    static void all() throws MPIException {
        assertThat(MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE)).isEqualTo(MPI.THREAD_MULTIPLE);
        // sender partitions x count, receiver partitions x count: the same ints cut differently
        pairs(16, 1000, 8, 2000, false);
        pairs(16, 1000, 8, 2000, true);
        pairs(4, 65_536, 4, 65_536, true); // 1 MiB in four messages above the eager limit
        pairs(3, 5, 15, 1, false);
        pairs(4, 0, 2, 0, false); // empty parts
        initOrder();
        errors();
        MPI.Finalize();
    }

    static int value(int activation, int i) {
        return activation * 10_000_019 + i * 3 + 1;
    }

    /** The partner of this rank: 2i and 2i+1 pair up; an odd last rank gets PROC_NULL. */
    static int partner() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int other = rank ^ 1;
        return other < MPI.COMM_WORLD.getSize() ? other : MPI.PROC_NULL;
    }

    static void pairs(int sp, int sc, int rp, int rc, boolean direct) throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int peer = partner();
        int n = sp * sc;
        boolean sender = rank % 2 == 0;
        int[] array = direct ? null : new int[n];
        IntBuffer buffer = direct ? MPI.newIntBuffer(n) : null;
        Object buf = direct ? buffer : array;
        Prequest p = sender ? w.pSendInit(buf, sp, sc, MPI.INT, peer, 11) : w.pRecvInit(buf, rp, rc, MPI.INT, peer, 11);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int k = 0; k < ACTIVATIONS; k++) {
                int[] want = new int[n];
                for (int i = 0; i < n; i++) {
                    want[i] = value(k, i);
                }
                if (sender) {
                    if (direct) {
                        buffer.put(0, want);
                    } else {
                        System.arraycopy(want, 0, array, 0, n);
                    }
                    p.start();
                    List<Integer> order = new ArrayList<>();
                    for (int i = 0; i < sp; i++) {
                        order.add(i);
                    }
                    Collections.shuffle(order, new java.util.Random(rank * 31L + k));
                    List<Future<?>> marks = new ArrayList<>();
                    for (int t = 0; t < 4; t++) {
                        int first = t;
                        marks.add(pool.submit(() -> {
                            for (int i = first; i < sp; i += 4) {
                                p.pReady(order.get(i));
                            }
                            return null;
                        }));
                    }
                    for (Future<?> f : marks) {
                        f.get(60, TimeUnit.SECONDS);
                    }
                    p.waitFor();
                } else {
                    if (direct) {
                        buffer.put(0, new int[n]);
                    } else {
                        java.util.Arrays.fill(array, 0);
                    }
                    p.start();
                    boolean[] seen = new boolean[rp];
                    int left = rp;
                    while (left > 0) {
                        for (int q = 0; q < rp; q++) {
                            if (!seen[q] && p.pArrived(q)) {
                                seen[q] = true;
                                left--;
                                for (int i = q * rc; i < (q + 1) * rc; i++) {
                                    int got = direct ? buffer.get(i) : array[i];
                                    if (got != want[i]) {
                                        throw new AssertionError("partition " + q + " arrived but element " + i
                                                + " is " + got + ", expected " + want[i] + " (activation " + k + ")");
                                    }
                                }
                            }
                        }
                    }
                    Status st = p.waitStatus();
                    if (peer != MPI.PROC_NULL) {
                        assertThat(st.getSource()).isEqualTo(peer);
                        assertThat(st.getTag()).isEqualTo(11);
                        assertThat(st.getCount(MPI.INT)).isEqualTo(n);
                    } else {
                        assertThat(st.getSource()).isEqualTo(MPI.PROC_NULL);
                    }
                }
                assertThat(p.isNull()).isFalse();
            }
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException
                | InterruptedException e) {
            throw new AssertionError(e);
        } finally {
            pool.shutdownNow();
        }
        p.free();
    }

    /** Two partitioned operations with one tag: matched in init order, whatever order their partitions go in. */
    static void initOrder() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int peer = partner();
        if (peer == MPI.PROC_NULL) {
            return;
        }
        boolean sender = w.getRank() % 2 == 0;
        int[] a = new int[4];
        int[] b = new int[4];
        Prequest pa = sender ? w.pSendInit(a, 2, 2, MPI.INT, peer, 3) : w.pRecvInit(a, 1, 4, MPI.INT, peer, 3);
        Prequest pb = sender ? w.pSendInit(b, 2, 2, MPI.INT, peer, 3) : w.pRecvInit(b, 4, 1, MPI.INT, peer, 3);
        for (int k = 0; k < ACTIVATIONS; k++) {
            if (sender) {
                java.util.Arrays.fill(a, 100 + k);
                java.util.Arrays.fill(b, 200 + k);
            }
            Prequest.startAll(new Prequest[] {pb, pa});
            if (sender) {
                pb.pReadyList(new int[] {1, 0});
                pa.pReadyRange(0, 1);
            }
            Request.waitAll(new Request[] {pa, pb});
            if (!sender) {
                assertThat(a).as("first init, activation " + k).containsOnly(100 + k);
                assertThat(b).as("second init, activation " + k).containsOnly(200 + k);
            }
        }
        pa.free();
        pb.free();
    }

    interface Call {
        void run() throws MPIException;
    }

    static void expect(int errorClass, Call call) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(MPIException.class,
                e -> assertThat(e.getErrorClass()).as(e.getMessage()).isEqualTo(errorClass));
    }

    static void errors() throws MPIException {
        Intracomm w = MPI.COMM_WORLD.dup();
        w.setErrhandler(MPI.ERRORS_RETURN);
        int[] b = new int[8];
        expect(MPI.ERR_TAG, () -> w.pSendInit(b, 2, 4, MPI.INT, MPI.PROC_NULL, 1 << 30));
        expect(MPI.ERR_ARG, () -> w.pSendInit(b, 0, 4, MPI.INT, MPI.PROC_NULL, 1));
        expect(MPI.ERR_COUNT, () -> w.pRecvInit(b, 2, -1, MPI.INT, MPI.PROC_NULL, 1));
        expect(MPI.ERR_RANK, () -> w.pRecvInit(b, 2, 4, MPI.INT, MPI.ANY_SOURCE, 1));
        expect(MPI.ERR_BUFFER, () -> w.pSendInit(b, 3, 4, MPI.INT, MPI.PROC_NULL, 1));

        Prequest s = w.pSendInit(b, 2, 4, MPI.INT, MPI.PROC_NULL, 1);
        expect(MPI.ERR_REQUEST, () -> s.pReady(0)); // not started
        s.start();
        s.pReady(1);
        expect(MPI.ERR_REQUEST, () -> s.pReady(1)); // twice
        expect(MPI.ERR_ARG, () -> s.pReady(2));
        expect(MPI.ERR_REQUEST, () -> s.pArrived(0));
        s.pReady(0);
        s.waitFor();
        s.free();

        Prequest r = w.pRecvInit(b, 2, 4, MPI.INT, MPI.PROC_NULL, 1);
        r.start();
        expect(MPI.ERR_REQUEST, () -> r.pReady(0));
        assertThat(r.pArrived(1)).isTrue();
        r.waitFor();
        r.free();

        Prequest plain = w.sendInit(IntBuffer.allocate(1), 1, MPI.INT, MPI.PROC_NULL, 0);
        expect(MPI.ERR_REQUEST, () -> plain.pReady(0));
        plain.free();

        // sizes that differ: the receive fails with ERR_TRUNCATE at completion
        int peer = partner();
        if (peer != MPI.PROC_NULL) {
            boolean sender = w.getRank() % 2 == 0;
            Prequest m = sender ? w.pSendInit(b, 2, 4, MPI.INT, peer, 2) : w.pRecvInit(b, 2, 3, MPI.INT, peer, 2);
            m.start();
            if (sender) {
                // the receiver never posts the data receives: the eager sends complete unmatched
                m.pReadyRange(0, 1);
                m.waitFor();
            } else {
                expect(MPI.ERR_TRUNCATE, m::waitFor);
            }
        }
        w.barrier();
        w.free();
    }
}
