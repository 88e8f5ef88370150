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
        Bench.SizedCall call = bytes -> MPI.COMM_WORLD.allReduce(send, recv, bytes / 4, MPI.FLOAT, MPI.SUM);
        Bench.time(0, 20_000, call, 4); // JIT warm-up
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
