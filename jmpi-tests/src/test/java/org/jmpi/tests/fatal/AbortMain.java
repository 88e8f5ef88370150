package org.jmpi.tests.fatal;

import mpi.MPI;
import mpi.MPIException;

/** Rank 2 calls abort(7) while the others wait in a receive. */
public final class AbortMain {
    private AbortMain() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        if (MPI.COMM_WORLD.getRank() == 2) {
            MPI.COMM_WORLD.abort(7);
        } else {
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 12345);
        }
        MPI.Finalize();
    }
}
