package org.jmpi.benchmarks.cold;

import java.nio.DoubleBuffer;
import java.util.Arrays;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * 2-D Jacobi iteration as {@link Jacobi2d}, written the way a program overlaps its halo exchange with computation:
 * every iteration posts {@code iRecv} for both ghost rows and {@code iSend} of both edge rows (copied into and out of
 * direct buffers, as Open MPI's Java bindings require for non-blocking calls; {@code MPI.PROC_NULL} at the edges),
 * sweeps the rows that need no ghost row, waits for all four requests with {@code Request.waitAll}, then sweeps the
 * two edge rows. The residual (sum of squared updates) is summed with an {@code allReduce} of one double every tenth
 * iteration and at the last. Fixed boundary: 1.0 along the top edge, 0.0 elsewhere.
 *
 * <p>Usage: {@code JacobiOverlap [N [ITERS]]}, default N = 1024 and ITERS = 500; needs N &ge; number of ranks. Rank 0
 * prints {@code RESULT jacobi-overlap seconds=<s> check=<residual>}, the residual of the last iteration. The C twin is
 * {@code src/main/c/cold/jacobi_overlap.c}.
 */
public final class JacobiOverlap {
    private JacobiOverlap() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
        int iters = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (n < size) {
            throw new IllegalArgumentException("JacobiOverlap needs N >= number of ranks");
        }

        // my block of rows: local rows 1..rows, ghost rows 0 and rows+1; columns 0 and n+1 are the boundary
        int rows = n / size + (rank < n % size ? 1 : 0);
        int up = rank > 0 ? rank - 1 : MPI.PROC_NULL;
        int down = rank < size - 1 ? rank + 1 : MPI.PROC_NULL;
        double[][] u = new double[rows + 2][n + 2];
        double[][] unew = new double[rows + 2][n + 2];
        if (rank == 0) {
            Arrays.fill(u[0], 1.0);
            Arrays.fill(unew[0], 1.0);
        }
        DoubleBuffer sendUp = MPI.newDoubleBuffer(n + 2);
        DoubleBuffer sendDown = MPI.newDoubleBuffer(n + 2);
        DoubleBuffer recvUp = MPI.newDoubleBuffer(n + 2);
        DoubleBuffer recvDown = MPI.newDoubleBuffer(n + 2);
        Request[] requests = new Request[4];

        double[] local = new double[1];
        double[] residual = new double[1];
        MPI.COMM_WORLD.barrier();
        double t0 = MPI.wtime();
        for (int it = 0; it < iters; it++) {
            requests[0] = MPI.COMM_WORLD.iRecv(recvUp, n + 2, MPI.DOUBLE, up, 1);
            requests[1] = MPI.COMM_WORLD.iRecv(recvDown, n + 2, MPI.DOUBLE, down, 0);
            sendUp.put(0, u[1]);
            sendDown.put(0, u[rows]);
            requests[2] = MPI.COMM_WORLD.iSend(sendUp, n + 2, MPI.DOUBLE, up, 0);
            requests[3] = MPI.COMM_WORLD.iSend(sendDown, n + 2, MPI.DOUBLE, down, 1);

            double diff = sweep(u, unew, 2, rows - 1, n); // the rows that need no ghost row
            Request.waitAll(requests);
            if (up != MPI.PROC_NULL) {
                recvUp.get(0, u[0]);
            }
            if (down != MPI.PROC_NULL) {
                recvDown.get(0, u[rows + 1]);
            }
            diff += sweep(u, unew, 1, 1, n);
            if (rows > 1) {
                diff += sweep(u, unew, rows, rows, n);
            }

            if (it % 10 == 9 || it == iters - 1) {
                local[0] = diff;
                MPI.COMM_WORLD.allReduce(local, residual, 1, MPI.DOUBLE, MPI.SUM);
            }
            double[][] tmp = u;
            u = unew;
            unew = tmp;
        }
        double seconds = MPI.wtime() - t0;

        if (rank == 0) {
            System.out.printf("RESULT jacobi-overlap seconds=%.6e check=%.10e%n", seconds, residual[0]);
        }
        MPI.Finalize();
    }

    /** The Jacobi update of rows {@code from..to} (none when {@code to < from}); returns the sum of squared updates. */
    static double sweep(double[][] u, double[][] unew, int from, int to, int n) {
        double diff = 0.0;
        for (int i = from; i <= to; i++) {
            for (int j = 1; j <= n; j++) {
                unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
                double d = unew[i][j] - u[i][j];
                diff += d * d;
            }
        }
        return diff;
    }
}
