package org.jmpi.benchmarks;

import mpi.MPI;
import mpi.MPIException;

/**
 * MPI_Allreduce of floats with MPI_SUM, 4 B to 16 MiB, back-to-back calls: the Java twin of the baseline's
 * {@code mpi_allreduce.c}. Prints {@code bytes avg_us max_us iters} (average and maximum over ranks of the time per
 * call). Options: see {@link Bench}.
 */
public final class OsuAllreduce {
    private OsuAllreduce() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Bench b = new Bench(args, 4, 16 << 20);
        Object send = b.floats(b.max, 1 + b.rank);
        Object recv = b.floats(b.max, 0);
        b.header("allreduce float sum", "bytes  avg_us  max_us  iters");
        Bench.time(0, 20_000, () -> MPI.COMM_WORLD.allReduce(send, recv, 1, MPI.FLOAT, MPI.SUM)); // JIT warm-up
        b.warmUntilQuiet(() -> {
            for (int bytes : b.sizes()) {
                int count = bytes / 4;
                Bench.time(0, b.warmupCalls(bytes), () -> MPI.COMM_WORLD.allReduce(send, recv, count, MPI.FLOAT, MPI.SUM));
            }
        });
        for (int bytes : b.sizes()) {
            int count = bytes / 4;
            int iters = b.itersFor(bytes);
            double us = Bench.time(Bench.warmupFor(iters), iters,
                    () -> MPI.COMM_WORLD.allReduce(send, recv, count, MPI.FLOAT, MPI.SUM));
            b.report(bytes, us, iters);
        }
        MPI.Finalize();
    }
}
