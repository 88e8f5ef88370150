package org.jmpi.benchmarks;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import mpi.MPI;
import mpi.MPIException;

/**
 * Options, iteration counts and reporting shared by the OSU-style collective benchmarks. The iteration counts and
 * the reported figures follow the C programs of the project's baseline ({@code ../shared/baseline/bench_common.h}),
 * so that jmpi and MPICH are measured the same way: many iterations for small messages, fewer for large ones; the
 * average time per call on each rank, reported as the average and the maximum over ranks, in microseconds. The
 * warm-up is longer than in C (a pass over all sizes first, then a quarter of the iterations before each size): a JVM
 * needs it for its JIT, and steady state is what long-running programs see.
 *
 * <p>Options: {@code --min BYTES} (default 4), {@code --max BYTES} (default 16 MiB), {@code --iters N} (base count
 * for small messages, default 10000), {@code --arrays} (Java arrays instead of direct buffers), {@code --warmup N}
 * (untimed calls at every size before the sweep, default 50, for the JIT).
 */
final class Bench {
    int min = 4;
    int max = 16 << 20;
    int iters = 10_000;
    boolean arrays;
    /** Untimed calls per size before the timed sweep; -1 (the default): as many as the timed loop makes. */
    int warmupCalls = -1;
    final int rank;
    final int size;

    Bench(String[] args, int defaultMin, int defaultMax) throws MPIException {
        min = defaultMin;
        max = defaultMax;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--min" -> min = parseSize(args[++i]);
                case "--max" -> max = parseSize(args[++i]);
                case "--iters" -> iters = Integer.parseInt(args[++i]);
                case "--arrays" -> arrays = true;
                case "--warmup" -> warmupCalls = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        rank = MPI.COMM_WORLD.getRank();
        size = MPI.COMM_WORLD.getSize();
    }

    static int parseSize(String s) {
        String v = s.trim().toLowerCase(java.util.Locale.ROOT);
        int mul = 1;
        if (v.endsWith("k")) {
            mul = 1 << 10;
        } else if (v.endsWith("m")) {
            mul = 1 << 20;
        }
        if (mul != 1) {
            v = v.substring(0, v.length() - 1);
        }
        return Math.multiplyExact(Integer.parseInt(v), mul);
    }

