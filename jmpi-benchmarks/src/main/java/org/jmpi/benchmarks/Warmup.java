package org.jmpi.benchmarks;

import mpi.MPI;
import mpi.MPIException;

/**
 * Warm-up for the point-to-point benchmarks between ranks 0 and 1, before any timing: enough small messages for the
 * JIT to compile the whole path (C2 wants some ten thousand calls of a method), then a few large ones so that
 * protocols set up lazily (the shared-memory transport links {@code process_vm_readv} in the background on the
 * first single-copy message) are in place. Without it the first sizes of a sweep measure the interpreter.
 */
final class Warmup {
    private Warmup() {}

    /** Sizes and round trips: small ones for the JIT, then one of each protocol. */
    private static final int[][] STEPS = {{8, 20_000}, {1024, 5_000}, {32 << 10, 500}, {256 << 10, 100},
        {1 << 20, 30}};

    /** Ping-pongs between ranks 0 and 1 ({@code s} and {@code r} hold at least 1 MiB, or less when max is less). */
    static void pingPong(int rank, Object s, Object r, int max) throws MPIException {
        int peer = 1 - rank;
        for (int[] step : STEPS) {
            int bytes = Math.min(step[0], max);
            for (int i = 0; i < step[1]; i++) {
                if (rank == 0) {
                    MPI.COMM_WORLD.send(s, bytes, MPI.BYTE, peer, 7);
                    MPI.COMM_WORLD.recv(r, bytes, MPI.BYTE, peer, 7);
                } else if (rank == 1) {
                    MPI.COMM_WORLD.recv(r, bytes, MPI.BYTE, peer, 7);
                    MPI.COMM_WORLD.send(s, bytes, MPI.BYTE, peer, 7);
                }
            }
        }
        MPI.COMM_WORLD.barrier();
    }
}
