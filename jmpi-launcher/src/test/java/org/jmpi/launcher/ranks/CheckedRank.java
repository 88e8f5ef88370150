package org.jmpi.launcher.ranks;

import mpi.Comm;
import mpi.MPI;

/** Programs with the mistakes {@code jmpirun --check} must catch (argument: root, count, deadlock, leak, fine). */
public final class CheckedRank {
    private CheckedRank() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int[] v = new int[8];
        switch (args[0]) {
            case "root" -> MPI.COMM_WORLD.bcast(v, 1, MPI.INT, rank == 1 ? 1 : 0);
            case "count" -> MPI.COMM_WORLD.bcast(v, rank == 0 ? 2 : 1, MPI.INT, 0);
            case "deadlock" -> MPI.COMM_WORLD.recv(v, 1, MPI.INT, 1 - rank, 3); // both receive first
            case "leak" -> {
                Comm dup = MPI.COMM_WORLD.dup();
                dup.barrier();
                MPI.COMM_WORLD.iRecv(v, 1, MPI.INT, MPI.COMM_WORLD.getRank(), 99); // never matched
            }
            default -> {
                MPI.COMM_WORLD.bcast(v, 4, MPI.INT, 0);
                MPI.COMM_WORLD.allReduce(v, 8, MPI.INT, MPI.SUM);
            }
        }
        System.out.println("rank " + rank + " went on");
        MPI.Finalize();
    }
}
