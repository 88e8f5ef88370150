package org.jmpi.benchmarks.cold;

import mpi.MPI;
import mpi.MPIException;

/**
 * A ping-pong on {@code byte[]} with OMB-J's scheme (its {@code OSULatency -a arrays}): 10,000 round trips of 1 KiB
 * first, then for each size from 1 B to 4 MiB, doubling, 1,000 untimed and 10,000 timed round trips up to 8 KiB and
 * 100 and 500 above, a barrier before each size. Rank 0 prints {@code size one_way_us} per size. Written beside its
 * twin on the MPJ Express API ({@code src/mpj/java/org/jmpi/benchmarks/mpj/OmbLatency.java}), line for line, to
 * measure what the API facade costs (jmpi-benchmarks/scripts/mpj-facade.sh). Needs 2 ranks.
 */
public final class OmbLatency {
    private OmbLatency() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int max = 4 << 20;
        byte[] s = new byte[max];
        byte[] r = new byte[max];
        pingPong(rank, s, r, 1024, 10_000);
        for (int size = 1; size <= max; size *= 2) {
            boolean small = size <= 8192;
            MPI.COMM_WORLD.barrier();
            pingPong(rank, s, r, size, small ? 1_000 : 100);
            int iters = small ? 10_000 : 500;
            double t0 = MPI.wtime();
            pingPong(rank, s, r, size, iters);
            double t = MPI.wtime() - t0;
            if (rank == 0) {
                System.out.printf("%d %.2f%n", size, t * 1e6 / (2.0 * iters));
            }
        }
        MPI.Finalize();
    }

    private static void pingPong(int rank, byte[] s, byte[] r, int size, int n) throws MPIException {
        for (int i = 0; i < n; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.send(s, size, MPI.BYTE, 1, 1);
                MPI.COMM_WORLD.recv(r, size, MPI.BYTE, 1, 1);
            } else if (rank == 1) {
                MPI.COMM_WORLD.recv(r, size, MPI.BYTE, 0, 1);
                MPI.COMM_WORLD.send(s, size, MPI.BYTE, 0, 1);
            }
        }
    }
}
