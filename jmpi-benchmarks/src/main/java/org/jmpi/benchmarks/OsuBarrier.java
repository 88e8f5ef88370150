package org.jmpi.benchmarks;

import mpi.MPI;
import mpi.MPIException;

/**
 * MPI_Barrier, back-to-back calls (OSU's osu_barrier). Prints {@code 0 avg_us max_us iters} for each of five rounds.
 * Options: {@code --iters N} (default 10000).
 */
public final class OsuBarrier {
    private OsuBarrier() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Bench b = new Bench(args, 0, 0);
        b.header("barrier", "0  avg_us  max_us  iters (five rounds)");
        Bench.SizedCall call = bytes -> MPI.COMM_WORLD.barrier();
        b.warmUntilQuiet(() -> Bench.time(0, b.warmupCalls(0), call, 0));
        for (int round = 0; round < 5; round++) {
            double us = b.timeSettled(b.iters, call, 0);
            b.report(0, us, b.iters);
        }
        MPI.Finalize();
    }
}
