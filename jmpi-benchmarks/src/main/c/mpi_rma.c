/* One-sided benchmarks in the OSU style between ranks 0 (origin) and 1 (target): the C twin of jmpi's OsuOneSided,
 * for comparing with MPICH in the same sitting. Same tests, sizes and iteration scheme:
 *   put_latency get_latency (one op + flush inside one lock(SHARED) epoch, or + fence on both ranks)
 *   put_bw get_bw (64 ops + flush/fence per iteration, MB/s), acc_latency (MPI_LONG SUM),
 *   fop_latency cas_latency (one long on an MPI_Win_allocate window), fence (an empty fence epoch).
 * Build: mpicc.mpich -O2 -I ../shared/baseline -o mpi_rma mpi_rma.c
 * Usage: mpiexec.mpich -n 2 ./mpi_rma TEST [flush|fence] [small_iters=10000]
 * Output: bytes latency_us iters (or bytes MB_per_s iters; 1 MB = 1e6 bytes). */
#include "bench_common.h"
#define WINDOW 64

static void loop(const char *test, MPI_Win win, char *buf, int bytes, int fence, int rank, int n) {
    long one = 1, res = 0, cmp = 0;
    int longs = bytes / 8 > 0 ? bytes / 8 : 1;
    for (int i = 0; i < n; i++) {
        if (rank == 0) {
            if (!strcmp(test, "put_latency")) MPI_Put(buf, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, win);
            else if (!strcmp(test, "get_latency")) MPI_Get(buf, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, win);
            else if (!strcmp(test, "put_bw"))
                for (int w = 0; w < WINDOW; w++) MPI_Put(buf, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, win);
            else if (!strcmp(test, "get_bw"))
                for (int w = 0; w < WINDOW; w++) MPI_Get(buf, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, win);
            else if (!strcmp(test, "acc_latency"))
                MPI_Accumulate(buf, longs, MPI_LONG, 1, 0, longs, MPI_LONG, MPI_SUM, win);
            else if (!strcmp(test, "fop_latency")) MPI_Fetch_and_op(&one, &res, MPI_LONG, 1, 0, MPI_SUM, win);
            else if (!strcmp(test, "cas_latency")) MPI_Compare_and_swap(&one, &cmp, &res, MPI_LONG, 1, 0, win);
            else if (strcmp(test, "fence")) { fprintf(stderr, "unknown test %s\n", test); MPI_Abort(MPI_COMM_WORLD, 1); }
            if (!fence) MPI_Win_flush(1, win);
        }
        if (fence) MPI_Win_fence(0, win);
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || argc < 2) {
        if (rank == 0) fprintf(stderr, "usage: mpiexec -n 2 mpi_rma TEST [flush|fence] [iters]\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const char *test = argv[1];
    int fence = argc > 2 && !strcmp(argv[2], "fence");
    int small = argc > 3 ? atoi(argv[3]) : 10000;
    int bw = strstr(test, "_bw") != NULL;
    int atomic = !strcmp(test, "fop_latency") || !strcmp(test, "cas_latency") || !strcmp(test, "fence");
    size_t max = atomic ? 8 : (4u << 20);
    char *mem, *buf = page_alloc(max);
    MPI_Win win;
    if (!strcmp(test, "fop_latency") || !strcmp(test, "cas_latency")) {
        MPI_Win_allocate((MPI_Aint)max, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
        memset(mem, 0, max);
    } else {
        mem = page_alloc(max);
        MPI_Win_create(mem, (MPI_Aint)max, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    }
    if (rank == 0) printf("# mpi_rma %s (%s): bytes  %s  iters\n", test, fence ? "fence" : "lock+flush",
                          bw ? "MB_per_s" : "latency_us");
    if (fence) MPI_Win_fence(0, win); else if (rank == 0) MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    for (size_t bytes = 8; bytes <= max; bytes *= 2) {
        int iters = iters_for(bytes, small);
        if (bytes >= (4u << 20)) iters = iters / 2 > 10 ? iters / 2 : 10;
        if (bw) iters = iters / 4 > 10 ? iters / 4 : 10;
        loop(test, win, buf, (int)bytes, fence, rank, warmup_for(iters));
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        loop(test, win, buf, (int)bytes, fence, rank, iters);
        double t = MPI_Wtime() - t0;
        if (rank == 0) {
            if (bw) printf("%zu %.2f %d\n", bytes, (double)WINDOW * iters * (double)bytes / t / 1e6, iters);
            else printf("%zu %.3f %d\n", bytes, t * 1e6 / iters, iters);
        }
        fflush(stdout);
    }
    if (fence) MPI_Win_fence(MPI_MODE_NOSUCCEED, win); else if (rank == 0) MPI_Win_unlock(1, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    if (strcmp(test, "fop_latency") && strcmp(test, "cas_latency")) free(mem);
    free(buf);
    MPI_Finalize();
    return 0;
}
