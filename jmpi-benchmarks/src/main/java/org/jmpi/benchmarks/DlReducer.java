package org.jmpi.benchmarks;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.dl.Algorithm;
import org.jmpi.dl.GradientReducer;
import org.jmpi.dl.ReduceOp;
import org.jmpi.dl.ReducerOptions;

/**
 * The gradient reducer of jmpi-dl, measured.
 *
 * <ul>
 *   <li>{@code sizes}: one tensor of 4 B to 16 MiB submitted and waited for, back to back (the reducer's latency and
 *       throughput), beside {@code MPI_Allreduce} on the same float[] and on a direct buffer. Prints
 *       {@code bytes reducer_us allreduce_array_us allreduce_direct_us} (medians over rounds).</li>
 *   <li>{@code fusion}: a "model" of {@code --tensors} tensors of {@code --floats} floats (default 100 x 10,000)
 *       reduced per step: fused by the reducer, unfused (fusion threshold 0), one blocking {@code MPI_Allreduce} per
 *       tensor, and one {@code MPI_Allreduce} of the whole model already in one buffer (the floor). Prints
 *       milliseconds per step (median over steps).</li>
 *   <li>{@code step}: the MLP of the Fashion-MNIST example (784x128, 128, 128x10, 10 floats), four tensors per
 *       step and no compute: the reducer's cost per training step.</li>
 * </ul>
 * Reducer settings from the {@code JMPI_DL_*} environment; {@code --algorithm} overrides.
 */
public final class DlReducer {
    private DlReducer() {}

    public static void main(String[] args) throws Exception {
        MPI.InitThread(args, MPI.THREAD_MULTIPLE);
        String mode = args.length > 0 ? args[0] : "sizes";
        int tensors = 100;
        int floats = 10_000;
        int steps = 200;
        String only = "";
        ReducerOptions.Builder opts = ReducerOptions.fromEnvironment().toBuilder();
        for (int i = 1; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--tensors" -> tensors = Integer.parseInt(args[i + 1]);
                case "--floats" -> floats = Integer.parseInt(args[i + 1]);
                case "--steps" -> steps = Integer.parseInt(args[i + 1]);
                case "--only" -> only = args[i + 1];
                case "--algorithm" -> opts.algorithm(Algorithm.valueOf(args[i + 1].toUpperCase(Locale.ROOT)));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        ReducerOptions options = opts.build();
        switch (mode) {
            case "sizes" -> sizes(options, rank, size);
            case "fusion" -> fusion(options, rank, size, tensors, floats, steps, only);
            case "step" -> step(options, rank, size, steps);
            default -> throw new IllegalArgumentException("mode is sizes, fusion or step, not " + mode);
        }
        MPI.Finalize();
    }

    interface Body {
        void run() throws Exception;
    }

    /** Median over {@code rounds} of the mean time of {@code iters} calls, microseconds; rank 0's view. */
    static double median(int rounds, int iters, Body body) throws Exception {
        double[] t = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            MPI.COMM_WORLD.barrier();
            long t0 = System.nanoTime();
            for (int i = 0; i < iters; i++) {
                body.run();
            }
            t[r] = (System.nanoTime() - t0) / 1e3 / iters;
        }
        Arrays.sort(t);
        double m = t[rounds / 2];
        double[] max = {m};
        MPI.COMM_WORLD.allReduce(max, 1, MPI.DOUBLE, MPI.MAX);
        return max[0];
    }

    static void sizes(ReducerOptions options, int rank, int size) throws Exception {
        int maxBytes = 16 << 20;
        float[] array = new float[maxBytes / 4];
        Arrays.fill(array, 1f);
        ByteBuffer direct = MPI.newByteBuffer(maxBytes);
        try (GradientReducer r = GradientReducer.create(MPI.COMM_WORLD, options)) {
            if (rank == 0) {
                System.out.printf(Locale.ROOT, "# DlReducer sizes, %d ranks, algorithm %s, %s%n", size, r.algorithm(),
                        options);
                System.out.println("# bytes reducer_us allreduce_array_us allreduce_direct_us");
            }
            // Two passes over the sizes: the first warms up (the JIT compiles the reducer's and the collectives'
            // paths), the second measures.
            for (int pass = 0; pass < 2; pass++) {
                for (int bytes = 4; bytes <= maxBytes; bytes *= 4) {
                    int count = bytes / 4;
                    float[] t = Arrays.copyOf(array, count);
                    int iters = Math.max(5, Math.min(2000, (int) (200_000_000L / Math.max(bytes, 50_000) / 10)));
                    int rounds = pass == 0 ? 1 : 5;
                    Body call = () -> GradientReducer.synchronize(r.submit("t", t, ReduceOp.SUM));
                    double red = median(rounds, iters, call);
                    double arr = median(rounds, iters, () -> MPI.COMM_WORLD.allReduce(t, count, MPI.FLOAT, MPI.SUM));
                    double dir = median(rounds, iters,
                            () -> MPI.COMM_WORLD.allReduce(direct, count, MPI.FLOAT, MPI.SUM));
                    if (rank == 0 && pass == 1) {
                        System.out.printf(Locale.ROOT, "%d %.2f %.2f %.2f%n", bytes, red, arr, dir);
                    }
                }
            }
        }
    }

