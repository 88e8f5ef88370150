package org.jmpi.launcher.ranks;

import mpi.MPI;
import mpi.MPIException;

/**
 * Rank 1 ends early, after MPI_Init, the others wait for it in a barrier. {@code return}: its main returns without
 * MPI.Finalize; {@code exit3}: it calls {@code System.exit(3)}.
 */
public final class EarlyEnd {
    private EarlyEnd() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        if (MPI.COMM_WORLD.getRank() == 1) {
            if (args[0].equals("exit3")) {
                System.exit(3);
            }
            return;
        }
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }
}
