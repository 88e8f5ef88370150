package org.jmpi.benchmarks;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Speed of the reduction kernels, through the public MPI_Reduce_local: {@code inout = in + inout} on floats (and
 * doubles, ints), 4 KiB to 16 MiB, on Java arrays and on direct buffers, next to a plain copy of the same bytes
 * (System.arraycopy) as the memory-speed yardstick. A sum reads two operands and writes one, so near memory speed
 * means about 1.5 times the copy's time. Prints {@code bytes kernel_us GB/s(of the vector) copy_us ratio}. Single
 * rank; options {@code --max BYTES}, {@code --iters N}.
 */
public final class ReduceKernel {
    private ReduceKernel() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Bench b = new Bench(args, 4096, 16 << 20);
        if (b.rank != 0) {
            MPI.Finalize();
            return;
        }
        int n = b.max / 4;
        float[] in = new float[n];
        float[] inout = new float[n];
        float[] copy = new float[n];
        for (int i = 0; i < n; i++) {
            in[i] = i % 7;
            inout[i] = 1;
        }
        FloatBuffer din = direct(n);
        FloatBuffer dinout = direct(n);
        System.out.println("# jmpi reduceLocal MPI_SUM, one thread: kind  bytes  kernel_us  GB/s  copy_us  "
                + "kernel/copy");
        for (int round = 0; round < 2; round++) {
            boolean print = round == 1;
            for (int bytes = b.min; bytes <= b.max; bytes *= 4) {
                int count = bytes / 4;
                int iters = Math.max(10, (int) Math.min(20_000, (256L << 20) / bytes));
                double k = best(iters, () -> Comm.reduceLocal(in, inout, count, MPI.FLOAT, MPI.SUM));
                double kd = best(iters, () -> Comm.reduceLocal(din, dinout, count, MPI.FLOAT, MPI.SUM));
                double c = best(iters, () -> System.arraycopy(in, 0, copy, 0, count));
                if (print) {
                    System.out.printf("float[] %d %.2f %.2f %.2f %.2f%n", bytes, k, bytes / k / 1e3, c, k / c);
                    System.out.printf("direct %d %.2f %.2f %.2f %.2f%n", bytes, kd, bytes / kd / 1e3, c, kd / c);
                }
            }
        }
        MPI.Finalize();
    }

    private static FloatBuffer direct(int n) {
        FloatBuffer f = ByteBuffer.allocateDirect(4 * n).order(ByteOrder.nativeOrder()).asFloatBuffer();
        for (int i = 0; i < n; i++) {
            f.put(i, 1);
        }
        return f;
    }

    /** The best of five averages of {@code iters} calls, in microseconds. */
    private static double best(int iters, Bench.Call call) throws MPIException {
        double best = Double.MAX_VALUE;
        for (int r = 0; r < 5; r++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < iters; i++) {
                call.run();
            }
            best = Math.min(best, (System.nanoTime() - t0) / 1e3 / iters);
        }
        return best;
    }
}
