package org.jmpi.benchmarks;

import java.lang.management.ManagementFactory;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;

/**
 * MPI 4.0's persistent allreduce against the blocking one, cold, as a program would use it: in a fresh pair of JVMs,
 * at 8 B, 64 KiB and 1 MiB in that order, each with its own untimed iterations (1,000 up to 8 KiB, else 100), a
 * barrier, then the timed ones (10,000, else 500): either {@code allReduce} or {@code allReduceInit} once and
 * {@code start} + {@code waitFor} per iteration. The C twin is {@code src/main/c/persistent_allreduce.c}.
 *
 * <p>Usage: {@code jmpirun -n 2 -cp jmpi-benchmarks.jar org.jmpi.benchmarks.PersistentAllreduce MODE KIND} with MODE
 * {@code blocking} or {@code persistent} and KIND {@code array} (double[]) or {@code direct} (direct buffers). Rank 0
 * prints {@code MODE KIND bytes us=<mean per call> alloc/op=<bytes allocated per call by rank 0's thread>}.
 */
public final class PersistentAllreduce {
    private PersistentAllreduce() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        boolean persistent = args[0].equals("persistent");
        boolean direct = args[1].equals("direct");
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        StringBuilder out = new StringBuilder();
        for (int bytes : new int[] {8, 64 << 10, 1 << 20}) {
            int n = bytes / 8;
            int iters = bytes <= 8192 ? 10_000 : 500;
            int warm = bytes <= 8192 ? 1_000 : 100;
            Object s = direct ? MPI.newDoubleBuffer(n) : new double[n];
            Object r = direct ? MPI.newDoubleBuffer(n) : new double[n];
            Prequest p = persistent ? MPI.COMM_WORLD.allReduceInit(s, r, n, MPI.DOUBLE, MPI.SUM) : null;
            long t0 = 0;
            long a0 = 0;
            for (int i = 0; i < warm + iters; i++) {
                if (i == warm) {
                    MPI.COMM_WORLD.barrier();
                    t0 = System.nanoTime();
                    a0 = threads.getCurrentThreadAllocatedBytes();
                }
                if (p != null) {
                    p.start();
                    p.waitFor();
                } else {
                    MPI.COMM_WORLD.allReduce(s, r, n, MPI.DOUBLE, MPI.SUM);
                }
            }
            long t = System.nanoTime() - t0;
            long allocated = threads.getCurrentThreadAllocatedBytes() - a0;
            if (p != null) {
                p.free();
            }
            out.append(String.format("%s %s %d us=%.2f alloc/op=%d%n", args[0], args[1], bytes, t / 1e3 / iters,
                    allocated / iters));
        }
        if (MPI.COMM_WORLD.getRank() == 0) {
            System.out.print(out);
        }
        MPI.Finalize();
    }
}
