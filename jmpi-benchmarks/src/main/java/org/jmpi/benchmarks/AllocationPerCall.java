package org.jmpi.benchmarks;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Win;

/**
 * Bytes allocated on the Java heap per operation, for each call family: a deterministic count (no clock), taken with
 * {@code com.sun.management.ThreadMXBean.getCurrentThreadAllocatedBytes} around many operations after a warm-up. A
 * point-to-point operation is one round trip between ranks 0 and 1 (each of them sends once and receives once; other
 * ranks stay out); a collective operation is one call on every rank.
 *
 * <p>Run: {@code jmpirun -n 2 [--threads] -cp jmpi-benchmarks.jar org.jmpi.benchmarks.AllocationPerCall [OPS [FAMILY]]}
 * (default 100,000 operations after as many warm-up ones; every family, or only the one named).
 * Rank 0 prints {@code family bytes_per_op} with the maximum over the ranks. The regression test
 * {@code AllocationPerCallTest} calls {@link #measure} with the same families.
 *
 * <p>What a call must allocate by the API itself: {@code recv} returns a new {@code Status}, {@code iSend} and
 * {@code iRecv} return a new {@code Request}, {@code waitFor} returns a new {@code Status}. Those objects are
 * counted, since the user sees them; everything else should be zero in steady state.
 */
public final class AllocationPerCall {
    private AllocationPerCall() {}

    /** The call families measured. */
    public enum Family {
        /** Blocking send and recv of 8 bytes in a byte[] (eager). */
        SEND_RECV_ARRAY_8B(8, true),
        /** Blocking send and recv of 8 bytes in a direct buffer (eager). */
        SEND_RECV_DIRECT_8B(8, false),
        /** Blocking send and recv of no data (count 0) with a direct buffer: the message a program signals with. */
        SEND_RECV_DIRECT_0B(0, false),
        /** Blocking send and recv of 256 KiB in a byte[] (rendezvous). */
        SEND_RECV_ARRAY_256K(256 << 10, true),
        /** Blocking send and recv of 256 KiB in a direct buffer (rendezvous, single copy where allowed). */
        SEND_RECV_DIRECT_256K(256 << 10, false),
        /** iSend and iRecv of 8 bytes in a byte[], then waitFor on both. */
        ISEND_IRECV_WAIT_ARRAY_8B(8, true),
        /** iSend and iRecv of 8 bytes in a direct buffer, then waitFor on both. */
        ISEND_IRECV_WAIT_DIRECT_8B(8, false),
        /** iRecv, blocking send, then test() until the receive completes, 8 bytes in a byte[]. */
        IRECV_TEST_ARRAY_8B(8, true),
        /**
         * Blocking send and recv of 8 bytes, each call on the next of {@value #ROTATION} byte[]s to send and as many
         * to receive into (a program with one buffer per neighbour or per slot of a window).
         */
        SEND_RECV_ROTATING_ARRAYS_8B(8, true),
        /**
         * Blocking send and recv of one double, each from or into a new {@code double[1]}: the arrays and a view of
         * each are allocated per call.
         */
        SEND_RECV_FRESH_ARRAYS_8B(8, true),
        /**
         * One window (OSU's bandwidth and message rate): rank 0 posts {@value #WINDOW} iSends of 8 bytes from one direct
         * buffer, rank 1 as many iRecvs into one, both waitAll, then rank 1 acknowledges with a blocking 4-byte send.
         * One operation is the whole window.
         */
        ISEND_WINDOW_WAITALL_DIRECT_8B(8, false),
        /** sendRecv of 8 bytes in byte[]s with the other rank, its Status ignored. */
        SENDRECV_ARRAY_8B(8, true),
        /** Barrier. */
        BARRIER(0, false),
        /** Bcast of 8 bytes from rank 0, direct buffer. */
        BCAST_8B(8, false),
        /** Bcast of 8 bytes from rank 0, byte[]. */
        BCAST_ARRAY_8B(8, true),
        /** Allreduce of one float (SUM), direct buffer. */
        ALLREDUCE_4B(4, false),
        /** Allreduce of one float (SUM), float[]. */
        ALLREDUCE_ARRAY_4B(4, true),
        /** Reduce of one float (SUM) to rank 0, direct buffer. */
        REDUCE_4B(4, false),
        /** Allgather of 8 bytes per rank, direct buffer. */
        ALLGATHER_8B(8, false),
        /** Alltoall of 8 bytes per rank pair, direct buffer. */
        ALLTOALL_8B(8, false),
        /** Gather of 8 bytes per rank to rank 0, direct buffer. */
        GATHER_8B(8, false),
        /** Scatter of 8 bytes per rank from rank 0, direct buffer. */
        SCATTER_8B(8, false),
        /**
         * Scatter of 1 KiB per rank from rank 0, direct buffer: the root runs ahead of the other ranks until it has no
         * credit left, and from then on its frames wait for credit.
         */
        SCATTER_1K(1024, false),
        /**
         * Allreduce of one double (SUM) from a new {@code double[1]} into a new one each call, as a dot product written
         * the textbook way: the arrays and a view of each are allocated per call.
         */
        ALLREDUCE_FRESH_ARRAYS_8B(8, true),
        /** An empty fence epoch (MPI_Win_fence) on a window over 8 bytes of a direct buffer. */
        WIN_FENCE(8, false),
        /** Rank 0 puts 8 bytes into rank 1's window and flushes, inside one lock epoch (rank 1 waits in a barrier). */
        WIN_PUT_FLUSH_8B(8, false),
        /** Rank 0 gets 8 bytes from rank 1's window and flushes, inside one lock epoch. */
        WIN_GET_FLUSH_8B(8, false),
        /** Rank 0's fetchAndOp (SUM of one long) on rank 1, inside one lock epoch, on an allocated window. */
        WIN_FETCH_AND_OP(8, false);

