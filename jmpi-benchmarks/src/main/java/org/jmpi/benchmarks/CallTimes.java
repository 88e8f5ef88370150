package org.jmpi.benchmarks;

import java.util.Arrays;
import mpi.MPI;
import mpi.MPIException;

/**
 * Time of every single call, not just the average: a float-sum allreduce (or, with {@code --pingpong}, a ping-pong
 * round trip between ranks 0 and 1) of one size, called {@code --calls} times in each of {@code --reps} repetitions,
 * each call timed with {@code System.nanoTime}. Prints, per repetition, the average, the median, the 99th and 99.9th
 * percentiles, the maximum, and how much of the time went to calls slower than 20 us. The OSU-style programs report
 * averages only, which a handful of millisecond-long calls (a JIT compilation or a garbage collection taking one
 * rank's core while its partner waits) can dominate; this shows whether they do.
 *
 * <p>Options: {@code --bytes N} (default 4), {@code --calls N} (default 100000), {@code --reps N} (default 5),
 * {@code --pingpong}, {@code --call allreduce|barrier|fence|put} (an empty fence epoch on a window over 8 bytes; put:
 * rank 0 puts up to 8 bytes into rank 1's window and flushes, inside one lock epoch, while rank 1 waits in a barrier),
 * {@code --warmups N} (default 2). Before timing: {@code --warmups} untimed repetitions. Two, because the barrier
 * between repetitions takes paths that the repeated call does not (a message without payload), and the first barrier
 * after the JIT has compiled the call's path makes it throw that code away and compile it again: with one warm-up
 * repetition that recompilation fell into the first timed one and tripled its 99th percentile.
 */
public final class CallTimes {
    private CallTimes() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int bytes = 4;
        int calls = 100_000;
        int reps = 5;
        int warmups = 2;
        boolean pingPong = false;
        String call = "allreduce";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bytes" -> bytes = Bench.parseSize(args[++i]);
                case "--calls" -> calls = Integer.parseInt(args[++i]);
                case "--reps" -> reps = Integer.parseInt(args[++i]);
                case "--warmups" -> warmups = Integer.parseInt(args[++i]);
                case "--pingpong" -> {
                    pingPong = true;
                    call = "pingpong";
                }
                case "--call" -> call = args[++i];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        java.nio.FloatBuffer send = java.nio.ByteBuffer.allocateDirect(Math.max(4, bytes))
                .order(java.nio.ByteOrder.nativeOrder()).asFloatBuffer();
        java.nio.FloatBuffer recv = java.nio.ByteBuffer.allocateDirect(Math.max(4, bytes))
                .order(java.nio.ByteOrder.nativeOrder()).asFloatBuffer();
        java.nio.ByteBuffer ping = java.nio.ByteBuffer.allocateDirect(Math.max(1, bytes));
        int count = bytes / 4;
        if (rank == 0) {
            System.out.printf("# jmpi per-call times, %s of %d bytes, %d ranks: rep avg_us p50_us p99_us p99.9_us "
                    + "max_us share_of_time_in_calls_over_20us%n", pingPong ? "ping-pong round trip" : call,
                    bytes, size);
        }
        boolean put = call.equals("put");
        mpi.Win win = call.equals("fence") || put
                ? new mpi.Win(MPI.newByteBuffer(8), 8, 1, new mpi.Info(), MPI.COMM_WORLD) : null;
        if (win != null && !put) {
            win.fence(0);
        } else if (put && rank == 0) {
            win.lock(MPI.LOCK_SHARED, 1, 0);
        }
        long[] t = new long[calls];
        for (int rep = -warmups; rep < reps; rep++) {
            MPI.COMM_WORLD.barrier();
            timeCalls(t, call, put, win, pingPong, rank, ping, bytes, send, recv, count);
            if (rep < 0 || rank != 0) {
                continue;
            }
            long[] s = t.clone();
            Arrays.sort(s);
            long sum = 0;
            long slow = 0;
            for (long x : t) {
                sum += x;
                if (x > 20_000) {
                    slow += x;
                }
            }
            System.out.printf("%d %.3f %.3f %.3f %.3f %.1f %.1f%%%n", rep, sum / 1e3 / calls, s[calls / 2] / 1e3,
                    s[(int) (calls * 0.99)] / 1e3, s[(int) (calls * 0.999)] / 1e3, s[calls - 1] / 1e3,
                    100.0 * slow / sum);
        }
        if (put && rank == 0) {
            win.unlock(1);
        } else if (win != null && !put) {
            win.fence(MPI.MODE_NOSUCCEED);
        }
        if (win != null) {
            MPI.COMM_WORLD.barrier();
            win.free();
        }
        MPI.Finalize();
    }

    /**
     * One repetition: every call timed into {@code t}. A method of its own, so that the JIT compiles the timed loop as
     * a whole method, not as an on-stack replacement of {@code main} that main's first printing repetition (a branch
     * not taken before) throws away.
     */
    private static void timeCalls(long[] t, String call, boolean put, mpi.Win win, boolean pingPong, int rank,
            java.nio.ByteBuffer ping, int bytes, java.nio.FloatBuffer send, java.nio.FloatBuffer recv, int count)
            throws MPIException {
        int calls = t.length;
        for (int i = 0; i < calls; i++) {
            long t0 = System.nanoTime();
            if (call.equals("barrier")) {
                MPI.COMM_WORLD.barrier();
            } else if (put) {
                if (rank == 0) {
                    win.put(ping, Math.min(bytes, 8), MPI.BYTE, 1, 0, Math.min(bytes, 8), MPI.BYTE);
                    win.flush(1);
                }
            } else if (win != null) {
                win.fence(0);
            } else if (!pingPong) {
                MPI.COMM_WORLD.allReduce(send, recv, count, MPI.FLOAT, MPI.SUM);
            } else if (rank == 0) {
                MPI.COMM_WORLD.send(ping, bytes, MPI.BYTE, 1, 3);
                MPI.COMM_WORLD.recv(ping, bytes, MPI.BYTE, 1, 3);
            } else if (rank == 1) {
                MPI.COMM_WORLD.recv(ping, bytes, MPI.BYTE, 0, 3);
                MPI.COMM_WORLD.send(ping, bytes, MPI.BYTE, 0, 3);
            }
            t[i] = System.nanoTime() - t0;
        }
    }
}
