package org.jmpi.benchmarks;

import mpi.MPI;
import mpi.MPIException;

/**
 * Warm-up for the point-to-point benchmarks between ranks 0 and 1, before any timing: enough small messages for the
 * JIT to compile the whole path (on the project's machine the 8-byte ping-pong settles after some 200,000 round
 * trips: C2 compiles the spin loop, the send and the receive path in several steps), then a few large ones so that
 * protocols set up lazily (the shared-memory transport links {@code process_vm_readv} in the background on the
 * first single-copy message) are in place. Without it the first sizes of a sweep measure the interpreter.
 */
final class Warmup {
    private Warmup() {}

    /** Sizes and round trips: small ones for the JIT, then one of each protocol. */
    private static final int[][] STEPS = {{8, 100_000}, {1024, 20_000}, {32 << 10, 2_000}, {256 << 10, 200},
        {1 << 20, 50}};

    /**
     * Ping-pongs between ranks 0 and 1 ({@code s} and {@code r} hold at least 1 MiB, or less when max is less): the
     * steps, a pause of 300 ms (for anything linked in the background to be ready), then the steps again, so that the
     * code of lazily enabled protocols gets compiled too.
     */
    static void pingPong(int rank, Object s, Object r, int max) throws MPIException {
        steps(rank, s, r, max);
        try {
            Thread.sleep(300);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        MPI.COMM_WORLD.barrier();
        steps(rank, s, r, max);
    }

    private static void steps(int rank, Object s, Object r, int max) throws MPIException {
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
