package org.jmpi.tests.pt2pt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * MPI 4.0's point-to-point additions: {@code iSendRecv} and {@code iSendRecvReplace} around a ring (arrays and
 * direct buffers, eager and large, PROC_NULL ends), {@code java.lang.foreign.MemorySegment} as a buffer (native from
 * a shared arena and on the heap, in sends, receives and a collective), and the {@code long} counts of a status.
 */
class Mpi4PointToPointTest {

    @MpiTest(ranks = {1, 2, 3, 5}, modes = Mode.THREADS, timeoutSeconds = 120)
    void threads() throws MPIException {
        all();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, timeoutSeconds = 120)
    void processes() throws MPIException {
        all();
    }

    static void all() throws MPIException {
        for (int n : new int[] {0, 3, 40_000}) {
            ring(n, false);
            ring(n, true);
        }
        line();
        segments();
        statusesWithoutFreeing();
        dupWithInfo();
        errors();
    }

    /**
     * MPI 4.1's Request.getStatusAll/Any/Some: a receive that has its message and one that cannot have it yet (its
     * sender waits for a go-ahead); nothing is freed, so the requests complete and are waited for afterwards.
     */
    static void statusesWithoutFreeing() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        int[] first = new int[1];
        int[] second = new int[1];
        Request[] rs = {
            w.iRecv(first, 1, MPI.INT, prev, 21), null, w.iRecv(second, 1, MPI.INT, prev, 22)
        };
        w.send(new int[] {rank}, 1, MPI.INT, next, 21);
        while (rs[0].getStatus() == null) {
            Thread.onSpinWait();
        }
        // the tag-22 message is sent only after every rank passed the checks below
        assertThat(Request.getStatusAll(rs)).isNull();
        Status any = Request.getStatusAny(rs);
        assertThat(any).isNotNull();
        assertThat(any.getIndex()).isZero();
        assertThat(any.getSource()).isEqualTo(prev);
        Status[] some = Request.getStatusSome(rs);
        assertThat(some).hasSize(1);
        assertThat(some[0].getIndex()).isZero();
        assertThat(rs[0].isNull()).as("get_status frees nothing").isFalse();
        w.barrier();
        w.send(new int[] {rank + 1000}, 1, MPI.INT, next, 22);
        Status[] all;
        while ((all = Request.getStatusAll(rs)) == null) {
            Thread.onSpinWait();
        }
        assertThat(all).hasSize(3);
        assertThat(all[2].getTag()).isEqualTo(22);
        assertThat(all[1].getSource()).as("a null entry's status is empty").isEqualTo(MPI.ANY_SOURCE);
        Request.waitAll(rs);
        assertThat(first[0]).isEqualTo(prev);
        assertThat(second[0]).isEqualTo(prev + 1000);
        assertThat(Request.getStatusSome(new Request[] {rs[0], null})).as("none active").isNull();
        assertThat(Request.getStatusAny(new Request[] {rs[0]}).getIndex()).isEqualTo(MPI.UNDEFINED);
    }

    /** MPI 4.0's idupWithInfo: the duplicate carries the given hints and works once its request completes. */
    static void dupWithInfo() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        mpi.Info hints = new mpi.Info();
        hints.set("mpi_assert_no_any_tag", "true");
        Intracomm d = w.iDupWithInfo(hints);
        d.getRequest().waitFor();
        assertThat(d.getInfo().getString("mpi_assert_no_any_tag")).isEqualTo("true");
        int[] sum = new int[1];
        d.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
        assertThat(sum[0]).isEqualTo(w.getSize());
        d.free();
    }

    static int value(int rank, int i) {
        return rank * 1_000_003 + i;
    }

    /** Each rank sends to the next and receives from the previous one, with both MPI 4.0 calls. */
    static void ring(int n, boolean direct) throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = value(rank, i);
        }
        Object send;
        Object recv;
        if (direct) {
            IntBuffer s = MPI.newIntBuffer(Math.max(n, 1));
            s.put(0, out);
            send = s;
            recv = MPI.newIntBuffer(Math.max(n, 1));
        } else {
            send = out.clone();
            recv = new int[Math.max(n, 1)];
        }
        Request r = w.iSendRecv(send, n, MPI.INT, next, 7, recv, n, MPI.INT, prev, 7);
        Status st = r.waitStatus();
        assertThat(r.isNull()).isTrue();
        assertThat(st.getSource()).isEqualTo(prev);
        assertThat(st.getTag()).isEqualTo(7);
        assertThat(st.getCount(MPI.INT)).isEqualTo(n);
        assertThat(st.getCountLong(MPI.INT)).isEqualTo(n);
        assertThat(st.getElementsLong(MPI.INT)).isEqualTo(n);
        int[] got = contents(recv, n);
        for (int i = 0; i < n; i++) {
            assertThat(got[i]).as("iSendRecv n=%d direct=%b element %d", n, direct, i).isEqualTo(value(prev, i));
        }

        // replace: the same buffer goes out and comes back with the previous rank's contents
        Request q = w.iSendRecvReplace(send, n, MPI.INT, next, 8, prev, 8);
        while (!q.test()) {
            Thread.onSpinWait();
        }
        int[] replaced = contents(send, n);
        for (int i = 0; i < n; i++) {
            assertThat(replaced[i]).as("iSendRecvReplace n=%d direct=%b element %d", n, direct, i)
                    .isEqualTo(value(prev, i));
        }
    }

    static int[] contents(Object buf, int n) {
        int[] a = new int[n];
        if (buf instanceof IntBuffer b) {
            b.get(0, a);
        } else {
            System.arraycopy((int[]) buf, 0, a, 0, n);
        }
        return a;
    }

    /** A line, not a ring: the ends send to and receive from PROC_NULL. */
    static void line() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int next = rank + 1 < size ? rank + 1 : MPI.PROC_NULL;
        int prev = rank > 0 ? rank - 1 : MPI.PROC_NULL;
        int[] in = {-1};
        Status st = w.iSendRecv(new int[] {rank}, 1, MPI.INT, next, 3, in, 1, MPI.INT, prev, 3).waitStatus();
        if (prev == MPI.PROC_NULL) {
            assertThat(st.getSource()).isEqualTo(MPI.PROC_NULL);
            assertThat(st.getTag()).isEqualTo(MPI.ANY_TAG);
            assertThat(st.getCount(MPI.INT)).isZero();
            assertThat(in[0]).isEqualTo(-1);
        } else {
            assertThat(st.getSource()).isEqualTo(prev);
            assertThat(in[0]).isEqualTo(prev);
        }
        int[] buf = {rank};
        w.iSendRecvReplace(buf, 1, MPI.INT, next, 4, prev, 4).waitFor();
        assertThat(buf[0]).isEqualTo(prev == MPI.PROC_NULL ? rank : prev);
    }

    /** Memory segments as buffers: native (a shared arena) and heap, point-to-point and an allreduce. */
    static void segments() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        int n = 100_000; // 800 KB of longs: above the eager limit
        try (Arena arena = Arena.ofShared()) {
            MemorySegment out = arena.allocate(8L * n, 8);
            MemorySegment in = arena.allocate(8L * n, 8);
            for (int i = 0; i < n; i++) {
                out.setAtIndex(ValueLayout.JAVA_LONG, i, (long) rank << 32 | i);
            }
            Status st = w.sendRecv(out, n, MPI.LONG, next, 1, in, n, MPI.LONG, prev, 1);
            assertThat(st.getCountLong(MPI.LONG)).isEqualTo(n);
            for (int i = 0; i < n; i += 997) {
                assertThat(in.getAtIndex(ValueLayout.JAVA_LONG, i)).isEqualTo((long) prev << 32 | i);
            }
            // a heap segment receives a native one's data
            MemorySegment heap = MemorySegment.ofArray(new long[n]);
            w.iSendRecv(out, n, MPI.LONG, next, 2, heap, n, MPI.LONG, prev, 2).waitFor();
            assertThat(heap.asSlice(0, 8L * n).mismatch(in)).isEqualTo(-1);
            // a collective
            MemorySegment one = arena.allocate(8, 8);
            MemorySegment sum = arena.allocate(8, 8);
            one.set(ValueLayout.JAVA_LONG, 0, rank + 1);
            w.allReduce(one, sum, 1, MPI.LONG, MPI.SUM);
            assertThat(sum.get(ValueLayout.JAVA_LONG, 0)).isEqualTo((long) size * (size + 1) / 2);
            // the long-count calls (MPI_Bcast_c, ...) with counts an int holds, and their int twins
            MemorySegment four = arena.allocate(32, 8);
            for (int i = 0; i < 4; i++) {
                four.setAtIndex(ValueLayout.JAVA_LONG, i, rank == size - 1 ? 10 + i : -1);
            }
            w.bcast(four, 4L, MPI.LONG, size - 1);
            assertThat(four.getAtIndex(ValueLayout.JAVA_LONG, 3)).isEqualTo(13);
            w.bcast(four, 2, MPI.LONG, 0);
            assertThat(four.getAtIndex(ValueLayout.JAVA_LONG, 1)).isEqualTo(11);
            w.allReduce(four, 4L, MPI.LONG, MPI.SUM);
            assertThat(four.getAtIndex(ValueLayout.JAVA_LONG, 2)).isEqualTo(12L * size);
            w.reduce(one, sum, 1L, MPI.LONG, MPI.MAX, 0);
            if (rank == 0) {
                assertThat(sum.get(ValueLayout.JAVA_LONG, 0)).isEqualTo(size);
            }
            w.reduce(four, 1L, MPI.LONG, MPI.MIN, 0);
            if (rank == 0) {
                assertThat(four.get(ValueLayout.JAVA_LONG, 0)).isEqualTo(10L * size);
            }
            if (size > 1) {
                if (rank == 0) {
                    w.send(four, 4L, MPI.LONG, 1, 9);
                    w.iSend(four, 4L, MPI.LONG, 1, 10).waitFor();
                } else if (rank == 1) {
                    assertThat(w.recv(in, 4L, MPI.LONG, 0, 9).getCountLong(MPI.LONG)).isEqualTo(4);
                    assertThat(in.getAtIndex(ValueLayout.JAVA_LONG, 3)).isEqualTo(13L * size);
                    long[] arr = new long[4];
                    assertThat(w.iRecv(arr, 4L, MPI.LONG, 0, 10).waitStatus().getCountLong(MPI.LONG)).isEqualTo(4);
                    assertThat(arr[3]).isEqualTo(13L * size);
                }
            }
            w.barrier(); // every peer done with this rank's memory before the arena closes
        }
    }

    static void errors() throws MPIException {
        Intracomm w = MPI.COMM_WORLD.dup();
        w.setErrhandler(MPI.ERRORS_RETURN);
        int size = w.getSize();
        int[] b = new int[4];
        expectClass(MPI.ERR_RANK, () -> w.iSendRecv(b, 1, MPI.INT, size, 0, b, 1, MPI.INT, 0, 0));
        expectClass(MPI.ERR_TAG, () -> w.iSendRecv(b, 1, MPI.INT, 0, -5, b, 1, MPI.INT, 0, 0));
        expectClass(MPI.ERR_COUNT, () -> w.iSendRecvReplace(b, -1, MPI.INT, 0, 0, 0, 0));
        // a count above 2^31 - 1 needs memory segments (an array cannot hold it)
        expectClass(MPI.ERR_BUFFER, () -> w.allReduce(new long[4], 1L << 32, MPI.LONG, MPI.SUM));
        expectClass(MPI.ERR_BUFFER, () -> w.iSend(b, 1L << 32, MPI.INT, MPI.PROC_NULL, 0));
        // a segment shorter than the count
        MemorySegment small = MemorySegment.ofArray(new byte[4]);
        expectClass(MPI.ERR_BUFFER, () -> w.iSendRecv(small, 2, MPI.INT, MPI.PROC_NULL, 0, b, 1, MPI.INT,
                MPI.PROC_NULL, 0));
        // a read-only segment cannot receive
        MemorySegment ro = MemorySegment.ofArray(new int[4]).asReadOnly();
        expectClass(MPI.ERR_BUFFER, () -> w.iSendRecv(b, 1, MPI.INT, MPI.PROC_NULL, 0, ro, 1, MPI.INT,
                MPI.PROC_NULL, 0));
        w.free();
    }

    interface Call {
        void run() throws MPIException;
    }

    static void expectClass(int errorClass, Call call) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(MPIException.class, e -> {
            assertThat(e.getErrorClass()).as(e.getMessage()).isEqualTo(errorClass);
        });
    }
}
