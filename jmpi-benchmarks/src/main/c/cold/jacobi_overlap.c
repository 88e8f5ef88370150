/* C twin of org.jmpi.benchmarks.cold.JacobiOverlap: 2-D Jacobi as jacobi2d.c, with the halo exchange overlapped:
 * every iteration posts MPI_Irecv for both ghost rows and MPI_Isend of both edge rows (copied into and out of buffers
 * of their own, as the Java twin must; MPI_PROC_NULL at the edges), sweeps the rows that need no ghost row, waits
 * for the four requests with MPI_Waitall, then sweeps the two edge rows. The residual (sum of squared updates) by
 * MPI_Allreduce of one double every tenth iteration and at the last. Fixed boundary: 1.0 along the top edge, 0.0
 * elsewhere.
 * Usage: jacobi_overlap [N [ITERS]], default 1024 and 500. Rank 0 prints
 * "RESULT jacobi-overlap seconds=<s> check=<residual of the last iteration>". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double **alloc_rows(int rows, int cols) {
    double **a = malloc(rows * sizeof(double *));
    for (int i = 0; i < rows; i++) a[i] = calloc(cols, sizeof(double));
    return a;
}

static void free_rows(double **a, int rows) {
    for (int i = 0; i < rows; i++) free(a[i]);
    free(a);
}

/* The Jacobi update of rows from..to (none when to < from); returns the sum of the squared updates. */
static double sweep(double **u, double **unew, int from, int to, int n) {
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

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    int iters = argc > 2 ? atoi(argv[2]) : 500;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (n < size) {
        if (rank == 0) fprintf(stderr, "jacobi_overlap needs N >= number of ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    /* my block of rows: local rows 1..rows, ghost rows 0 and rows+1; columns 0 and n+1 are the boundary */
    int rows = n / size + (rank < n % size ? 1 : 0);
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    double **u = alloc_rows(rows + 2, n + 2);
    double **unew = alloc_rows(rows + 2, n + 2);
    if (rank == 0) {
        for (int j = 0; j < n + 2; j++) u[0][j] = unew[0][j] = 1.0;
    }
    size_t row_bytes = (size_t) (n + 2) * sizeof(double);
    double *send_up = malloc(row_bytes), *send_down = malloc(row_bytes);
    double *recv_up = malloc(row_bytes), *recv_down = malloc(row_bytes);
    MPI_Request requests[4];
    MPI_Status statuses[4];

    double local, residual = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int it = 0; it < iters; it++) {
        MPI_Irecv(recv_up, n + 2, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &requests[0]);
        MPI_Irecv(recv_down, n + 2, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, &requests[1]);
        memcpy(send_up, u[1], row_bytes);
        memcpy(send_down, u[rows], row_bytes);
        MPI_Isend(send_up, n + 2, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &requests[2]);
        MPI_Isend(send_down, n + 2, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &requests[3]);

        double diff = sweep(u, unew, 2, rows - 1, n); /* the rows that need no ghost row */
        MPI_Waitall(4, requests, statuses);
        if (up != MPI_PROC_NULL) memcpy(u[0], recv_up, row_bytes);
        if (down != MPI_PROC_NULL) memcpy(u[rows + 1], recv_down, row_bytes);
        diff += sweep(u, unew, 1, 1, n);
        if (rows > 1) diff += sweep(u, unew, rows, rows, n);

        if (it % 10 == 9 || it == iters - 1) {
            local = diff;
            MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        double **tmp = u;
        u = unew;
        unew = tmp;
    }
    double seconds = MPI_Wtime() - t0;

    if (rank == 0) printf("RESULT jacobi-overlap seconds=%.6e check=%.10e\n", seconds, residual);
    free(send_up);
    free(send_down);
    free(recv_up);
    free(recv_down);
    free_rows(u, rows + 2);
    free_rows(unew, rows + 2);
    MPI_Finalize();
    return 0;
}
