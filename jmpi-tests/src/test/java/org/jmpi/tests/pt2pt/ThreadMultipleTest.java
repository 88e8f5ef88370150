package org.jmpi.tests.pt2pt;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.jmpi.junit.MpiTest;

/**
 * MPI_THREAD_MULTIPLE for real: 8 threads per rank at once mix blocking and non-blocking sends and receives,
 * probes and cancels. Every message arrives exactly once, in order per (sender thread, receiver thread), and
 * nothing deadlocks.
 */
class ThreadMultipleTest {
    private static final int THREADS = 8;
    private static final int MESSAGES = 150;

    @MpiTest(ranks = {1, 2, 3, 4}, init = false, timeoutSeconds = 120)
    void eightThreadsPerRankMixEverything() throws Exception {
        int provided = MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
        assertThat(provided).isEqualTo(MPI.THREAD_MULTIPLE);
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                final int thread = t;
                futures.add(pool.submit(() -> {
                    work(w, rank, size, thread);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        w.barrier();
        MPI.Finalize();
    }

    /**
     * Thread t of every rank sends MESSAGES messages to thread t of every rank (tag t) and receives as many from
     * each, some with ANY_SOURCE, some non-blocking; it also probes, and cancels receives nobody matches.
     */
    private static void work(Comm w, int rank, int size, int t) throws MPIException {
        int tag = t;
        List<Request> sends = new ArrayList<>();
        int[] nextFrom = new int[size];
        int received = 0;
        int expected = MESSAGES * size;
        for (int i = 0; i < MESSAGES; i++) {
            for (int p = 0; p < size; p++) {
                int n = (i % 17 == 0) ? 20_000 : 1 + (i % 5);
                int[] msg = new int[n];
                msg[0] = rank;
                msg[1 % n] = i;
                if (n == 1) {
                    msg[0] = rank * 100_000 + i;
                }
                // a blocking send only for small (eager) messages: a blocking large send to a thread that is
                // itself blocked sending would be an unsafe program
                if (i % 3 == 0 || n > 100) {
                    sends.add(w.iSend(msg, n, MPI.INT, p, tag));
                } else if (i % 3 == 1) {
                    w.send(msg, n, MPI.INT, p, tag);
                } else {
                    sends.add(w.isSend(msg, n, MPI.INT, p, tag));
                }
            }
            // receive what has arrived so far, mixing styles
            received += drain(w, t, size, nextFrom, i % 2 == 0, false);
            if (i % 25 == 0) {
                Request r = w.iRecv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 1000 + t); // never matched
                r.cancel();
                assertThat(r.waitStatus().isCancelled()).isTrue();
            }
        }
        while (received < expected) {
            received += drain(w, t, size, nextFrom, true, true);
        }
        Request.waitAll(sends.toArray(new Request[0]));
        assertThat(received).isEqualTo(expected);
        for (int p = 0; p < size; p++) {
            assertThat(nextFrom[p]).as("messages from rank %d to thread %d", p, t).isEqualTo(MESSAGES);
        }
    }

    /** Receives pending messages with tag t; with {@code block}, at least one. Returns how many. */
    private static int drain(Comm w, int t, int size, int[] nextFrom, boolean anySource, boolean block)
            throws MPIException {
        int count = 0;
        int[] buf = new int[20_000];
        while (true) {
            Status probe = block && count == 0 ? w.probe(MPI.ANY_SOURCE, t) : w.iProbe(MPI.ANY_SOURCE, t);
            if (probe == null) {
                return count;
            }
            int src = probe.getSource();
            Status s;
            if (anySource) {
                s = w.recv(buf, buf.length, MPI.INT, src, t);
            } else {
                Request r = w.iRecv(buf, buf.length, MPI.INT, src, t);
                s = r.waitStatus();
            }
            int n = s.getCount(MPI.INT);
            int from = n == 1 ? buf[0] / 100_000 : buf[0];
            int seq = n == 1 ? buf[0] % 100_000 : buf[1];
            assertThat(from).isEqualTo(src).isEqualTo(s.getSource());
            assertThat(seq).as("message from rank %d to thread %d out of order or duplicated", src, t)
                    .isEqualTo(nextFrom[src]);
            nextFrom[src]++;
            count++;
            if (!block) {
                return count;
            }
        }
    }
}
