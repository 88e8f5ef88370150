package org.jmpi.benchmarks.mpj;

import mpi.MPI;

/**
 * {@code org.jmpi.benchmarks.cold.OmbLatency} on the MPJ Express API (mpiJava 1.2), line for line: a ping-pong on
 * {@code byte[]} with OMB-J's scheme. Compiled against {@code $MPJ_HOME/lib/mpj.jar} by
 * jmpi-benchmarks/scripts/mpj-facade.sh. Needs 2 ranks.
 */
public final class OmbLatency {
    private OmbLatency() {}

    public static void main(String[] args) {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int max = 4 << 20;
        byte[] s = new byte[max];
        byte[] r = new byte[max];
        pingPong(rank, s, r, 1024, 10_000);
        for (int size = 1; size <= max; size *= 2) {
            boolean small = size <= 8192;
            MPI.COMM_WORLD.Barrier();
            pingPong(rank, s, r, size, small ? 1_000 : 100);
            int iters = small ? 10_000 : 500;
            double t0 = MPI.Wtime();
            pingPong(rank, s, r, size, iters);
            double t = MPI.Wtime() - t0;
            if (rank == 0) {
                System.out.printf("%d %.2f%n", size, t * 1e6 / (2.0 * iters));
            }
        }
        MPI.Finalize();
    }

    private static void pingPong(int rank, byte[] s, byte[] r, int size, int n) {
        for (int i = 0; i < n; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.Send(s, 0, size, MPI.BYTE, 1, 1);
                MPI.COMM_WORLD.Recv(r, 0, size, MPI.BYTE, 1, 1);
            } else if (rank == 1) {
                MPI.COMM_WORLD.Recv(r, 0, size, MPI.BYTE, 0, 1);
                MPI.COMM_WORLD.Send(s, 0, size, MPI.BYTE, 0, 1);
            }
        }
    }
}
