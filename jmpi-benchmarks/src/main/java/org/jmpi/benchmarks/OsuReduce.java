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
        b.warmUntilQuiet(() -> {
            for (int bytes : b.sizes()) {
                int count = bytes / 4;
                Bench.time(0, b.warmupCalls(bytes), () -> MPI.COMM_WORLD.reduce(send, recv, count, MPI.FLOAT, MPI.SUM, 0));
            }
        });
        for (int bytes : b.sizes()) {
            int count = bytes / 4;
            int iters = b.itersFor(bytes);
            double us = Bench.time(Bench.warmupFor(iters), iters,
                    () -> MPI.COMM_WORLD.reduce(send, recv, count, MPI.FLOAT, MPI.SUM, 0));
            b.report(bytes, us, iters);
        }
        MPI.Finalize();
    }
}