    /** {@code only}: "" for every variant, else "fused" or "unfused" alone (e.g. for a timeline of one of them). */
    static void fusion(ReducerOptions options, int rank, int size, int tensors, int floats, int steps, String only)
            throws Exception {
        float[][] model = new float[tensors][floats];
        for (float[] t : model) {
            Arrays.fill(t, 1f);
        }
        float[] whole = new float[tensors * floats];
        double fused = Double.NaN;
        double unfused = Double.NaN;
        if (!only.equals("unfused")) {
            try (GradientReducer r = GradientReducer.create(MPI.COMM_WORLD, options)) {
                fused = perStep(steps, () -> reduceAll(r, model));
                if (rank == 0) {
                    int calls = Math.max(50, steps) + steps;
                    System.out.printf(Locale.ROOT, "# fused: mean per step %.3f ms submitting, %.3f ms waiting; %s%n",
                            submitNanos / 1e6 / calls, waitNanos / 1e6 / calls, r.stats());
                }
            }
        }
        if (!only.equals("fused")) {
            try (GradientReducer r = GradientReducer.create(MPI.COMM_WORLD,
                    options.toBuilder().fusionBytes(0).build())) {
                unfused = perStep(steps, () -> reduceAll(r, model));
            }
        }
        double perTensor = perStep(steps, () -> {
            for (float[] t : model) {
                MPI.COMM_WORLD.allReduce(t, t.length, MPI.FLOAT, MPI.SUM);
            }
        });
        double one = perStep(steps, () -> MPI.COMM_WORLD.allReduce(whole, whole.length, MPI.FLOAT, MPI.SUM));
        if (rank == 0) {
            System.out.printf(Locale.ROOT, "# DlReducer fusion, %d ranks, %d tensors x %d floats (%.1f MB), %s%n", size,
                    tensors, floats, tensors * floats * 4 / 1e6, options);
            System.out.println("# variant ms_per_step");
            System.out.printf(Locale.ROOT, "reducer_fused %.3f%n", fused / 1e3);
            System.out.printf(Locale.ROOT, "reducer_unfused %.3f%n", unfused / 1e3);
            System.out.printf(Locale.ROOT, "allreduce_per_tensor %.3f%n", perTensor / 1e3);
            System.out.printf(Locale.ROOT, "allreduce_one_buffer %.3f%n", one / 1e3);
            System.out.printf(Locale.ROOT, "fusion_speedup %.2f%n", unfused / fused);
        }
    }

    /** Time spent submitting and waiting, summed over reduceAll calls (nanoseconds), for the split printed. */
    static long submitNanos;
    static long waitNanos;

    static void reduceAll(GradientReducer r, float[][] model) {
        long t0 = System.nanoTime();
        List<CompletableFuture<float[]>> fs = new ArrayList<>(model.length);
        for (int i = 0; i < model.length; i++) {
            fs.add(r.submit("t" + i, model[i], ReduceOp.SUM));
        }
        long t1 = System.nanoTime();
        for (CompletableFuture<float[]> f : fs) {
            GradientReducer.synchronize(f);
        }
        submitNanos += t1 - t0;
        waitNanos += System.nanoTime() - t1;
    }

    /** Median over steps of one step's time (after as many warm-up steps), microseconds, max over ranks. */
    static double perStep(int steps, Body body) throws Exception {
        for (int i = 0; i < Math.max(50, steps); i++) { // warm-up: the JIT needs many large reductions
            body.run();
        }
        double[] t = new double[steps];
        MPI.COMM_WORLD.barrier();
        for (int i = 0; i < steps; i++) {
            long t0 = System.nanoTime();
            body.run();
            t[i] = (System.nanoTime() - t0) / 1e3;
        }
        Arrays.sort(t);
        double[] m = {t[steps / 2]};
        MPI.COMM_WORLD.allReduce(m, 1, MPI.DOUBLE, MPI.MAX);
        return m[0];
    }

    static void step(ReducerOptions options, int rank, int size, int steps) throws Exception {
        float[][] model = {new float[784 * 128], new float[128], new float[128 * 10], new float[10]};
        try (GradientReducer r = GradientReducer.create(MPI.COMM_WORLD, options)) {
            double us = perStep(steps, () -> {
                List<CompletableFuture<float[]>> fs = new ArrayList<>();
                for (int i = model.length - 1; i >= 0; i--) {
                    fs.add(r.submit("p" + i, model[i], ReduceOp.AVERAGE));
                }
                for (CompletableFuture<float[]> f : fs) {
                    GradientReducer.synchronize(f);
                }
            });
            double plain = perStep(steps, () -> {
                for (float[] t : model) {
                    MPI.COMM_WORLD.allReduce(t, t.length, MPI.FLOAT, MPI.SUM);
                }
            });
            if (rank == 0) {
                System.out.printf(Locale.ROOT, "# DlReducer step (MLP 784-128-10 gradients), %d ranks, %s%n", size,
                        options);
                System.out.printf(Locale.ROOT, "reducer_step_us %.1f cycles %d%n", us, r.stats().cycles());
                System.out.printf(Locale.ROOT, "allreduce_per_tensor_step_us %.1f%n", plain);
            }
        }
    }
}
