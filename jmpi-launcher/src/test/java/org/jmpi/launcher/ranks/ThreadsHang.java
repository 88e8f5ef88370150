package org.jmpi.launcher.ranks;

import mpi.MPI;
import mpi.MPIException;

/** Initialises MPI, prints {@code ready}, then waits in a receive that never matches (for timeouts and signals). */
public final class ThreadsHang {
    private ThreadsHang() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        System.out.println("ready");
        MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 4242);
        MPI.Finalize();
    }
}
