/* C twin of org.jmpi.benchmarks.cold.JacobiColumns: the 2-D Jacobi of jacobi2d.c with the grid split by columns;
 * each rank keeps all N rows of its block of columns in one row-major array with a ghost column on either side, and
 * every iteration exchanges the halo columns with MPI_Sendrecv of an MPI_Type_vector (N doubles a row's length apart,
 * MPI_PROC_NULL at the edges), does the 5-point sweep and the residual by MPI_Allreduce of one double. Fixed
 * boundary: 1.0 along the top edge, 0.0 elsewhere.
 * Usage: jacobi_columns [N [ITERS]], default 256 and 5000. Rank 0 prints
 * "RESULT jacobi-columns seconds=<s> check=<residual of the last iteration>". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* One Jacobi sweep over my columns; returns the sum of the squared updates. */
static double sweep(const double *u, double *unew, int n, int cols) {
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

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int iters = argc > 2 ? atoi(argv[2]) : 5000;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (n < size) {
        if (rank == 0) fprintf(stderr, "jacobi_columns needs N >= number of ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    /* my block of columns: local columns 1..cols, ghost columns 0 and cols+1; rows 0 and n+1 are the boundary */
    int cols = n / size + (rank < n % size ? 1 : 0);
    int w = cols + 2;
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    double *u = calloc((size_t) (n + 2) * w, sizeof(double));
    double *unew = calloc((size_t) (n + 2) * w, sizeof(double));
    for (int j = 0; j < w; j++) {
        u[j] = 1.0;
        unew[j] = 1.0;
    }
    MPI_Datatype column; /* rows 1..n of one column */
    MPI_Type_vector(n, 1, w, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);

    double local, residual = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int it = 0; it < iters; it++) {
        /* halo exchange: my first column goes left, my last column goes right */
        MPI_Sendrecv(u + w + 1, 1, column, left, 0, u + w + cols + 1, 1, column, right, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(u + w + cols, 1, column, right, 1, u + w, 1, column, left, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        /* the edge ranks' ghost columns hold the fixed boundary (reset as the Java twin must) */
        if (rank == 0) {
            for (int i = 1; i <= n; i++) u[i * w] = 0.0;
        }
        if (rank == size - 1) {
            for (int i = 1; i <= n; i++) u[i * w + cols + 1] = 0.0;
        }

        local = sweep(u, unew, n, cols);
        MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

        double *tmp = u;
        u = unew;
        unew = tmp;
    }
    double seconds = MPI_Wtime() - t0;

    if (rank == 0) printf("RESULT jacobi-columns seconds=%.6e check=%.10e\n", seconds, residual);
    MPI_Type_free(&column);
    free(u);
    free(unew);
    MPI_Finalize();
    return 0;
}
