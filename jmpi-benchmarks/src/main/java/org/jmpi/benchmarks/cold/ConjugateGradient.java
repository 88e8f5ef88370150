package org.jmpi.benchmarks.cold;

import java.util.Arrays;
import mpi.MPI;
import mpi.MPIException;

/**
 * Conjugate gradients for the 2-D Poisson problem {@code A x = b}, A the 5-point Laplacian (4 on the diagonal, -1 to
 * the four neighbours, zero Dirichlet boundary) on an N&times;N grid of unknowns, b all ones, x starting at zero, a
 * fixed number of iterations. The grid rows are split in blocks across the ranks (the first {@code N % size} ranks get
 * one more); every vector is a {@code double[][]} of my rows plus a ghost row above and below and a zero column on
 * each side. The matrix-vector product first exchanges one grid row of p up and down with {@code sendRecv}
 * ({@code MPI.PROC_NULL} at the edges); the two dot products of each iteration are {@code allReduce}s of one double.
 *
 * <p>Usage: {@code ConjugateGradient [N [ITERS]]}, default N = 512 and ITERS = 200; needs N &ge; number of ranks.
 * Rank 0 prints {@code RESULT conjugate-gradient seconds=<s> check=<|r|>}, where check is the norm of the (recursively
 * updated) residual after the last iteration; it agrees across rank counts up to rounding in the dot products. The C
 * twin is {@code src/main/c/cold/conjugate_gradient.c}.
 */
public final class ConjugateGradient {
    private ConjugateGradient() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 512;
        int iters = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (n < size) {
            throw new IllegalArgumentException("ConjugateGradient needs N >= number of ranks");
        }

        int rows = n / size + (rank < n % size ? 1 : 0);
        int up = rank > 0 ? rank - 1 : MPI.PROC_NULL;
        int down = rank < size - 1 ? rank + 1 : MPI.PROC_NULL;
        double[][] x = new double[rows + 2][n + 2];
        double[][] r = new double[rows + 2][n + 2];
        double[][] p = new double[rows + 2][n + 2];
        double[][] q = new double[rows + 2][n + 2];
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= n; j++) {
                r[i][j] = 1.0; // r = b - A*0 = b
                p[i][j] = 1.0;
            }
        }

        MPI.COMM_WORLD.barrier();
        double t0 = MPI.wtime();
        double rr = dot(r, r, rows, n);
        for (int it = 0; it < iters && rr > 0.0; it++) {
            // neighbour rows of p, then q = A p
            MPI.COMM_WORLD.sendRecv(p[1], n + 2, MPI.DOUBLE, up, 0, p[rows + 1], n + 2, MPI.DOUBLE, down, 0);
            MPI.COMM_WORLD.sendRecv(p[rows], n + 2, MPI.DOUBLE, down, 1, p[0], n + 2, MPI.DOUBLE, up, 1);
            // the zero boundary lives in the edge ranks' ghost rows: set it again, because Open MPI's Java
            // bindings (4.1) overwrite a receive array even when the source is MPI.PROC_NULL
            if (rank == 0) {
                Arrays.fill(p[0], 0.0);
            }
            if (rank == size - 1) {
                Arrays.fill(p[rows + 1], 0.0);
            }
            laplacian(p, q, rows, n);

            double alpha = rr / dot(p, q, rows, n);
            for (int i = 1; i <= rows; i++) {
                for (int j = 1; j <= n; j++) {
                    x[i][j] += alpha * p[i][j];
                    r[i][j] -= alpha * q[i][j];
                }
            }
            double rrNew = dot(r, r, rows, n);
            double beta = rrNew / rr;
            for (int i = 1; i <= rows; i++) {
                for (int j = 1; j <= n; j++) {
                    p[i][j] = r[i][j] + beta * p[i][j];
                }
            }
            rr = rrNew;
        }
        double seconds = MPI.wtime() - t0;

        if (rank == 0) {
            System.out.printf("RESULT conjugate-gradient seconds=%.6e check=%.10e%n", seconds, Math.sqrt(rr));
        }
        MPI.Finalize();
    }

    /** q = A p on my rows (p's ghost rows and boundary columns hold the neighbours' values or zero). */
    static void laplacian(double[][] p, double[][] q, int rows, int n) {
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= n; j++) {
                q[i][j] = 4.0 * p[i][j] - p[i - 1][j] - p[i + 1][j] - p[i][j - 1] - p[i][j + 1];
            }
        }
    }

    /** Global dot product: the sum over my rows, then an allReduce of one double. */
    static double dot(double[][] a, double[][] b, int rows, int n) throws MPIException {
        double[] local = new double[1];
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= n; j++) {
                local[0] += a[i][j] * b[i][j];
            }
        }
        double[] global = new double[1];
        MPI.COMM_WORLD.allReduce(local, global, 1, MPI.DOUBLE, MPI.SUM);
        return global[0];
    }
}
