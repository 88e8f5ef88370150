package org.jmpi.tests.pt2pt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.IntBuffer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Request;
import mpi.Status;
import org.jmpi.junit.MpiTest;

/** Matched probes, unexpected messages found by probe, and cancellation. */
class ProbeAndCancelTest {

    private static void expect(int errorClass, org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(MPIException.class,
                e -> assertThat(e.getErrorClass()).as(e.getMessage()).isEqualTo(errorClass));
    }

    /**
     * A blocking matched probe that finds its message while the waiting loop spins or is about to sleep: the waiting
     * loop tested the probe's condition again after it held, which took the next message (or none) and lost the one
     * taken (processes mode hung within a few round trips of a ring of mProbe + mRecv, found by the MPJ Express
     * facade's object receives).
     */
    @MpiTest(ranks = {2, 3})
    void blockingMatchedProbesInARingLoseNoMessage() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        for (int i = 0; i < 1000; i++) {
            w.send(new int[] {i, rank}, 2, MPI.INT, right, 5 + i % 3);
            Message m = new Message();
            Status s = m.mProbe(i % 2 == 0 ? MPI.ANY_SOURCE : left, i % 4 == 0 ? MPI.ANY_TAG : 5 + i % 3, w);
            assertThat(s.getTag()).isEqualTo(5 + i % 3);
            int[] got = new int[2];
            m.mRecv(got, 2, MPI.INT);
            assertThat(got).containsExactly(i, left);
        }
    }

    @MpiTest(ranks = {2, 3, 4})
    void matchedProbeTakesTheMessage() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int rank = w.getRank();
        if (rank != 0) {
            w.send(new int[] {rank, rank * 2}, 2, MPI.INT, 0, 20);
            w.send(new int[100_000], 100_000, MPI.INT, 0, 21);
            w.send(new int[] {1, 2, 3}, 3, MPI.INT, 0, 22);
        } else {
            for (int k = 1; k < w.getSize(); k++) {
                Message m = new Message();
                assertThat(m.isNull()).isTrue();
                Status s = m.mProbe(MPI.ANY_SOURCE, 20, w);
                assertThat(m.isNull()).isFalse();
                int src = s.getSource();
                assertThat(s.getCount(MPI.INT)).isEqualTo(2);
                // the matched message is no longer visible to probes or receives
                Status again = w.iProbe(src, 20);
                assertThat(again).isNull();
                int[] buf = new int[2];
                Status r = m.mRecv(buf, 2, MPI.INT);
                assertThat(buf).containsExactly(src, src * 2);
                assertThat(r.getSource()).isEqualTo(src);
                assertThat(m.isNull()).isTrue();
                expect(MPI.ERR_REQUEST, () -> m.mRecv(buf, 2, MPI.INT));
                // a large one through imProbe + imRecv
                Message big = new Message();
                Status bs;
                do {
                    bs = big.imProbe(src, 21, w);
                } while (bs == null);
                assertThat(bs.getCount(MPI.INT)).isEqualTo(100_000);
                Request rr = big.imRecv(MPI.newIntBuffer(100_000), 100_000, MPI.INT);
                assertThat(rr.waitStatus().getCount(MPI.INT)).isEqualTo(100_000);
                // truncation on mRecv consumes the message; the next one still matches
                Message t = new Message();
                t.mProbe(src, 22, w);
                expect(MPI.ERR_TRUNCATE, () -> t.mRecv(new int[2], 2, MPI.INT));
                assertThat(w.iProbe(src, 22)).isNull();
            }
            Message none = new Message();
            assertThat(none.imProbe(MPI.ANY_SOURCE, 99, w)).isNull();
            assertThat(none.isNull()).isTrue();
            Message noProc = new Message();
            Status ps = noProc.mProbe(MPI.PROC_NULL, 0, w);
            assertThat(ps.getSource()).isEqualTo(MPI.PROC_NULL);
            assertThat(noProc.isNoProc()).isTrue();
            assertThat(noProc.mRecv(new int[1], 1, MPI.INT).getSource()).isEqualTo(MPI.PROC_NULL);
            assertThat(noProc.isNull()).isTrue();
        }
    }

    @MpiTest(ranks = {1, 2, 3})
    void unexpectedMessagesAreFoundByProbe() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        // everyone sends to everyone (including itself) before anyone receives
        Request[] sends = new Request[size];
        for (int p = 0; p < size; p++) {
            sends[p] = w.iSend(new long[] {rank, p}, 2, MPI.LONG, p, 40 + rank);
        }
        boolean[] seen = new boolean[size];
        for (int k = 0; k < size; k++) {
            Status s = w.probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
            assertThat(s.getTag()).isEqualTo(40 + s.getSource());
            assertThat(s.getCount(MPI.LONG)).isEqualTo(2);
            long[] got = new long[2];
            w.recv(got, 2, MPI.LONG, s.getSource(), s.getTag());
            assertThat(got).containsExactly(s.getSource(), rank);
            assertThat(seen[s.getSource()]).isFalse();
            seen[s.getSource()] = true;
        }
        Request.waitAll(sends);
    }

    @MpiTest(ranks = {1, 2, 3})
    void cancelReceivesAndUnmatchedSends() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        // a receive nobody will match
        Request r = w.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, MPI.ANY_SOURCE, 1234);
        r.cancel();
        Status s = r.waitStatus();
        assertThat(s.isCancelled()).isTrue();
        assertThat(r.isNull()).isTrue();
        // a synchronous send nobody receives: cancelled, and the message never arrives
        int next = (rank + 1) % size;
        for (int n : new int[] {1, 300_000}) {
            Request ss = w.isSend(new int[n], n, MPI.INT, next, 77);
            ss.cancel();
            assertThat(ss.waitStatus().isCancelled()).as("ssend of %d ints", n).isTrue();
        }
        // a send that was received cannot be cancelled any more
        Request done = w.iSend(new int[] {5}, 1, MPI.INT, rank, 78);
        w.recv(new int[1], 1, MPI.INT, rank, 78);
        done.cancel();
        Status doneStatus = done.waitStatus();
        assertThat(doneStatus.isCancelled()).isFalse();
        doneStatus.setCancelled(true); // MPI_Status_set_cancelled, for statuses a program makes up itself
        assertThat(doneStatus.isCancelled()).isTrue();
        doneStatus.setCancelled(false);
        assertThat(doneStatus.isCancelled()).isFalse();
        w.barrier();
        assertThat(w.iProbe(MPI.ANY_SOURCE, 77)).as("a cancelled message arrived").isNull();
        w.barrier();
    }

    @MpiTest(ranks = {2})
    void truncationOnNonBlockingReceives() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        if (w.getRank() == 0) {
            w.send(new int[] {1, 2, 3, 4}, 4, MPI.INT, 1, 8);
            w.send(new int[200_000], 200_000, MPI.INT, 1, 8);
            w.send(new int[] {6}, 1, MPI.INT, 1, 8);
        } else {
            Request a = w.iRecv(IntBuffer.allocate(2), 2, MPI.INT, 0, 8);
            expect(MPI.ERR_TRUNCATE, a::waitFor);
            Request b = w.iRecv(new int[10], 10, MPI.INT, 0, 8);
            expect(MPI.ERR_TRUNCATE, () -> Request.waitAll(new Request[] {b}));
            int[] one = new int[1];
            w.recv(one, 1, MPI.INT, 0, 8);
            assertThat(one[0]).isEqualTo(6);
        }
    }
}
