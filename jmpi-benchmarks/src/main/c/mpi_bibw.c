/* Bi-directional bandwidth between ranks 0 and 1, window of 64 in each direction (OSU osu_bibw), with the iteration
 * scheme of the project baseline's mpi_bw.c (iters_for(bytes, 2000) / 4, at least 10, 10 % warm-up). The C twin of
 * jmpi's OsuBiBandwidth, for comparing with MPICH in the same sitting.
 * Build: mpicc.mpich -O2 -I ../shared/baseline -o mpi_bibw mpi_bibw.c
 * Output: bytes MB_per_s iters (both directions together; 1 MB = 1e6 bytes). Sizes 1 B .. 4 MiB.
 * Usage: mpiexec.mpich -n 2 ./mpi_bibw [small_iters=2000] */
#include "bench_common.h"
#define WINDOW 64

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) { if (rank == 0) fprintf(stderr, "needs exactly 2 ranks\n"); MPI_Abort(MPI_COMM_WORLD, 1); }
    const size_t max_bytes = 4u << 20;
    char *out = page_alloc(max_bytes), *in = page_alloc(max_bytes);
    MPI_Request req[2 * WINDOW];
    MPI_Status stat[2 * WINDOW];
    int small = base_iters(argc, argv, 2000), peer = 1 - rank;
    if (rank == 0) printf("# mpi_bibw (window %d): bytes  MB_per_s  iters\n", WINDOW);
    for (size_t bytes = 1; bytes <= max_bytes; bytes *= 2) {
        int iters = iters_for(bytes, small) / 4; if (iters < 10) iters = 10;
        int warm = warmup_for(iters);
        double t0 = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < warm + iters; i++) {
            if (i == warm) { MPI_Barrier(MPI_COMM_WORLD); t0 = MPI_Wtime(); }
            for (int w = 0; w < WINDOW; w++)
                MPI_Irecv(in, (int)bytes, MPI_CHAR, peer, 4, MPI_COMM_WORLD, &req[w]);
            for (int w = 0; w < WINDOW; w++)
                MPI_Isend(out, (int)bytes, MPI_CHAR, peer, 4, MPI_COMM_WORLD, &req[WINDOW + w]);
            MPI_Waitall(2 * WINDOW, req, stat);
        }
        double t = MPI_Wtime() - t0;
        if (rank == 0) printf("%zu %.2f %d\n", bytes, 2.0 * WINDOW * iters * (double)bytes / t / 1e6, iters);
        fflush(stdout);
    }
    free(out); free(in);
    MPI_Finalize();
    return 0;
}
