package org.jmpi.tests.pt2pt;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.jmpi.junit.MpiTest;

/**
 * Windows of non-blocking calls, as bandwidth benchmarks and halo exchanges make them: every rank posts a window of
 * receives from the previous rank (exact tags and {@code ANY_TAG}, sizes from one byte to a rendezvous) and sends a
 * window to the next, then waits for all of them at once. Each receive must end with its own message and status in
 * whatever order the wait completes them; each send, which the shared-memory lane mostly completes at once (all such
 * sends share one request), must end as a null handle, and a send's request must answer test, status, cancel and free
 * as MPI says, before and after others have used theirs.
 */
class NonBlockingWindowTest {
    private static final int WINDOW = 64;
    private static final int[] SIZES = {1, 16, 100, 1000, 5000, 70_000};

    @MpiTest(ranks = {2, 3}, timeoutSeconds = 120)
    void receivesEndWithTheirOwnMessagesWhateverTheWaitOrder() throws MPIException {
        for (boolean direct : new boolean[] {false, true}) {
            window(direct, true);
            window(direct, false);
        }
    }

    @MpiTest(ranks = {2, 3}, timeoutSeconds = 120)
    void sendRequestsAnswerAsMpiSays() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        int[] in = new int[3];
        Request r = w.iRecv(in, 3, MPI.INT, prev, 7);
        Request a = w.iSend(new int[] {rank}, 1, MPI.INT, next, 7);
        Request b = w.iSend(new int[] {rank + 10}, 1, MPI.INT, next, 7);
        Request c = w.iSend(new int[] {rank + 20}, 1, MPI.INT, next, 7);
        a.waitFor();
        assertThat(a.isNull()).isTrue();
        // b's request may be the one a used: still complete, not cancelled, not null until observed
        assertThat(b.isNull()).isFalse();
        Status sb = b.testStatus();
        assertThat(sb).isNotNull();
        assertThat(sb.isCancelled()).isFalse();
        assertThat(b.isNull()).isTrue();
        c.cancel(); // of a complete send: nothing to cancel
        Status sc = c.waitStatus();
        assertThat(sc.isCancelled()).isFalse();
        int[] got = new int[3];
        for (int i = 0; i < 3; i++) {
            Status s = i == 0 ? r.waitStatus() : w.recv(in, 3, MPI.INT, prev, 7);
            assertThat(s.getSource()).isEqualTo(prev);
            assertThat(s.getTag()).isEqualTo(7);
            assertThat(s.getCount(MPI.INT)).isEqualTo(1);
            got[i] = in[0];
        }
        assertThat(got).containsExactly(prev, prev + 10, prev + 20);
        // freed before anybody waited: the message still arrives
        w.iSend(new int[] {rank + 30}, 1, MPI.INT, next, 8).free();
        assertThat(w.recv(in, 1, MPI.INT, prev, 8).getCount(MPI.INT)).isEqualTo(1);
        assertThat(in[0]).isEqualTo(prev + 30);
        w.barrier();
    }

    /**
     * One window each way around the ring: receive i takes message i (tag i, {@code SIZES[i % SIZES.length]} bytes
     * filled from the sender's rank and i); odd receives use ANY_TAG with room for the largest size. With
     * {@code statuses} the receives are waited for with waitAllStatus and the sends with waitAll, else all of them
     * together with one waitAll.
     */
    private static void window(boolean direct, boolean statuses) throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        int largest = SIZES[SIZES.length - 1];
        Object[] in = new Object[WINDOW];
        Object[] out = new Object[WINDOW];
        Request[] recvs = new Request[WINDOW];
        Request[] sends = new Request[WINDOW];
        for (int i = 0; i < WINDOW; i++) {
            int n = SIZES[i % SIZES.length];
            boolean any = i % 2 == 1;
            in[i] = buffer(direct, any ? largest : n);
            recvs[i] = any ? w.iRecv(in[i], largest, MPI.BYTE, prev, MPI.ANY_TAG)
                    : w.iRecv(in[i], n, MPI.BYTE, prev, i);
        }
        for (int i = 0; i < WINDOW; i++) {
            int n = SIZES[i % SIZES.length];
            out[i] = buffer(direct, n);
            fill(out[i], n, rank, i);
            sends[i] = w.iSend(out[i], n, MPI.BYTE, next, i);
        }
        if (statuses) {
            Status[] st = Request.waitAllStatus(recvs);
            for (int i = 0; i < WINDOW; i++) {
                assertThat(st[i].getSource()).as("source of receive %d", i).isEqualTo(prev);
                assertThat(st[i].getTag()).as("tag of receive %d", i).isEqualTo(i);
                assertThat(st[i].getCount(MPI.BYTE)).as("count of receive %d", i).isEqualTo(SIZES[i % SIZES.length]);
            }
            Request.waitAll(sends);
        } else {
            Request[] all = new Request[2 * WINDOW];
            for (int i = 0; i < WINDOW; i++) {
                all[2 * i] = sends[i];
                all[2 * i + 1] = recvs[i];
            }
            Request.waitAll(all);
        }
        for (int i = 0; i < WINDOW; i++) {
            assertThat(recvs[i].isNull()).isTrue();
            assertThat(sends[i].isNull()).isTrue();
            check(in[i], SIZES[i % SIZES.length], prev, i);
        }
    }

    private static Object buffer(boolean direct, int n) {
        return direct ? MPI.newByteBuffer(n) : new byte[n];
    }

    private static byte value(int rank, int i, int k) {
        return (byte) (rank * 31 + i * 7 + k);
    }

    private static void fill(Object buf, int n, int rank, int i) {
        for (int k = 0; k < n; k++) {
            if (buf instanceof ByteBuffer b) {
                b.put(k, value(rank, i, k));
            } else {
                ((byte[]) buf)[k] = value(rank, i, k);
            }
        }
    }

    private static void check(Object buf, int n, int rank, int i) {
        for (int k = 0; k < n; k++) {
            byte got = buf instanceof ByteBuffer b ? b.get(k) : ((byte[]) buf)[k];
            if (got != value(rank, i, k)) {
                throw new AssertionError("message " + i + " from rank " + rank + ": byte " + k + " is " + got
                        + ", expected " + value(rank, i, k));
            }
        }
    }
}
