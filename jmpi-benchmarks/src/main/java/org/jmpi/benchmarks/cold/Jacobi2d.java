package org.jmpi.benchmarks.cold;

import java.util.Arrays;
import mpi.MPI;
import mpi.MPIException;

/**
 * 2-D Jacobi iteration for the Laplace equation on an N&times;N grid of unknowns, as a textbook writes it: the rows
 * are split in blocks across the ranks (the first {@code N % size} ranks get one more), each rank keeps its rows as
 * {@code double[][]} with one ghost row above and one below, and every iteration exchanges the halo rows with
 * {@code sendRecv} (to {@code MPI.PROC_NULL} at the edges), does the 5-point sweep and sums the squared updates
 * with an {@code allReduce} of one double. The boundary is fixed: 1.0 along the top edge, 0.0 elsewhere.
 *
 * <p>Usage: {@code Jacobi2d [N [ITERS]]}, default N = 1024 and ITERS = 500; needs N &ge; number of ranks. Rank 0
 * prints {@code RESULT jacobi2d seconds=<s> check=<residual>}, where check is the residual (sum of squared updates)
 * of the last iteration; the updates are the same at every rank count, only the order of the sum differs. The C twin
 * is {@code src/main/c/cold/jacobi2d.c}.
 */
public final class Jacobi2d {
    private Jacobi2d() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
        int iters = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (n < size) {
            throw new IllegalArgumentException("Jacobi2d needs N >= number of ranks");
        }

        // my block of rows: local rows 1..rows, ghost rows 0 and rows+1; columns 0 and n+1 are the boundary
        int rows = n / size + (rank < n % size ? 1 : 0);
        int up = rank > 0 ? rank - 1 : MPI.PROC_NULL;
        int down = rank < size - 1 ? rank + 1 : MPI.PROC_NULL;
        double[][] u = new double[rows + 2][n + 2];
        double[][] unew = new double[rows + 2][n + 2];

        double[] local = new double[1];
        double[] residual = new double[1];
        MPI.COMM_WORLD.barrier();
        double t0 = MPI.wtime();
        for (int it = 0; it < iters; it++) {
            // halo exchange: my first row goes up, my last row goes down
            MPI.COMM_WORLD.sendRecv(u[1], n + 2, MPI.DOUBLE, up, 0, u[rows + 1], n + 2, MPI.DOUBLE, down, 0);
            MPI.COMM_WORLD.sendRecv(u[rows], n + 2, MPI.DOUBLE, down, 1, u[0], n + 2, MPI.DOUBLE, up, 1);
            // the fixed boundary lives in the edge ranks' ghost rows: set it again, because Open MPI's Java
            // bindings (4.1) overwrite a receive array even when the source is MPI.PROC_NULL
            if (rank == 0) {
                Arrays.fill(u[0], 1.0);
            }
            if (rank == size - 1) {
                Arrays.fill(u[rows + 1], 0.0);
            }

            local[0] = sweep(u, unew, rows, n);
            MPI.COMM_WORLD.allReduce(local, residual, 1, MPI.DOUBLE, MPI.SUM);

            double[][] tmp = u;
            u = unew;
            unew = tmp;
        }
        double seconds = MPI.wtime() - t0;

        if (rank == 0) {
            System.out.printf("RESULT jacobi2d seconds=%.6e check=%.10e%n", seconds, residual[0]);
        }
        MPI.Finalize();
    }

    /** One Jacobi sweep over my rows; returns the sum of the squared updates. */
    static double sweep(double[][] u, double[][] unew, int rows, int n) {
        double diff = 0.0;
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= n; j++) {
                unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
                double d = unew[i][j] - u[i][j];
                diff += d * d;
            }
        }
        return diff;
    }
}
