package org.jmpi.launcher.ranks;

import mpi.MPI;
import mpi.Request;

/**
 * Makes a known set of MPI calls, for the profiling interface's tests: per rank r of n, Init, getRank, getSize, three
 * barriers, r+1 sends to the next rank and as many receives from the previous one (on the receiving side, counts
 * agreed by an allReduce), one sendRecv (which makes no nested call of its own visible), one iSend with waitFor,
 * one bcast, Finalize.
 */
public final class ProfiledRank {
    private ProfiledRank() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        for (int i = 0; i < 3; i++) {
            MPI.COMM_WORLD.barrier();
        }
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        int[] counts = new int[size];
        counts[rank] = rank + 1;
        MPI.COMM_WORLD.allReduce(counts, size, MPI.INT, MPI.SUM);
        int[] v = new int[1];
        for (int i = 0; i < rank + 1; i++) {
            MPI.COMM_WORLD.send(v, 1, MPI.INT, next, 7);
        }
        for (int i = 0; i < counts[prev]; i++) {
            MPI.COMM_WORLD.recv(v, 1, MPI.INT, prev, 7);
        }
        MPI.COMM_WORLD.sendRecv(v, 1, MPI.INT, next, 8, new int[1], 1, MPI.INT, prev, 8);
        Request r = MPI.COMM_WORLD.iSend(v, 1, MPI.INT, next, 9);
        MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, prev, 9);
        r.waitFor();
        MPI.COMM_WORLD.bcast(v, 1, MPI.INT, 0);
        MPI.Finalize();
    }
}
