/* C twin of org.jmpi.benchmarks.PlainPingPong: ITERS untimed then ITERS timed round trips of blocking
 * MPI_Send/MPI_Recv at ONE size, in its own run. Usage: plain_pingpong BYTES [ITERS]; rank 0 prints
 * "c BYTES one_way_latency_us ITERS". ITERS defaults as in the Java program: 20000 up to 64 KiB, 2000 up to
 * 256 KiB, 200 above. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int default_iters(long bytes) {
    return bytes <= 64L << 10 ? 20000 : bytes <= 256L << 10 ? 2000 : 200;
}

static void ping_pong(int rank, char *s, char *r, int bytes, int n) {
    int peer = 1 - rank;
    for (int i = 0; i < n; i++) {
        if (rank == 0) {
            MPI_Send(s, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
            MPI_Recv(r, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(r, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(s, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
        }
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2 || size != 2) {
        if (rank == 0) fprintf(stderr, "usage: plain_pingpong BYTES [ITERS] on 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int bytes = atoi(argv[1]);
    int iters = argc > 2 ? atoi(argv[2]) : default_iters(bytes);
    char *s, *r;
    if (posix_memalign((void **)&s, 4096, bytes + 1) || posix_memalign((void **)&r, 4096, bytes + 1)) {
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    memset(s, 1, bytes + 1);
    memset(r, 0, bytes + 1);
    ping_pong(rank, s, r, bytes, iters);
    double t0 = MPI_Wtime();
    ping_pong(rank, s, r, bytes, iters);
    double t = MPI_Wtime() - t0;
    if (rank == 0) printf("c %d %.3f %d\n", bytes, t * 1e6 / (2.0 * iters), iters);
    free(s);
    free(r);
    MPI_Finalize();
    return 0;
}
