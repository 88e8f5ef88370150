package org.jmpi.benchmarks;

import mpi.MPI;
import mpi.MPIException;

/**
 * MPI_Gather of bytes to rank 0, 1 B to 1 MiB per rank, back-to-back calls (OSU's osu_gather). Prints
 * {@code bytes_per_rank avg_us max_us iters}. Options: see {@link Bench}.
 */
public final class OsuGather {
    private OsuGather() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Bench b = new Bench(args, 1, 1 << 20);
        Object send = b.bytes(b.max);
        Object recv = b.bytes(b.max * b.size);
        b.header("gather", "bytes_per_rank  avg_us  max_us  iters");
        Bench.SizedCall call = bytes -> MPI.COMM_WORLD.gather(send, bytes, MPI.BYTE, recv, bytes, MPI.BYTE, 0);
        b.warmUntilQuiet(() -> {
            for (int bytes : b.sizes()) {
                Bench.time(0, b.warmupCalls(bytes), call, bytes);
            }
        });
        for (int bytes : b.sizes()) {
            int iters = b.itersFor((long) bytes * b.size);
            double us = b.timeSettled(iters, call, bytes);
            b.report(bytes, us, iters);
        }
        MPI.Finalize();
    }
}
