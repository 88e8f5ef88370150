package org.jmpi.benchmarks;

import mpi.MPI;
import mpi.MPIException;

/**
 * MPI_Reduce of floats with MPI_SUM to rank 0, 4 B to 16 MiB, back-to-back calls (OSU's osu_reduce). Prints
 * {@code bytes avg_us max_us iters}. Options: see {@link Bench}.
 */
public final class OsuReduce {
    private OsuReduce() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Bench b = new Bench(args, 4, 16 << 20);
        Object send = b.floats(b.max, 1 + b.rank);
        Object recv = b.floats(b.max, 0);
        b.header("reduce float sum to rank 0", "bytes  avg_us  max_us  iters");
        Bench.SizedCall call = bytes -> MPI.COMM_WORLD.reduce(send, recv, bytes / 4, MPI.FLOAT, MPI.SUM, 0);
        b.warmUntilQuiet(() -> {
            for (int bytes : b.sizes()) {
                Bench.time(0, b.warmupCalls(bytes), call, bytes);
            }
        });
        for (int bytes : b.sizes()) {
            int iters = b.itersFor(bytes);
            double us = b.timeSettled(iters, call, bytes);
            b.report(bytes, us, iters);
        }
        MPI.Finalize();
    }
}
