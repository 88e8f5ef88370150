package org.jmpi.benchmarks.cold;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

/**
 * The 2-D Jacobi iteration of {@link Jacobi2d} with the grid split by columns instead of rows, as a textbook shows
 * derived datatypes: each rank keeps all N rows of its block of columns in one row-major {@code double[]} with a
 * ghost column on either side, and every iteration exchanges the halo columns with {@code sendRecv} of a vector type
 * (N doubles, one per row, a row's length apart), each column addressed with {@code MPI.slice(u, offset)}; then the
 * 5-point sweep and an {@code allReduce} of one double. The boundary is fixed: 1.0 along the top edge, 0.0 elsewhere.
 *
 * <p>Usage: {@code JacobiColumns [N [ITERS]]}, default N = 256 and ITERS = 5000; needs N &ge; number of ranks. Rank 0
 * prints {@code RESULT jacobi-columns seconds=<s> check=<residual>}, the sum of squared updates of the last
 * iteration (the same as Jacobi2d's up to the order of the sum). The C twin is {@code
 * src/main/c/cold/jacobi_columns.c}.
 */
public final class JacobiColumns {
    private JacobiColumns() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int iters = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (n < size) {
            throw new IllegalArgumentException("JacobiColumns needs N >= number of ranks");
        }

        // my block of columns: local columns 1..cols, ghost columns 0 and cols+1; rows 0 and n+1 are the boundary
        int cols = n / size + (rank < n % size ? 1 : 0);
        int w = cols + 2;
        int left = rank > 0 ? rank - 1 : MPI.PROC_NULL;
        int right = rank < size - 1 ? rank + 1 : MPI.PROC_NULL;
        double[] u = new double[(n + 2) * w];
        double[] unew = new double[(n + 2) * w];
        for (int j = 0; j < w; j++) {
            u[j] = 1.0;
            unew[j] = 1.0;
        }
        Datatype column = Datatype.createVector(n, 1, w, MPI.DOUBLE); // rows 1..n of one column
        column.commit();

        double[] local = new double[1];
        double[] residual = new double[1];
        MPI.COMM_WORLD.barrier();
        double t0 = MPI.wtime();
        for (int it = 0; it < iters; it++) {
            // halo exchange: my first column goes left, my last column goes right
            MPI.COMM_WORLD.sendRecv(MPI.slice(u, w + 1), 1, column, left, 0, MPI.slice(u, w + cols + 1), 1, column,
                    right, 0);
            MPI.COMM_WORLD.sendRecv(MPI.slice(u, w + cols), 1, column, right, 1, MPI.slice(u, w), 1, column, left,
                    1);
            // the edge ranks' ghost columns hold the fixed boundary: set it again, as Jacobi2d does for its rows
            if (rank == 0) {
                for (int i = 1; i <= n; i++) {
                    u[i * w] = 0.0;
                }
            }
            if (rank == size - 1) {
                for (int i = 1; i <= n; i++) {
                    u[i * w + cols + 1] = 0.0;
                }
            }

            local[0] = sweep(u, unew, n, cols);
            MPI.COMM_WORLD.allReduce(local, residual, 1, MPI.DOUBLE, MPI.SUM);

            double[] tmp = u;
            u = unew;
            unew = tmp;
        }
        double seconds = MPI.wtime() - t0;

        if (rank == 0) {
            System.out.printf("RESULT jacobi-columns seconds=%.6e check=%.10e%n", seconds, residual[0]);
        }
        column.free();
        MPI.Finalize();
    }

    static double sweep(double[] u, double[] unew, int n, int cols) {
        int w = cols + 2;
        double diff = 0.0;
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= cols; j++) {
                int c = i * w + j;
                unew[c] = 0.25 * (u[c - w] + u[c + w] + u[c - 1] + u[c + 1]);
                double d = unew[c] - u[c];
                diff += d * d;
            }
        }
        return diff;
    }
}
