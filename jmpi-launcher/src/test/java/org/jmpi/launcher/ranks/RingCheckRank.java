package org.jmpi.launcher.ranks;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * For the bad-link tests: every rank sends its right neighbour a message at each of several sizes (eager, around TCP's
 * eager limit, rendezvous; byte arrays with {@code sendRecv} and direct buffers with {@code iSend}/{@code iRecv}),
 * then a burst of 200 small messages of one tag, then an {@code allReduce}; every value is checked. Rank 0 prints
 * {@code ring-check errors=<n>}, the wrong values all ranks saw together.
 */
public final class RingCheckRank {
    private static final int[] SIZES = {1, 4096, 65_539, 524_288, 524_289, 3 << 20};

    private RingCheckRank() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        long errors = 0;
        for (int n : SIZES) {
            byte[] out = new byte[n];
            byte[] in = new byte[n];
            for (int i = 0; i < n; i++) {
                out[i] = (byte) (rank * 31 + n + i * 13);
            }
            MPI.COMM_WORLD.sendRecv(out, n, MPI.BYTE, right, 1, in, n, MPI.BYTE, left, 1);
            ByteBuffer dOut = ByteBuffer.allocateDirect(n).put(0, out);
            ByteBuffer dIn = ByteBuffer.allocateDirect(n);
            Request rq = MPI.COMM_WORLD.iRecv(dIn, n, MPI.BYTE, right, 2);
            MPI.COMM_WORLD.iSend(dOut, n, MPI.BYTE, left, 2).waitFor();
            rq.waitFor();
            for (int i = 0; i < n; i++) {
                errors += in[i] == (byte) (left * 31 + n + i * 13) ? 0 : 1;
                errors += dIn.get(i) == (byte) (right * 31 + n + i * 13) ? 0 : 1;
            }
        }
        int[] seq = new int[1];
        for (int i = 0; i < 200; i++) {
            MPI.COMM_WORLD.sendRecv(new int[] {i}, 1, MPI.INT, right, 3, seq, 1, MPI.INT, left, 3);
            errors += seq[0] == i ? 0 : 1;
        }
        long[] total = new long[1];
        MPI.COMM_WORLD.allReduce(new long[] {errors}, total, 1, MPI.LONG, MPI.SUM);
        if (rank == 0) {
            System.out.println("ring-check errors=" + total[0]);
        }
        MPI.Finalize();
    }
}
