package org.jmpi.launcher.ranks;

import mpi.MPI;
import mpi.MPIException;

/**
 * Every rank prints {@code lines} numbered lines on standard output, then all meet in a barrier, and the last rank
 * prints a line on standard error and aborts with code 3 while the others wait in a receive.
 */
public final class AbortAfterOutput {
    private AbortAfterOutput() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int lines = Integer.parseInt(args[0]);
        for (int i = 0; i < lines; i++) {
            System.out.println("rank " + rank + " line " + i + " ......................................");
        }
        MPI.COMM_WORLD.barrier();
        if (rank == size - 1) {
            System.err.println("rank " + rank + " aborts");
            MPI.COMM_WORLD.abort(3);
        }
        MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 4243);
        MPI.Finalize();
    }
}
