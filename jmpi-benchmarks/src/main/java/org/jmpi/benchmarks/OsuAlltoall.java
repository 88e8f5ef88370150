package org.jmpi.benchmarks;

import mpi.MPI;
import mpi.MPIException;

/**
 * MPI_Alltoall of bytes, 1 B to 1 MiB per rank pair, back-to-back calls (OSU's osu_alltoall). Prints
 * {@code bytes_per_pair avg_us max_us iters}. Options: see {@link Bench}.
 */
public final class OsuAlltoall {
    private OsuAlltoall() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Bench b = new Bench(args, 1, 1 << 20);
        Object send = b.bytes(b.max * b.size);
        Object recv = b.bytes(b.max * b.size);
        b.header("alltoall", "bytes_per_pair  avg_us  max_us  iters");
        Bench.SizedCall call = bytes -> MPI.COMM_WORLD.allToAll(send, bytes, MPI.BYTE, recv, bytes, MPI.BYTE);
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
