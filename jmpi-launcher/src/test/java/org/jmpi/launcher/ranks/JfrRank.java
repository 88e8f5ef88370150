package org.jmpi.launcher.ranks;

import mpi.File;
import mpi.MPI;
import mpi.Win;

/**
 * One call of each JFR event family on 2 ranks: send/recv, bcast/allReduce/barrier, fence/lock, writeAt/readAt; and
 * one message rank 1 never receives (for the unexpected-queue counter).
 */
public final class JfrRank {
    private JfrRank() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int peer = 1 - rank;
        int[] v = new int[5];
        if (rank == 0) {
            MPI.COMM_WORLD.send(v, 5, MPI.INT, peer, 42);
        } else {
            MPI.COMM_WORLD.recv(v, 5, MPI.INT, peer, 42);
        }
        MPI.COMM_WORLD.bcast(v, 3, MPI.INT, 0);
        MPI.COMM_WORLD.allReduce(new double[8], new double[8], 8, MPI.DOUBLE, MPI.SUM);
        if (rank == 0) {
            MPI.COMM_WORLD.send(v, 1, MPI.INT, peer, 99); // never received: stays in rank 1's unexpected queue
        }
        MPI.COMM_WORLD.barrier();
        Win win = new Win(MPI.newByteBuffer(64), 64, 1, MPI.INFO_NULL, MPI.COMM_WORLD);
        win.fence(0);
        win.fence(0);
        win.lock(MPI.LOCK_SHARED, peer, 0);
        win.unlock(peer);
        win.free();
        File f = new File(MPI.COMM_WORLD, args[0], MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.writeAt(rank * 16L, new byte[16], 16, MPI.BYTE);
        f.readAt(rank * 16L, new byte[16], 16, MPI.BYTE);
        f.close();
        MPI.Finalize();
    }
}
