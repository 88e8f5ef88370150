package org.jmpi.launcher.ranks;

import mpi.MPI;

/**
 * Calls that take far longer than the 20 us default threshold of the point-to-point and collective JFR events: an
 * 8 MiB send from rank 0 to rank 1 and its receive, an 8 MiB broadcast and an all-reduce of 1 Mi doubles.
 */
public final class JfrSlowCallsRank {
    private JfrSlowCallsRank() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        byte[] big = new byte[8 << 20];
        if (rank == 0) {
            MPI.COMM_WORLD.send(big, big.length, MPI.BYTE, 1, 7);
        } else if (rank == 1) {
            MPI.COMM_WORLD.recv(big, big.length, MPI.BYTE, 0, 7);
        }
        MPI.COMM_WORLD.bcast(big, big.length, MPI.BYTE, 0);
        double[] in = new double[1 << 20];
        double[] out = new double[1 << 20];
        MPI.COMM_WORLD.allReduce(in, out, in.length, MPI.DOUBLE, MPI.SUM);
        MPI.Finalize();
    }
}