    /** The sizes of the sweep: min, 2 min, ... up to max (0 stays 0 once, then 1). */
    int[] sizes() {
        java.util.List<Integer> l = new java.util.ArrayList<>();
        for (long b = min; b <= max; b = b == 0 ? 1 : b * 2) {
            l.add((int) b);
        }
        return l.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Timed iterations for a message of {@code bytes} (as bench_common.h's iters_for, halved from 4 MiB). */
    int itersFor(long bytes) {
        int n;
        if (bytes <= 8192) {
            n = iters;
        } else if (bytes <= 65536) {
            n = Math.max(iters / 4, 100);
        } else if (bytes <= 1 << 20) {
            n = Math.max(iters / 20, 50);
        } else {
            n = Math.max(iters / 100, 20);
        }
        if (bytes >= 4 << 20) {
            n = Math.max(n / 2, 10);
        }
        return n;
    }

    /**
     * Untimed calls of one size in a warm-up pass (see {@link #warmUntilQuiet}): by default as many as the timed loop
     * makes untimed before it (a quarter of its calls).
     */
    int warmupCalls(long bytes) {
        return warmupCalls >= 0 ? warmupCalls : warmupFor(itersFor(bytes));
    }

    /** Upper bound on warm-up passes. */
    static final int MAX_WARMUP_PASSES = 1000;
    /** The JIT must have been quiet for this long (consecutive passes) before the timing starts. */
    static final long QUIET_MILLIS = 300;
    /** Upper bound on the whole warm-up, in case the JIT never settles. */
    static final long MAX_WARMUP_MILLIS = 20_000;

    /**
     * Repeats {@code pass} (an untimed sweep over every size) until the JIT of no rank compiled for more than 1 % of a
     * pass's time (at least 10 ms) during consecutive passes lasting {@link #QUIET_MILLIS} together (at most
     * {@link #MAX_WARMUP_MILLIS}). A freshly started JVM keeps compiling for several seconds of CPU on this kind of
     * loop, and on a machine with as many cores as ranks its compiler thread takes the core from one rank while the
     * other waits for it: timed before the JIT is quiet, a size measured compilation (figures scattered over 1-100x
     * their settled value). One quiet pass is not enough when a pass is short (an empty fence epoch sweep takes a few
     * milliseconds): compilations still queued do not count until they finish. The C programs this one mirrors have
     * nothing to warm up; the passes are extra, and the timed sweep that follows is the same as theirs.
     */
    void warmUntilQuiet(Call pass) throws MPIException {
        // the passes and the timed sweep call time() with the same SizedCall object: its call site in repeat() sees one
        // class, from the first warm-up call to the last timed one (see time())
        passUntilQuiet(pass);
        // the warm-up's garbage (the largest sizes make the most) is collected now rather than inside the first
        // timed loop, whose partner would wait out the pause: the first size of a sweep measured 3-10x the second.
        // Then passes again until the JIT is quiet: after the full collection C2 threw away compiled code of the hot
        // path (uncommon traps in Engine.onEager, newSend/newRecv, MemorySegment.copy), and the first size timed
        // next ran in the interpreter while it recompiled (8-byte put + flush at 7-9 us instead of 1.2)
        System.gc();
        int before = warmupPasses;
        passUntilQuiet(pass);
        warmupPasses += before;
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            System.out.printf("# warm-up: %d untimed pass%s over the sizes until the JIT was quiet, a GC, and again%n",
                    warmupPasses, warmupPasses == 1 ? "" : "es");
        }
    }

    private void passUntilQuiet(Call pass) throws MPIException {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        long quiet = 0;
        long total = 0;
        for (int i = 0; i < MAX_WARMUP_PASSES; i++) {
            long c0 = jit.getTotalCompilationTime();
            long t0 = System.nanoTime();
            pass.run();
            long compiled = jit.getTotalCompilationTime() - c0;
            long passMillis = (System.nanoTime() - t0) / 1_000_000;
            // the reductions report() makes between timed sizes, so that their first use does not come inside the
            // sweep: reduces of a double[] through the same code as the timed collectives changed its type profile,
            // C2 threw away the hot path's compiled code at the first report ("uncommon trap" in Immediate.exchange,
            // Kernels.apply, Engine.isend), and the next sizes ran while it recompiled (allreduce 8-32 B at 1-8 us
            // against 0.6-0.9 us at 4 B and 64 B)
            reportQuietly(0);
            long[] mine = {compiled > Math.max(10, passMillis / 100) ? 1 : 0, passMillis};
            long[] any = new long[2];
            MPI.COMM_WORLD.allReduce(mine, any, 2, MPI.LONG, MPI.MAX);
            warmupPasses = i + 1;
            quiet = any[0] == 0 ? quiet + any[1] : 0;
            total += any[1];
            if (quiet >= QUIET_MILLIS || total >= MAX_WARMUP_MILLIS) {
                break;
            }
        }
    }

    /** Warm-up passes the last {@link #warmUntilQuiet} made (for the output's comments). */
    int warmupPasses;

    /** How often {@link #timeSettled} runs one size's loop again at most. */
    static final int MAX_RETIMES = 3;

    /** Times the last {@link #timeSettled} ran its loop again (printed by the next {@link #report}). */
    private int retimes;

    /**
     * One size of a timed sweep: {@link #time} with a quarter of {@code iterations} untimed first, run again (at most
     * {@link #MAX_RETIMES} times) while the JIT of any rank finished compilations that took more than 1 % of the
     * loop's time (at least 1 ms) during it; {@link #report} then says so in a comment line. The warm-up passes make
     * few calls at the largest sizes (a quarter of 500 or 50), too few for the methods only those sizes run (the ring
     * allreduce, the split single copy) to reach C2's thresholds, so C2 compiled them inside the first timed loops
     * that ran them. On two cores a compiler thread then takes a rank's core for a whole time slice (4-8 ms here, the
     * kernel's tick is 4 ms) while its partner waits: allreduce 1 MiB measured 450-1220 us with the per-call times
     * 0.19 ms and 8 ms mixed, against 172-182 us for the same calls once the compilations were done (JFR's
     * jdk.Compilation events showed AllreduceRing.build at 213-217 ms of C2 in both ranks at once). What the loop
     * then measured was the JIT, once, not the steady state this sweep reports; the cost of that first compilation
     * is what the cold suite measures (docs/benchmarks.md, "Cold: jmpi beside Open MPI Java and MPICH").
     */
    double timeSettled(int iterations, SizedCall call, int bytes) throws MPIException {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        for (int attempt = 0; ; attempt++) {
            long c0 = jit.getTotalCompilationTime();
            long t0 = System.nanoTime();
            double us = time(warmupFor(iterations), iterations, call, bytes);
            long compiled = jit.getTotalCompilationTime() - c0;
            long loopMillis = (System.nanoTime() - t0) / 1_000_000;
            long[] mine = {compiled > Math.max(1, loopMillis / 100) ? 1 : 0};
            long[] any = new long[1];
            MPI.COMM_WORLD.allReduce(mine, any, 1, MPI.LONG, MPI.MAX);
            if (any[0] == 0 || attempt == MAX_RETIMES) {
                retimes = attempt;
                return us;
            }
        }
    }

    /**
     * Untimed calls before the timed ones of one size: a quarter of them (the C programs take a tenth), because the
     * JIT compiles the paths of a size only once they run often.
     */
    static int warmupFor(int iters) {
        return Math.max(iters / 4, 10);
    }

    /** A direct buffer in native order, every byte touched, or (with --arrays) a float array. */
    Object floats(int bytes, float value) {
        int n = Math.max(1, bytes / 4);
        if (arrays) {
            float[] a = new float[n];
            java.util.Arrays.fill(a, value);
            return a;
        }
        ByteBuffer b = ByteBuffer.allocateDirect(n * 4).order(ByteOrder.nativeOrder());
        for (int i = 0; i < n; i++) {
            b.putFloat(i * 4, value);
        }
        return b.asFloatBuffer();
    }

    /** A direct byte buffer (or byte array) of at least one byte, touched. */
    Object bytes(int bytes) {
        int n = Math.max(1, bytes);
        if (arrays) {
            byte[] a = new byte[n];
            java.util.Arrays.fill(a, (byte) 1);
            return a;
        }
        ByteBuffer b = ByteBuffer.allocateDirect(n);
        for (int i = 0; i < n; i++) {
            b.put(i, (byte) 1);
        }
        return b;
    }

    /** Prints one line on rank 0: bytes, average and maximum over ranks of {@code micros}, iterations. */
    void report(long bytes, double micros, int iterations) throws MPIException {
        double[] r = reportQuietly(micros);
        if (rank == 0) {
            System.out.printf("%d %.3f %.3f %d%n", bytes, r[0], r[1], iterations);
            if (retimes > 0) {
                System.out.printf("# %d: timed %d time%s more, the JIT compiled during the loop%n", bytes, retimes,
                        retimes == 1 ? "" : "s");
            }
            System.out.flush();
        }
        retimes = 0;
    }

    /** The average and maximum over ranks of {@code micros} (at rank 0), as {@link #report} prints them. */
    private double[] reportQuietly(double micros) throws MPIException {
        double[] t = {micros};
        double[] sum = new double[1];
        double[] max = new double[1];
        MPI.COMM_WORLD.reduce(t, sum, 1, MPI.DOUBLE, MPI.SUM, 0);
        MPI.COMM_WORLD.reduce(t, max, 1, MPI.DOUBLE, MPI.MAX, 0);
        return new double[] {sum[0] / size, max[0]};
    }

    void header(String what, String columns) {
        if (rank == 0) {
            System.out.printf("# jmpi %s, %d ranks (%s): %s%n", what, size, arrays ? "Java arrays" : "direct buffers",
                    columns);
        }
    }

    /**
     * One timed loop of a collective: {@code warm} untimed calls, a barrier, {@code iterations} timed calls of
     * {@code call} for a message of {@code bytes}; returns microseconds per call. The warm-up passes and the timed
     * sweep of a benchmark pass the same {@code SizedCall} object, which takes the size as an argument:
     * {@link #repeat}'s call site then sees one class from start to end. With a fresh lambda per size (another class
     * for the passes than for the sweep) and a loop for the untimed calls that the passes never entered, C2 compiled
     * this method for what the passes did, and the first size of the sweep hit uncommon traps (an unstable branch, a
     * profiled class check hoisted out of the loop) and ran while C2 recompiled it (seen in the deoptimisation log of
     * OsuGather; earlier, allreduce 4 B at 1.5-1.9 us against 0.6 us at 8 B).
     */
    static double time(int warm, int iterations, SizedCall call, int bytes) throws MPIException {
        MPI.COMM_WORLD.barrier();
        repeat(warm, call, bytes);
        MPI.COMM_WORLD.barrier();
        double t0 = MPI.wtime();
        repeat(iterations, call, bytes);
        return (MPI.wtime() - t0) * 1e6 / iterations;
    }

    private static void repeat(int n, SizedCall call, int bytes) throws MPIException {
        for (int i = 0; i < n; i++) {
            call.run(bytes);
        }
    }

    /** One call of a benchmarked operation on messages of {@code bytes}. */
    @FunctionalInterface
    interface SizedCall {
        void run(int bytes) throws MPIException;
    }

    @FunctionalInterface
    interface Call {
        void run() throws MPIException;
    }
}
