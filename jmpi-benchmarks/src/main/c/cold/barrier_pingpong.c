/* C twin of org.jmpi.benchmarks.cold.BarrierPingPong: the user's timing idiom for a ping-pong. Ranks 0 and 1 do
 * ITERS untimed round trips of blocking MPI_Send/MPI_Recv of BYTES bytes, then everybody meets in an MPI_Barrier,
 * then ranks 0 and 1 do ITERS timed round trips; further ranks only take part in the barrier.
 * Usage: barrier_pingpong KIND BYTES [ITERS] on 2 (or more) ranks; KIND replace makes each round trip two
 * MPI_Sendrecv_replace exchanges of one buffer (the result is one exchange's time), other KINDs (bytes, direct,
 * slices or fresh) only name the result here,
 * BYTES takes an optional k/m suffix (KiB, MiB); ITERS defaults to 20000 up to 64 KiB, 2000 up to 256 KiB, 200 above.
 * Rank 0 prints "RESULT barrier-pingpong-<KIND>-<BYTES> seconds=<one-way latency in seconds> check=<BYTES>". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Warm-up and timed round trips for a message size (the same in the Java program). */
static int default_iters(int bytes) {
    return bytes <= 64 << 10 ? 20000 : bytes <= 256 << 10 ? 2000 : 200;
}

/* A byte count: digits with an optional k (KiB) or m (MiB) suffix. */
static int parse_size(const char *s) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*end == 'k' || *end == 'K') v <<= 10;
    if (*end == 'm' || *end == 'M') v <<= 20;
    return (int)v;
}

/* ITERS round trips between ranks 0 and 1 of blocking send/recv. */
static void ping_pong(int rank, char *send_buf, char *recv_buf, int bytes, int iters) {
    int peer = 1 - rank;
    for (int i = 0; i < iters; i++) {
        if (rank == 0) {
            MPI_Send(send_buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
            MPI_Recv(recv_buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(recv_buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(send_buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
        }
    }
}

/* ITERS round trips of two MPI_Sendrecv_replace exchanges each between ranks 0 and 1. */
static void exchanges(int rank, char *buf, int bytes, int iters) {
    int peer = 1 - rank;
    for (int i = 0; i < 2 * iters; i++) {
        MPI_Sendrecv_replace(buf, bytes, MPI_BYTE, peer, 0, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

/* ping_pong or exchanges, as KIND says. */
static void rounds(const char *kind, int rank, char *send_buf, char *recv_buf, int bytes, int iters) {
    if (strcmp(kind, "replace") == 0) {
        exchanges(rank, send_buf, bytes, iters);
    } else {
        ping_pong(rank, send_buf, recv_buf, bytes, iters);
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 3 || size < 2) {
        if (rank == 0) fprintf(stderr, "usage: barrier_pingpong KIND BYTES [ITERS] on 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *kind = argv[1];
    int bytes = parse_size(argv[2]);
    int iters = argc > 3 ? atoi(argv[3]) : default_iters(bytes);
    char *send_buf = calloc(bytes > 0 ? bytes : 1, 1);
    char *recv_buf = calloc(bytes > 0 ? bytes : 1, 1);

    if (rank < 2) rounds(kind, rank, send_buf, recv_buf, bytes, iters); /* warm-up, untimed */
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (rank < 2) rounds(kind, rank, send_buf, recv_buf, bytes, iters);
    double seconds = MPI_Wtime() - t0;

    if (rank == 0) {
        printf("RESULT barrier-pingpong-%s-%d seconds=%.6e check=%d\n", kind, bytes, seconds / (2.0 * iters), bytes);
    }
    free(send_buf);
    free(recv_buf);
    MPI_Finalize();
    return 0;
}
