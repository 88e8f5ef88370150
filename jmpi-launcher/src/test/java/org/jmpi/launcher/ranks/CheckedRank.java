package org.jmpi.launcher.ranks;

import mpi.Comm;
import mpi.MPI;

/** Programs with the mistakes {@code jmpirun --check} must catch (argument: root, count, deadlock, ring, leak,
 * fine), and programs it must let run (slow, threaded: waits in MPI that another rank or thread ends late). */
public final class CheckedRank {
    private CheckedRank() {}

    public static void main(String[] args) throws Exception {
        if (args[0].equals("threaded")) {
            MPI.InitThread(args, MPI.THREAD_MULTIPLE);
        } else {
            MPI.Init(args);
        }
        int rank = MPI.COMM_WORLD.getRank();
        int[] v = new int[8];
        switch (args[0]) {
            case "root" -> MPI.COMM_WORLD.bcast(v, 1, MPI.INT, rank == 1 ? 1 : 0);
            case "count" -> MPI.COMM_WORLD.bcast(v, rank == 0 ? 2 : 1, MPI.INT, 0);
            case "deadlock" -> MPI.COMM_WORLD.recv(v, 1, MPI.INT, 1 - rank, 3); // both receive first
            case "ring" -> { // every rank receives from the next first: a cycle of waits on any number of ranks
                MPI.COMM_WORLD.recv(v, 1, MPI.INT, (rank + 1) % MPI.COMM_WORLD.getSize(), 3);
                MPI.COMM_WORLD.send(v, 1, MPI.INT, (rank + MPI.COMM_WORLD.getSize() - 1) % MPI.COMM_WORLD.getSize(),
                        3);
            }
            case "slow" -> { // rank 1 waits in MPI for 3 s while rank 0 computes: no deadlock
                if (rank == 0) {
                    Thread.sleep(3000); // the computation
                    MPI.COMM_WORLD.send(v, 1, MPI.INT, 1, 3);
                } else if (rank == 1) {
                    MPI.COMM_WORLD.recv(v, 1, MPI.INT, 0, 3);
                }
            }
            case "threaded" -> { // every rank's one MPI call waits while another thread of rank 0 computes, then sends
                if (rank == 0) {
                    Thread worker = new Thread(() -> {
                        try {
                            Thread.sleep(3000); // the computation
                            MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 1, 3);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    worker.start();
                    MPI.COMM_WORLD.recv(v, 1, MPI.INT, 1, 4);
                    worker.join();
                } else if (rank == 1) {
                    MPI.COMM_WORLD.recv(v, 1, MPI.INT, 0, 3);
                    MPI.COMM_WORLD.send(v, 1, MPI.INT, 0, 4);
                }
            }
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
