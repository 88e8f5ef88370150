import mpi.*;

/*
 * Two groups (even and odd ranks) joined by an intercommunicator: each side's leader swaps a value with the
 * other side, a broadcast goes from one group to the other, then the groups merge again.
 */
class Intercomms {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        if (size < 2) {
            Corpus.passed("Intercomms"); // one rank: nothing to join
            MPI.Finalize();
            return;
        }
        int colour = rank % 2;
        Intracomm local = world.split(colour, rank);
        Intercomm inter = world.createIntercomm(local, 0, 1 - colour, 99);
        int remoteSize = inter.getRemoteSize();
        int expectedRemote = colour == 0 ? size / 2 : (size + 1) / 2;
        Corpus.check(remoteSize == expectedRemote, "remote size " + remoteSize);

        int[] value = {colour == 0 ? 1000 : 2000};
        if (local.getRank() == 0) {
            inter.sendRecvReplace(value, 1, MPI.INT, 0, 5, 0, 5);
            Corpus.check(value[0] == (colour == 0 ? 2000 : 1000), "leaders swapped");
        }

        int[] token = {colour == 0 ? 77 : 0};
        if (colour == 0) {
            inter.bcast(token, 1, MPI.INT, local.getRank() == 0 ? MPI.ROOT : MPI.PROC_NULL);
        } else {
            inter.bcast(token, 1, MPI.INT, 0);
            Corpus.check(token[0] == 77, "broadcast across the intercommunicator");
        }

        Intracomm merged = inter.merge(colour == 1);
        Corpus.check(merged.getSize() == size, "merged size");
        int[] sum = new int[1];
        merged.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
        Corpus.check(sum[0] == size, "sum over the merged communicator");
        merged.free();
        inter.free();
        local.free();
        Corpus.passed("Intercomms");
        MPI.Finalize();
    }
}
