/* C twin of org.jmpi.benchmarks.cold.Jacobi2d: 2-D Jacobi for the Laplace equation on an N x N grid of unknowns,
 * rows split in blocks across the ranks (the first N % size ranks get one more), each rank holding its rows (one
 * array per row) plus a ghost row above and below; halo rows exchanged with MPI_Sendrecv every iteration
 * (MPI_PROC_NULL at the edges), the 5-point sweep, and the residual (sum of squared updates) by MPI_Allreduce of one
 * double. Fixed boundary: 1.0 along the top edge, 0.0 elsewhere.
 * Usage: jacobi2d [N [ITERS]], default 1024 and 500. Rank 0 prints
 * "RESULT jacobi2d seconds=<s> check=<residual of the last iteration>". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double **alloc_rows(int rows, int cols) {
    double **a = malloc(rows * sizeof(double *));
    for (int i = 0; i < rows; i++) a[i] = calloc(cols, sizeof(double));
    return a;
}

static void free_rows(double **a, int rows) {
    for (int i = 0; i < rows; i++) free(a[i]);
    free(a);
}

/* One Jacobi sweep over my rows; returns the sum of the squared updates. */
static double sweep(double **u, double **unew, int rows, int n) {
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

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    int iters = argc > 2 ? atoi(argv[2]) : 500;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (n < size) {
        if (rank == 0) fprintf(stderr, "jacobi2d needs N >= number of ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    /* my block of rows: local rows 1..rows, ghost rows 0 and rows+1; columns 0 and n+1 are the boundary */
    int rows = n / size + (rank < n % size ? 1 : 0);
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    double **u = alloc_rows(rows + 2, n + 2);
    double **unew = alloc_rows(rows + 2, n + 2);

    double local, residual = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int it = 0; it < iters; it++) {
        /* halo exchange: my first row goes up, my last row goes down */
        MPI_Sendrecv(u[1], n + 2, MPI_DOUBLE, up, 0, u[rows + 1], n + 2, MPI_DOUBLE, down, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(u[rows], n + 2, MPI_DOUBLE, down, 1, u[0], n + 2, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        /* the fixed boundary lives in the edge ranks' ghost rows: set it again (as the Java twin must, because
         * Open MPI's Java bindings overwrite a receive array even when the source is MPI_PROC_NULL) */
        if (rank == 0) {
            for (int j = 0; j < n + 2; j++) u[0][j] = 1.0;
        }
        if (rank == size - 1) {
            for (int j = 0; j < n + 2; j++) u[rows + 1][j] = 0.0;
        }

        local = sweep(u, unew, rows, n);
        MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

        double **tmp = u;
        u = unew;
        unew = tmp;
    }
    double seconds = MPI_Wtime() - t0;

    if (rank == 0) printf("RESULT jacobi2d seconds=%.6e check=%.10e\n", seconds, residual);
    free_rows(u, rows + 2);
    free_rows(unew, rows + 2);
    MPI_Finalize();
    return 0;
}
