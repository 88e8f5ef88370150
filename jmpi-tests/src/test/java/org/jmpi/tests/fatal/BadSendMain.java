package org.jmpi.tests.fatal;

import mpi.MPI;
import mpi.MPIException;

/**
 * A program with a bug under the default error handler: rank 1 sends to rank 99. Ranks other than 1 wait in a
 * receive that never completes, so only the fatal error can end the job.
 */
public final class BadSendMain {
    private BadSendMain() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        if (MPI.COMM_WORLD.getRank() == 1) {
            MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 99, 0);
        } else {
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 12345);
        }
        MPI.Finalize();
    }
}
