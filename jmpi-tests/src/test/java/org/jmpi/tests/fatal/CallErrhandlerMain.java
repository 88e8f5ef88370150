package org.jmpi.tests.fatal;

import mpi.MPI;
import mpi.MPIException;

/** Rank 1 calls the default (fatal) error handler of MPI.COMM_WORLD with MPI.ERR_ARG; the others wait. */
public final class CallErrhandlerMain {
    private CallErrhandlerMain() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        if (MPI.COMM_WORLD.getRank() == 1) {
            MPI.COMM_WORLD.callErrhandler(MPI.ERR_ARG);
        } else {
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 12345);
        }
        MPI.Finalize();
    }
}
