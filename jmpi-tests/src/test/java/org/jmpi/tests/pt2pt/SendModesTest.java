package org.jmpi.tests.pt2pt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import org.jmpi.junit.MpiTest;

/** Send modes (synchronous, buffered, ready), persistent requests and sendRecvReplace. */
class SendModesTest {

    private static void expect(int errorClass, org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(MPIException.class,
                e -> assertThat(e.getErrorClass()).as(e.getMessage()).isEqualTo(errorClass));
    }

    /**
     * A synchronous send cannot complete before the receiver has posted the matching receive: rank 0 starts an
     * isSend, sees it incomplete, and only then tells rank 1 to post its receive.
     */
    @MpiTest(ranks = {2, 3})
    void synchronousSendWaitsForTheReceive() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        for (int size : new int[] {1, 100_000}) {
            if (rank == 0) {
                Request r = w.isSend(new int[size], size, MPI.INT, 1, 1);
                for (int i = 0; i < 1000; i++) {
                    assertThat(r.test()).as("issend of %d ints completed before the receive was posted", size)
                            .isFalse();
                }
                w.send(new int[0], 0, MPI.INT, 1, 2); // go
                r.waitFor();
                assertThat(r.isNull()).isTrue();
            } else if (rank == 1) {
                w.recv(new int[0], 0, MPI.INT, 0, 2);
                Status s = w.recv(new int[size], size, MPI.INT, 0, 1);
                assertThat(s.getCount(MPI.INT)).isEqualTo(size);
            }
        }
        // blocking sSend to oneself completes once the receive is posted
        Request self = w.iRecv(new int[1], 1, MPI.INT, rank, 3);
        w.sSend(new int[] {rank}, 1, MPI.INT, rank, 3);
        self.waitFor();
    }

    @MpiTest(ranks = {2, 4})
    void bufferedSends() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int rank = w.getRank();
        int size = w.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        expect(MPI.ERR_BUFFER, () -> w.bSend(new int[4], 4, MPI.INT, next, 0)); // nothing attached
        byte[] space = new byte[2 * (400 + MPI.BSEND_OVERHEAD)];
        MPI.attachBuffer(space);
        expect(MPI.ERR_BUFFER, () -> MPI.attachBuffer(new byte[10])); // one at a time
        // two buffered sends fit; one larger than the whole buffer never does
        w.bSend(new int[100], 100, MPI.INT, next, 1);
        Request r2 = w.ibSend(new int[100], 100, MPI.INT, next, 1);
        assertThat(r2.test()).isTrue(); // buffered: complete locally
        expect(MPI.ERR_BUFFER, () -> w.bSend(new int[300], 300, MPI.INT, next, 1));
        int[] in = new int[100];
        w.recv(in, 100, MPI.INT, prev, 1);
        w.recv(in, 100, MPI.INT, prev, 1);
        assertThat(MPI.detachBuffer()).isSameAs(space);
        expect(MPI.ERR_BUFFER, MPI::detachBuffer);
        // buffered persistent sends
        MPI.attachBuffer(new byte[1 << 16]);
        Prequest p = w.bSendInit(new int[] {rank}, 1, MPI.INT, next, 2);
        int[] got = new int[1];
        for (int i = 0; i < 10; i++) {
            p.start();
            p.waitFor();
            w.recv(got, 1, MPI.INT, prev, 2);
            assertThat(got[0]).isEqualTo(prev);
        }
        p.free();
        MPI.detachBuffer();
        w.barrier();
    }

    /**
     * MPI 4.1's per-communicator buffers: a communicator with its own buffer uses it (the process has none), another
     * communicator falls back to the process's; flush waits until the messages left; detach returns the buffer.
     */
    @MpiTest(ranks = {2, 3})
    void communicatorBuffers() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int rank = w.getRank();
        int size = w.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        Intracomm mine = w.dup();
        byte[] own = new byte[400 + MPI.BSEND_OVERHEAD];
        mine.attachBuffer(own);
        expect(MPI.ERR_BUFFER, () -> mine.attachBuffer(new byte[10])); // one at a time
        expect(MPI.ERR_BUFFER, () -> mine.bSend(new int[101], 101, MPI.INT, next, 1)); // larger than its buffer
        mine.bSend(new int[100], 100, MPI.INT, next, 1); // fits the communicator's buffer exactly
        expect(MPI.ERR_BUFFER, () -> w.bSend(new int[1], 1, MPI.INT, next, 1)); // the process has no buffer
        int[] in = new int[100];
        mine.recv(in, 100, MPI.INT, prev, 1);
        mine.flushBuffer(); // our message left (the next rank received it or will from its copy)
        mine.bSend(new int[100], 100, MPI.INT, next, 2); // the space is free again
        mine.recv(in, 100, MPI.INT, prev, 2);
        byte[] shared = new byte[1 << 12];
        MPI.attachBuffer(shared);
        w.bSend(new int[] {rank}, 1, MPI.INT, next, 3); // the world uses the process's buffer
        int[] got = new int[1];
        w.recv(got, 1, MPI.INT, prev, 3);
        assertThat(got[0]).isEqualTo(prev);
        MPI.flushBuffer();
        assertThat(mine.detachBuffer()).isSameAs(own);
        expect(MPI.ERR_BUFFER, mine::detachBuffer);
        mine.flushBuffer(); // nothing attached: nothing to wait for
        assertThat(MPI.detachBuffer()).isSameAs(shared);
        mine.free();
        w.barrier();
    }

    /**
     * MPI 4.1's session buffers and MPI_BUFFER_AUTOMATIC: a communicator made from a session's process set, and one
     * derived from it, use the session's buffer (not the process's, although one is attached), unless it has its own;
     * an automatic buffer takes what a send needs and comes back on detach.
     */
    @MpiTest(ranks = {2, 3})
    void sessionAndAutomaticBuffers() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int rank = w.getRank();
        int size = w.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        mpi.Session session = mpi.Session.init();
        Intracomm sc = Intracomm.createFromGroup(mpi.Group.fromSessionPset(session, mpi.Session.WORLD_PSET),
                "org.jmpi.tests.buffers", null, MPI.ERRORS_RETURN);
        Intracomm derived = sc.dup();
        byte[] own = new byte[400 + MPI.BSEND_OVERHEAD];
        session.attachBuffer(own);
        expect(MPI.ERR_BUFFER, () -> session.attachBuffer(new byte[10])); // one at a time
        byte[] big = new byte[1 << 16];
        MPI.attachBuffer(big);
        expect(MPI.ERR_BUFFER, () -> sc.bSend(new int[101], 101, MPI.INT, next, 1)); // the session's, not the process's
        expect(MPI.ERR_BUFFER, () -> derived.bSend(new int[101], 101, MPI.INT, next, 1)); // derived: the session's too
        w.bSend(new int[101], 101, MPI.INT, next, 1); // the world model's communicators use the process's
        int[] in = new int[100_000];
        w.recv(in, 101, MPI.INT, prev, 1);
        sc.bSend(new int[100], 100, MPI.INT, next, 2); // fits the session's buffer
        sc.recv(in, 100, MPI.INT, prev, 2);
        byte[] mine = new byte[1 << 12];
        derived.attachBuffer(mine); // a communicator's own buffer comes first
        derived.bSend(new int[101], 101, MPI.INT, next, 3);
        derived.recv(in, 101, MPI.INT, prev, 3);
        assertThat(derived.detachBuffer()).isSameAs(mine);
        session.flushBuffer();
        assertThat(session.detachBuffer()).isSameAs(own);

        session.attachBuffer(MPI.BUFFER_AUTOMATIC);
        expect(MPI.ERR_BUFFER, () -> session.attachBuffer(new byte[10]));
        for (int round = 0; round < 3; round++) {
            int[] out = new int[100_000];
            java.util.Arrays.fill(out, rank + round);
            sc.bSend(out, out.length, MPI.INT, next, 4); // 400 KB: no capacity to run out of
            sc.recv(in, in.length, MPI.INT, prev, 4);
            assertThat(in[99_999]).isEqualTo(prev + round);
        }
        assertThat(session.detachBuffer()).isSameAs(MPI.BUFFER_AUTOMATIC);
        assertThat(MPI.detachBuffer()).isSameAs(big);
        MPI.attachBuffer(MPI.BUFFER_AUTOMATIC);
        w.bSend(new int[100_000], 100_000, MPI.INT, next, 5);
        w.recv(in, in.length, MPI.INT, prev, 5);
        assertThat(MPI.detachBuffer()).isSameAs(MPI.BUFFER_AUTOMATIC);
        derived.free();
        sc.free();
        session.finalizeSession();
        expect(MPI.ERR_SESSION, () -> session.attachBuffer(new byte[10]));
        w.barrier();
    }

    @MpiTest(ranks = {2, 3})
    void readySendAfterTheReceiveIsPosted() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        if (rank == 1) {
            int[] in = new int[3];
            Request r = w.iRecv(IntBuffer.wrap(in), 3, MPI.INT, 0, 5);
            w.send(new int[0], 0, MPI.INT, 0, 6); // the receive is posted
            r.waitFor();
            assertThat(in).containsExactly(7, 8, 9);
            Request rr = w.iRecv(in, 3, MPI.INT, 0, 7);
            w.send(new int[0], 0, MPI.INT, 0, 6);
            rr.waitFor();
            assertThat(in).containsExactly(1, 2, 3);
            // persistent ready sends (array and buffer), restarted: each round's receive is posted first
            IntBuffer direct = MPI.newIntBuffer(3);
            for (int round = 0; round < 3; round++) {
                Request[] posted = {w.iRecv(in, 3, MPI.INT, 0, 8), w.iRecv(direct, 3, MPI.INT, 0, 9)};
                w.send(new int[0], 0, MPI.INT, 0, 6);
                Request.waitAll(posted);
                assertThat(in).containsExactly(round, round + 1, round + 2);
                assertThat(new int[] {direct.get(0), direct.get(1), direct.get(2)})
                        .containsExactly(-round, -round - 1, -round - 2);
            }
        } else if (rank == 0) {
            w.recv(new int[0], 0, MPI.INT, 1, 6);
            w.rSend(new int[] {7, 8, 9}, 3, MPI.INT, 1, 5);
            w.recv(new int[0], 0, MPI.INT, 1, 6);
            w.irSend(IntBuffer.wrap(new int[] {1, 2, 3}), 3, MPI.INT, 1, 7).waitFor();
            int[] out = new int[3];
            IntBuffer direct = MPI.newIntBuffer(3);
            Prequest fromArray = w.rSendInit(out, 3, MPI.INT, 1, 8);
            Prequest fromBuffer = w.rSendInit(direct, 3, MPI.INT, 1, 9);
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 3; i++) {
                    out[i] = round + i;
                    direct.put(i, -round - i);
                }
                w.recv(new int[0], 0, MPI.INT, 1, 6);
                Prequest.startAll(new Prequest[] {fromArray, fromBuffer});
                Request.waitAll(new Request[] {fromArray, fromBuffer});
            }
            fromArray.free();
            fromBuffer.free();
        }
    }

    @MpiTest(ranks = {1, 2, 3, 4})
    void persistentRequestsRestartManyTimes() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int rank = w.getRank();
        int size = w.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        long[] out = new long[3];
        long[] in = new long[3];
        Prequest send = w.sendInit(out, 3, MPI.LONG, next, 9);
        Prequest recv = w.recvInit(in, 3, MPI.LONG, prev, 9);
        Prequest ssend = w.sSendInit(MPI.newLongBuffer(200_000), 200_000, MPI.LONG, next, 10);
        Prequest bigRecv = w.recvInit(MPI.newLongBuffer(200_000), 200_000, MPI.LONG, prev, 10);
        assertThat(send.isNull()).isFalse();
        assertThat(send.waitStatus().getSource()).isEqualTo(MPI.ANY_SOURCE); // inactive: empty status
        for (int i = 0; i < 50; i++) {
            out[0] = rank * 1000L + i;
            Prequest.startAll(new Prequest[] {recv, send, null});
            expect(MPI.ERR_REQUEST, recv::start); // still active
            Status[] st = Request.waitAllStatus(new Request[] {recv, send});
            assertThat(in[0]).isEqualTo(prev * 1000L + i);
            assertThat(st[0].getSource()).isEqualTo(prev);
            assertThat(recv.isNull()).isFalse(); // persistent requests stay valid
        }
        for (int i = 0; i < 3; i++) {
            bigRecv.start();
            ssend.start();
            Request.waitAll(new Request[] {bigRecv, ssend});
        }
        for (Prequest p : new Prequest[] {send, recv, ssend, bigRecv}) {
            p.free();
            assertThat(p.isNull()).isTrue();
        }
        expect(MPI.ERR_REQUEST, send::start);
        expect(MPI.ERR_REQUEST, send::waitFor);
        expect(MPI.ERR_REQUEST, send::free);
        // a freed non-persistent request cannot be used again either
        Request r = w.iSend(new int[1], 1, MPI.INT, rank, 11);
        r.free();
        expect(MPI.ERR_REQUEST, r::waitFor);
        expect(MPI.ERR_REQUEST, r::test);
        expect(MPI.ERR_REQUEST, r::cancel);
        expect(MPI.ERR_REQUEST, () -> Request.waitAll(new Request[] {r}));
        w.recv(new int[1], 1, MPI.INT, rank, 11); // the freed send still completes
        // PROC_NULL persistent requests complete at once
        Prequest nothing = w.recvInit(new int[1], 1, MPI.INT, MPI.PROC_NULL, 0);
        nothing.start();
        assertThat(nothing.waitStatus().getSource()).isEqualTo(MPI.PROC_NULL);
    }

    @MpiTest(ranks = {1, 2, 3})
    void sendRecvReplaceSwapsInPlace() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        for (int n : new int[] {1, 50_000}) {
            double[] buf = new double[n];
            java.util.Arrays.fill(buf, rank);
            Status s = w.sendRecvReplace(buf, n, MPI.DOUBLE, (rank + 1) % size, 4, (rank + size - 1) % size, 4);
            assertThat(s.getCount(MPI.DOUBLE)).isEqualTo(n);
            assertThat(buf[0]).isEqualTo((rank + size - 1) % size);
            assertThat(buf[n - 1]).isEqualTo((rank + size - 1) % size);
        }
    }

    /**
     * Replaces in a ring of ranks, many in a row, of sizes the lane takes at once and sizes it does not (ordered as
     * sent whichever way each went), from arrays, direct buffers and a strided type; the data arrives whole.
     */
    @MpiTest(ranks = {2, 3})
    void sendRecvReplaceInALoopKeepsOrderAndData() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        int[] sizes = {1, 3, 64, 700, 20_000};
        java.nio.DoubleBuffer direct = MPI.newDoubleBuffer(20_000);
        for (int i = 0; i < 600; i++) {
            int n = sizes[i % sizes.length];
            boolean useDirect = i % 3 == 1;
            double[] a = new double[n];
            for (int k = 0; k < n; k++) {
                a[k] = rank * 1e6 + i * 1e3 + k % 997;
                if (useDirect) {
                    direct.put(k, a[k]);
                }
            }
            Status s = useDirect ? w.sendRecvReplace(direct, n, MPI.DOUBLE, next, i % 5, prev, i % 5)
                    : w.sendRecvReplace(a, n, MPI.DOUBLE, next, i % 5, prev, i % 5);
            assertThat(s.getCount(MPI.DOUBLE)).isEqualTo(n);
            assertThat(s.getSource()).isEqualTo(prev);
            assertThat(s.getTag()).isEqualTo(i % 5);
            for (int k = 0; k < n; k += Math.max(1, n / 7)) {
                double got = useDirect ? direct.get(k) : a[k];
                assertThat(got).as("message %d element %d", i, k).isEqualTo(prev * 1e6 + i * 1e3 + k % 997);
            }
        }
        mpi.Datatype column = mpi.Datatype.createVector(8, 1, 4, MPI.INT);
        column.commit();
        int[] m = new int[32];
        java.util.Arrays.fill(m, -1);
        for (int r = 0; r < 8; r++) {
            m[r * 4] = rank * 100 + r;
        }
        w.sendRecvReplace(m, 1, column, next, 9, prev, 9);
        for (int r = 0; r < 8; r++) {
            assertThat(m[r * 4]).isEqualTo(prev * 100 + r);
            assertThat(m[r * 4 + 1]).isEqualTo(-1);
        }
        column.free();
    }

    @MpiTest(ranks = 2)
    void sendRecvReplaceOfTooShortABufferIsATruncationAndNothingIsLost() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int rank = w.getRank();
        int[] buf = {rank, rank, rank, rank};
        if (rank == 0) {
            w.sendRecvReplace(buf, 4, MPI.INT, 1, 3, 1, 3); // sends 4 ints, receives 2 of them
            assertThat(buf).containsExactly(1, 1, 0, 0);
        } else {
            expect(MPI.ERR_TRUNCATE, () -> w.sendRecvReplace(buf, 2, MPI.INT, 0, 3, 0, 3));
        }
        int[] after = {rank};
        w.sendRecvReplace(after, 1, MPI.INT, 1 - rank, 4, 1 - rank, 4); // the pair goes on
        assertThat(after[0]).isEqualTo(1 - rank);
        int[] alone = {7};
        Status s = w.sendRecvReplace(alone, 1, MPI.INT, MPI.PROC_NULL, 5, MPI.PROC_NULL, 5);
        assertThat(s.getSource()).isEqualTo(MPI.PROC_NULL);
        assertThat(alone[0]).isEqualTo(7);
    }
}