        /** Buffers per direction of {@link #SEND_RECV_ROTATING_ARRAYS_8B}. */
        static final int ROTATION = 6;
        /** Requests per window of {@link #ISEND_WINDOW_WAITALL_DIRECT_8B}. */
        public static final int WINDOW = 64;

        final int bytes;
        final boolean arrays;

        Family(int bytes, boolean arrays) {
            this.bytes = bytes;
            this.arrays = arrays;
        }

        boolean pointToPoint() {
            return ordinal() <= SENDRECV_ARRAY_8B.ordinal();
        }

        /** One-sided families after the fence: rank 0 is the origin, rank 1 the target, the others stay out. */
        boolean passive() {
            return ordinal() > WIN_FENCE.ordinal();
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int ops = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        String only = args.length > 1 ? args[1].toUpperCase(java.util.Locale.ROOT) : null;
        Comm w = MPI.COMM_WORLD;
        if (w.getRank() == 0) {
            System.out.printf("# jmpi bytes allocated per operation (%d ranks, %d operations after %d warm-up; max over"
                    + " ranks)%n# family bytes_per_op%n", w.getSize(), ops, ops);
        }
        for (Family f : Family.values()) {
            if ((f.pointToPoint() || f.passive()) && w.getSize() < 2 || only != null && !f.name().equals(only)) {
                continue;
            }
            double mine = measure(f, ops, ops);
            double[] max = {mine};
            w.allReduce(max, 1, MPI.DOUBLE, MPI.MAX);
            if (w.getRank() == 0) {
                System.out.printf("%s %.2f%n", f.name().toLowerCase(java.util.Locale.ROOT), max[0]);
                System.out.flush();
            }
        }
        MPI.Finalize();
    }

