package org.jmpi.launcher.ranks;

import mpi.MPI;
import mpi.MPIException;

/** A class in the style of Open MPI's examples: not public, with a package-private main (issue 12, item 6). */
class HiddenMain {
    static void main(String[] args) throws MPIException {
        MPI.Init(args);
        System.out.println("hidden main on rank " + MPI.COMM_WORLD.getRank());
        MPI.Finalize();
    }
}
