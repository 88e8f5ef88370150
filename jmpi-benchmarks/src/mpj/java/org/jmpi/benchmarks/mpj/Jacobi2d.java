package org.jmpi.benchmarks.mpj;

import java.util.Arrays;
import mpi.MPI;

/**
 * {@code org.jmpi.benchmarks.cold.Jacobi2d} on the MPJ Express API (mpiJava 1.2), line for line: the halo rows by
 * {@code Sendrecv}, the residual by an {@code Allreduce} of one double every iteration. Usage and output as there.
 */
public final class Jacobi2d {
    private Jacobi2d() {}

    public static void main(String[] args) {
        String[] a = MPI.Init(args);
        int n = a.length > 0 ? Integer.parseInt(a[0]) : 1024;
        int iters = a.length > 1 ? Integer.parseInt(a[1]) : 500;
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        if (n < size) {
            throw new IllegalArgumentException("Jacobi2d needs N >= number of ranks");
        }

        int rows = n / size + (rank < n % size ? 1 : 0);
        int up = rank > 0 ? rank - 1 : MPI.PROC_NULL;
        int down = rank < size - 1 ? rank + 1 : MPI.PROC_NULL;
        double[][] u = new double[rows + 2][n + 2];
        double[][] unew = new double[rows + 2][n + 2];

        double[] local = new double[1];
        double[] residual = new double[1];
        MPI.COMM_WORLD.Barrier();
        double t0 = MPI.Wtime();
        for (int it = 0; it < iters; it++) {
            MPI.COMM_WORLD.Sendrecv(u[1], 0, n + 2, MPI.DOUBLE, up, 0, u[rows + 1], 0, n + 2, MPI.DOUBLE, down, 0);
            MPI.COMM_WORLD.Sendrecv(u[rows], 0, n + 2, MPI.DOUBLE, down, 1, u[0], 0, n + 2, MPI.DOUBLE, up, 1);
            if (rank == 0) {
                Arrays.fill(u[0], 1.0);
            }
            if (rank == size - 1) {
                Arrays.fill(u[rows + 1], 0.0);
            }

            local[0] = sweep(u, unew, rows, n);
            MPI.COMM_WORLD.Allreduce(local, 0, residual, 0, 1, MPI.DOUBLE, MPI.SUM);

            double[][] tmp = u;
            u = unew;
            unew = tmp;
        }
        double seconds = MPI.Wtime() - t0;

        if (rank == 0) {
            System.out.printf("RESULT jacobi2d seconds=%.6e check=%.10e%n", seconds, residual[0]);
        }
        MPI.Finalize();
    }

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
