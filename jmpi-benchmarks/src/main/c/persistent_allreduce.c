/* C twin of org.jmpi.benchmarks.PersistentAllreduce: MPI_Allreduce against MPI_Allreduce_init + MPI_Start +
 * MPI_Wait at 8 B, 64 KiB and 1 MiB of doubles, in that order in one run, each with 1,000 (else 100) untimed and
 * 10,000 (else 500) timed iterations after a barrier. Usage: persistent_allreduce blocking|persistent; rank 0 prints
 * "MODE c BYTES us=<mean per call>". Needs an MPI 4.0 library (MPICH 4). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int persistent = argc > 1 && strcmp(argv[1], "persistent") == 0;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int sizes[] = {8, 65536, 1 << 20};
    for (int k = 0; k < 3; k++) {
        int bytes = sizes[k], n = bytes / 8;
        int iters = bytes <= 8192 ? 10000 : 500, warm = bytes <= 8192 ? 1000 : 100;
        double *s = calloc(n, 8), *r = calloc(n, 8);
        MPI_Request req;
        if (persistent) {
            MPI_Allreduce_init(s, r, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
        }
        double t0 = 0;
        for (int i = 0; i < warm + iters; i++) {
            if (i == warm) {
                MPI_Barrier(MPI_COMM_WORLD);
                t0 = MPI_Wtime();
            }
            if (persistent) {
                MPI_Start(&req);
                MPI_Wait(&req, MPI_STATUS_IGNORE);
            } else {
                MPI_Allreduce(s, r, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            }
        }
        double t = MPI_Wtime() - t0;
        if (persistent) {
            MPI_Request_free(&req);
        }
        if (rank == 0) {
            printf("%s c %d us=%.2f\n", persistent ? "persistent" : "blocking", bytes, t * 1e6 / iters);
        }
        free(s);
        free(r);
    }
    MPI_Finalize();
    return 0;
}
