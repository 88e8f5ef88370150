/* C twin of org.jmpi.benchmarks.cold.ConjugateGradient: conjugate gradients for the 2-D Poisson problem A x = b,
 * A the 5-point Laplacian (4 on the diagonal, -1 to the four neighbours, zero Dirichlet boundary) on an N x N grid of
 * unknowns, b all ones, x0 = 0, a fixed number of iterations. Grid rows split in blocks across the ranks (the first
 * N % size ranks get one more); every vector is my rows (one array per row) plus a ghost row above and below and a
 * zero column on each side. The matrix-vector product first exchanges one row of p up and down with MPI_Sendrecv;
 * the two dot products per iteration are MPI_Allreduce of one double.
 * Usage: conjugate_gradient [N [ITERS]], default 512 and 200. Rank 0 prints
 * "RESULT conjugate-gradient seconds=<s> check=<norm of the residual after the last iteration>". */
#include <math.h>
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

/* q = A p on my rows (p's ghost rows and boundary columns hold the neighbours' values or zero). */
static void laplacian(double **p, double **q, int rows, int n) {
    for (int i = 1; i <= rows; i++) {
        for (int j = 1; j <= n; j++) {
            q[i][j] = 4.0 * p[i][j] - p[i - 1][j] - p[i + 1][j] - p[i][j - 1] - p[i][j + 1];
        }
    }
}

/* Global dot product: the sum over my rows, then an MPI_Allreduce of one double. */
static double dot(double **a, double **b, int rows, int n) {
    double local = 0.0, global;
    for (int i = 1; i <= rows; i++) {
        for (int j = 1; j <= n; j++) {
            local += a[i][j] * b[i][j];
        }
    }
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return global;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int n = argc > 1 ? atoi(argv[1]) : 512;
    int iters = argc > 2 ? atoi(argv[2]) : 200;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (n < size) {
        if (rank == 0) fprintf(stderr, "conjugate_gradient needs N >= number of ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    int rows = n / size + (rank < n % size ? 1 : 0);
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    double **x = alloc_rows(rows + 2, n + 2);
    double **r = alloc_rows(rows + 2, n + 2);
    double **p = alloc_rows(rows + 2, n + 2);
    double **q = alloc_rows(rows + 2, n + 2);
    for (int i = 1; i <= rows; i++) {
        for (int j = 1; j <= n; j++) {
            r[i][j] = 1.0; /* r = b - A*0 = b */
            p[i][j] = 1.0;
        }
    }

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    double rr = dot(r, r, rows, n);
    for (int it = 0; it < iters && rr > 0.0; it++) {
        /* neighbour rows of p, then q = A p */
        MPI_Sendrecv(p[1], n + 2, MPI_DOUBLE, up, 0, p[rows + 1], n + 2, MPI_DOUBLE, down, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(p[rows], n + 2, MPI_DOUBLE, down, 1, p[0], n + 2, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        /* the zero boundary lives in the edge ranks' ghost rows: set it again (as the Java twin must, because
         * Open MPI's Java bindings overwrite a receive array even when the source is MPI_PROC_NULL) */
        if (rank == 0) {
            for (int j = 0; j < n + 2; j++) p[0][j] = 0.0;
        }
        if (rank == size - 1) {
            for (int j = 0; j < n + 2; j++) p[rows + 1][j] = 0.0;
        }
        laplacian(p, q, rows, n);

        double alpha = rr / dot(p, q, rows, n);
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= n; j++) {
                x[i][j] += alpha * p[i][j];
                r[i][j] -= alpha * q[i][j];
            }
        }
        double rr_new = dot(r, r, rows, n);
        double beta = rr_new / rr;
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= n; j++) {
                p[i][j] = r[i][j] + beta * p[i][j];
            }
        }
        rr = rr_new;
    }
    double seconds = MPI_Wtime() - t0;

    if (rank == 0) printf("RESULT conjugate-gradient seconds=%.6e check=%.10e\n", seconds, sqrt(rr));
    free_rows(x, rows + 2);
    free_rows(r, rows + 2);
    free_rows(p, rows + 2);
    free_rows(q, rows + 2);
    MPI_Finalize();
    return 0;
}