    /**
     * Runs {@code warm} then {@code ops} operations of a family on every rank of MPI.COMM_WORLD (collective: every
     * rank calls it) and returns the bytes this rank's thread allocated per measured operation.
     */
    public static double measure(Family f, int warm, int ops) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        Buffers b = new Buffers(f, w.getSize());
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Win win = null;
        if (f.ordinal() >= Family.WIN_FENCE.ordinal()) {
            win = f == Family.WIN_FETCH_AND_OP
                    ? new Win(8, 1, new mpi.Info(), w, null, Win.FLAVOR_PRIVATE)
                    : new Win(MPI.newByteBuffer(8), 8, 1, new mpi.Info(), w);
            if (f == Family.WIN_FENCE) {
                win.fence(0);
            } else if (w.getRank() == 0) {
                win.lock(MPI.LOCK_SHARED, 1, 0);
            }
        }
        b.win = win;
        run(f, b, w, warm);
        w.barrier();
        long before = mx.getCurrentThreadAllocatedBytes();
        before = mx.getCurrentThreadAllocatedBytes(); // the first call may allocate for itself
        run(f, b, w, ops);
        if (f.passive()) {
            w.barrier(); // counted: the target serves the operations in it
        }
        long after = mx.getCurrentThreadAllocatedBytes();
        w.barrier();
        if (win != null) {
            if (f == Family.WIN_FENCE) {
                win.fence(MPI.MODE_NOSUCCEED);
            } else if (w.getRank() == 0) {
                win.unlock(1);
            }
            w.barrier();
            win.free();
        }
        return (after - before) / (double) ops;
    }

    /** Buffers of one family, allocated before the measurement. */
    private static final class Buffers {
        final Object send;
        final Object recv;
        final byte[][] sendRotation = new byte[Family.ROTATION][8];
        final byte[][] recvRotation = new byte[Family.ROTATION][8];
        final Request[] window = new Request[Family.WINDOW];
        final Object all;
        final Object allOut;
        final float[] oneFloat = {1f};
        final float[] oneFloatOut = new float[1];
        final java.nio.LongBuffer one = MPI.newLongBuffer(1).put(0, 1);
        final java.nio.LongBuffer result = MPI.newLongBuffer(1);
        Win win;

        Buffers(Family f, int ranks) {
            int n = Math.max(f.bytes, 1);
            send = f.arrays ? new byte[n] : direct(n);
            recv = f.arrays ? new byte[n] : direct(n);
            all = direct(n * ranks);
            allOut = direct(n * ranks);
        }

        private static ByteBuffer direct(int n) {
            return ByteBuffer.allocateDirect(n).order(ByteOrder.nativeOrder());
        }
    }

