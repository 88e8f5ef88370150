import mpi.*;

/* What every program of the corpus does at its end: all ranks agree, then rank 0 says PASSED. */
class Corpus {
    static void passed(String name) throws MPIException {
        int[] one = {1};
        int[] all = new int[1];
        MPI.COMM_WORLD.allReduce(one, all, 1, MPI.INT, MPI.SUM);
        if (all[0] != MPI.COMM_WORLD.getSize()) {
            throw new AssertionError("only " + all[0] + " ranks finished");
        }
        if (MPI.COMM_WORLD.getRank() == 0) {
            System.out.println(name + " PASSED");
        }
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("rank check failed: " + what);
        }
    }
}
