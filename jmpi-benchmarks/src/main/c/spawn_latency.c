/* Spawn latency, the C twin of org.jmpi.benchmarks.SpawnLatency: the time from the start of MPI_Comm_spawn of N
 * children (this program) at the root until the root has received the first message from the children (child rank 0
 * sends one int right after MPI_Init). The disconnect and the children's exit are outside the timed span.
 *
 * Build: mpicc.mpich -O2 -Wall -o spawn_latency spawn_latency.c
 * Run:   mpiexec.mpich -n 1 ./spawn_latency N REPS
 * Prints "spawn N children: rep i X ms" per repetition, then "spawn N children: min X ms median X ms max X ms". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (parent != MPI_COMM_NULL) {
        if (rank == 0) {
            int size;
            MPI_Comm_size(MPI_COMM_WORLD, &size);
            MPI_Send(&size, 1, MPI_INT, 0, 1, parent);
        }
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }
    int children = argc > 1 ? atoi(argv[1]) : 1;
    int reps = argc > 2 ? atoi(argv[2]) : 10;
    double *ms = malloc(sizeof(double) * (size_t) reps);
    for (int r = -1; r < reps; r++) {
        MPI_Comm c;
        double t0 = MPI_Wtime();
        MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, children, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &c, MPI_ERRCODES_IGNORE);
        int got = 0;
        if (rank == 0) {
            MPI_Recv(&got, 1, MPI_INT, 0, 1, c, MPI_STATUS_IGNORE);
        }
        double t1 = MPI_Wtime();
        MPI_Comm_disconnect(&c);
        if (r >= 0) {
            ms[r] = (t1 - t0) * 1e3;
            if (rank == 0) {
                printf("spawn %d children: rep %d %.1f ms\n", children, r, ms[r]);
            }
        }
    }
    if (rank == 0) {
        qsort(ms, (size_t) reps, sizeof(double), cmp);
        printf("spawn %d children: min %.1f ms median %.1f ms max %.1f ms\n", children, ms[0], ms[reps / 2],
               ms[reps - 1]);
    }
    free(ms);
    MPI_Finalize();
    return 0;
}
