/* MPI-IO bandwidth on a block-distributed 3-D array: the C twin of jmpi's IoBlock3d (same layout, same output).
 * An N x N x N array of doubles in one file (row-major, z fastest), ranks on an MPI_Dims_create grid, each owning
 * one block (noncontiguous in the file), written then read through a file view, collectively
 * (MPI_File_write_all/read_all: ROMIO's two-phase I/O) and independently (write/read: ROMIO's data sieving).
 * Figures: array bytes over the slowest rank's time, MB/s = 10^6 B/s, median and best of the repetitions.
 * Usage: mpi_io_block3d [--dir DIR] [--mib N] [--reps N] [--sync] [--modes coll,indep]
 * Written for jmpi. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double slowest(double t) {
    double m;
    MPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *dir = "/tmp";
    long mib = 256;
    int reps = 5, sync = 0;
    char modes[64] = "coll,indep";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--dir")) dir = argv[++i];
        else if (!strcmp(argv[i], "--mib")) mib = atol(argv[++i]);
        else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--sync")) sync = 1;
        else if (!strcmp(argv[i], "--modes")) snprintf(modes, sizeof modes, "%s", argv[++i]);
        else { if (rank == 0) fprintf(stderr, "unknown option %s\n", argv[i]); MPI_Abort(MPI_COMM_WORLD, 2); }
    }
    int nmodes = 0, coll[2];
    if (strstr(modes, "coll")) coll[nmodes++] = 1;
    if (strstr(modes, "indep")) coll[nmodes++] = 0;
    int dims[3] = {0, 0, 0};
    MPI_Dims_create(size, 3, dims);
    { int t = dims[0]; dims[0] = dims[2]; dims[2] = t; } /* z split first: every block noncontiguous in the file */
    int n = (int)cbrt(mib * 1048576.0 / 8.0);
    n -= n % 12;
    int gsizes[3] = {n, n, n};
    int block[3] = {n / dims[0], n / dims[1], n / dims[2]};
    int coords[3] = {rank / (dims[1] * dims[2]), (rank / dims[2]) % dims[1], rank % dims[2]};
    int starts[3] = {coords[0] * block[0], coords[1] * block[1], coords[2] * block[2]};
    MPI_Datatype cube;
    MPI_Type_create_subarray(3, gsizes, block, starts, MPI_ORDER_C, MPI_DOUBLE, &cube);
    MPI_Type_commit(&cube);
    long local = (long)block[0] * block[1] * block[2];
    double *data = malloc(local * sizeof(double)), *back = malloc(local * sizeof(double));
    for (long i = 0; i < local; i++) { data[i] = rank * 1e9 + i; back[i] = 0; }
    double bytes = (double)n * n * n * 8;
    char file[4096];
    long pid = getpid();
    MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    snprintf(file, sizeof file, "%s/mpich-io-block3d-%ld.dat", dir, pid);
    if (rank == 0) {
        printf("# MPICH IoBlock3d: %d ranks (grid %dx%dx%d), array %d^3 doubles = %.1f MiB, blocks of %dx%dx%d, %s,"
               " %d reps%s\n", size, dims[0], dims[1], dims[2], n, bytes / 1048576.0, block[0], block[1], block[2],
               dir, reps, sync ? ", write includes sync" : "");
        printf("# %-6s %-5s %12s %12s\n", "mode", "op", "median MB/s", "best MB/s");
    }
    double *t = calloc(4 * reps, sizeof(double));
    for (int r = 0; r < reps; r++) {
        for (int m = 0; m < nmodes; m++) {
            MPI_File f;
            MPI_Status st;
            MPI_File_open(MPI_COMM_WORLD, file, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &f);
            MPI_File_set_view(f, 0, MPI_DOUBLE, cube, "native", MPI_INFO_NULL);
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (coll[m]) MPI_File_write_all(f, data, (int)local, MPI_DOUBLE, &st);
            else MPI_File_write(f, data, (int)local, MPI_DOUBLE, &st);
            if (sync) MPI_File_sync(f);
            double tw = slowest(MPI_Wtime() - t0);
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_File_seek(f, 0, MPI_SEEK_SET);
            t0 = MPI_Wtime();
            if (coll[m]) MPI_File_read_all(f, back, (int)local, MPI_DOUBLE, &st);
            else MPI_File_read(f, back, (int)local, MPI_DOUBLE, &st);
            double tr = slowest(MPI_Wtime() - t0);
            MPI_File_close(&f);
            if (back[0] != data[0] || back[local - 1] != data[local - 1]) {
                fprintf(stderr, "rank %d: read back wrong data\n", rank);
                MPI_Abort(MPI_COMM_WORLD, 3);
            }
            t[(2 * m) * reps + r] = tw;
            t[(2 * m + 1) * reps + r] = tr;
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == 0) MPI_File_delete(file, MPI_INFO_NULL);
        }
    }
    if (rank == 0) {
        for (int m = 0; m < nmodes; m++) {
            for (int op = 0; op < 2; op++) {
                double *s = t + (2 * m + op) * reps;
                qsort(s, reps, sizeof(double), cmp);
                printf("  %-6s %-5s %12.1f %12.1f\n", coll[m] ? "coll" : "indep", op == 0 ? "write" : "read",
                       bytes / s[reps / 2] / 1e6, bytes / s[0] / 1e6);
            }
        }
    }
    MPI_Type_free(&cube);
    free(data);
    free(back);
    free(t);
    MPI_Finalize();
    return 0;
}