    private static void run(Family f, Buffers b, Comm w, int ops) throws MPIException {
        int rank = w.getRank();
        if ((f.pointToPoint() || f.passive()) && rank > 1) {
            return;
        }
        if (f.passive()) {
            if (rank == 1) {
                return; // the target serves rank 0's operations from the barrier that follows the loop
            }
            for (int i = 0; i < ops; i++) {
                switch (f) {
                    case WIN_PUT_FLUSH_8B -> b.win.put((ByteBuffer) b.send, f.bytes, MPI.BYTE, 1, 0, f.bytes, MPI.BYTE);
                    case WIN_GET_FLUSH_8B -> b.win.get((ByteBuffer) b.recv, f.bytes, MPI.BYTE, 1, 0, f.bytes, MPI.BYTE);
                    default -> b.win.fetchAndOp(b.one, b.result, MPI.LONG, 1, 0, MPI.SUM);
                }
                b.win.flush(1);
            }
            return;
        }
        int peer = 1 - rank;
        int n = f.bytes;
        for (int i = 0; i < ops; i++) {
            switch (f) {
                case SEND_RECV_ARRAY_8B, SEND_RECV_DIRECT_8B, SEND_RECV_DIRECT_0B, SEND_RECV_ARRAY_256K,
                        SEND_RECV_DIRECT_256K -> {
                    if (rank == 0) {
                        w.send(b.send, n, MPI.BYTE, peer, 1);
                        w.recv(b.recv, n, MPI.BYTE, peer, 1);
                    } else {
                        w.recv(b.recv, n, MPI.BYTE, peer, 1);
                        w.send(b.send, n, MPI.BYTE, peer, 1);
                    }
                }
                case SEND_RECV_ROTATING_ARRAYS_8B -> {
                    byte[] out = b.sendRotation[i % Family.ROTATION];
                    byte[] in = b.recvRotation[i % Family.ROTATION];
                    if (rank == 0) {
                        w.send(out, n, MPI.BYTE, peer, 5);
                        w.recv(in, n, MPI.BYTE, peer, 5);
                    } else {
                        w.recv(in, n, MPI.BYTE, peer, 5);
                        w.send(out, n, MPI.BYTE, peer, 5);
                    }
                }
                case ISEND_WINDOW_WAITALL_DIRECT_8B -> {
                    for (int k = 0; k < Family.WINDOW; k++) {
                        b.window[k] = rank == 0 ? w.iSend((ByteBuffer) b.send, n, MPI.BYTE, peer, 6)
                                : w.iRecv((ByteBuffer) b.recv, n, MPI.BYTE, peer, 6);
                    }
                    Request.waitAll(b.window);
                    if (rank == 0) {
                        w.recv(b.recv, 4, MPI.BYTE, peer, 7);
                    } else {
                        w.send(b.send, 4, MPI.BYTE, peer, 7);
                    }
                }
                case ISEND_IRECV_WAIT_ARRAY_8B, ISEND_IRECV_WAIT_DIRECT_8B -> {
                    Request r = f.arrays ? w.iRecv(b.recv, n, MPI.BYTE, peer, 2)
                            : w.iRecv((ByteBuffer) b.recv, n, MPI.BYTE, peer, 2);
                    Request s = f.arrays ? w.iSend(b.send, n, MPI.BYTE, peer, 2)
                            : w.iSend((ByteBuffer) b.send, n, MPI.BYTE, peer, 2);
                    s.waitFor();
                    r.waitFor();
                }
                case SENDRECV_ARRAY_8B -> w.sendRecv(b.send, n, MPI.BYTE, peer, 4, b.recv, n, MPI.BYTE, peer, 4);
                case IRECV_TEST_ARRAY_8B -> {
                    Request r = w.iRecv(b.recv, n, MPI.BYTE, peer, 3);
                    w.send(b.send, n, MPI.BYTE, peer, 3);
                    while (!r.test()) {
                        Thread.onSpinWait();
                    }
                }
                case BARRIER -> w.barrier();
                case BCAST_8B -> w.bcast(b.send, n, MPI.BYTE, 0);
                case BCAST_ARRAY_8B -> w.bcast(b.send, n, MPI.BYTE, 0);
                case ALLREDUCE_4B -> w.allReduce(b.send, b.recv, 1, MPI.FLOAT, MPI.SUM);
                case ALLREDUCE_ARRAY_4B -> w.allReduce(b.oneFloat, b.oneFloatOut, 1, MPI.FLOAT, MPI.SUM);
                case ALLREDUCE_FRESH_ARRAYS_8B -> w.allReduce(new double[] {i}, new double[1], 1, MPI.DOUBLE, MPI.SUM);
                case SEND_RECV_FRESH_ARRAYS_8B -> {
                    if (rank == 0) {
                        w.send(new double[] {i}, 1, MPI.DOUBLE, peer, 6);
                        w.recv(new double[1], 1, MPI.DOUBLE, peer, 6);
                    } else {
                        w.recv(new double[1], 1, MPI.DOUBLE, peer, 6);
                        w.send(new double[] {i}, 1, MPI.DOUBLE, peer, 6);
                    }
                }
                case REDUCE_4B -> w.reduce(b.send, b.recv, 1, MPI.FLOAT, MPI.SUM, 0);
                case ALLGATHER_8B -> w.allGather(b.send, n, MPI.BYTE, b.allOut, n, MPI.BYTE);
                case ALLTOALL_8B -> w.allToAll(b.all, n, MPI.BYTE, b.allOut, n, MPI.BYTE);
                case GATHER_8B -> w.gather(b.send, n, MPI.BYTE, b.allOut, n, MPI.BYTE, 0);
                case SCATTER_8B, SCATTER_1K -> w.scatter(b.all, n, MPI.BYTE, b.recv, n, MPI.BYTE, 0);
                case WIN_FENCE -> b.win.fence(0);
                default -> throw new IllegalStateException(f.name());
            }
        }
    }
}
