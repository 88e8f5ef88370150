/* The C twin of jmpi's OsuReduce, OsuAllgather, OsuAlltoall, OsuGather, OsuScatter and OsuBarrier benchmarks, for comparing with
 * MPICH in the same sitting. Same method as the project baseline (../shared/baseline/bench_common.h, which this
 * file includes): back-to-back calls, 10 % warm-up, average time per call per rank, reported as the average and
 * the maximum over ranks, in microseconds.
 * Build: mpicc.mpich -O2 -I ../shared/baseline -o mpi_coll mpi_coll.c
 * Usage: mpiexec.mpich -n N ./mpi_coll reduce|allgather|alltoall|gather|scatter|barrier [small_iters=10000] [max_bytes]
 * (max_bytes: stop at this size, as the Java programs' --max; default 16 MiB for reduce, 1 MiB for the others) */
#include "bench_common.h"

static double run(const char *what, char *s, char *r, int bytes, int iters, int warm, int size) {
    double t0 = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < warm + iters; i++) {
        if (i == warm) { MPI_Barrier(MPI_COMM_WORLD); t0 = MPI_Wtime(); }
        if (what[0] == 'r') MPI_Reduce(s, r, bytes / 4, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
        else if (what[0] == 'b') MPI_Barrier(MPI_COMM_WORLD);
        else if (!strcmp(what, "allgather")) MPI_Allgather(s, bytes, MPI_CHAR, r, bytes, MPI_CHAR, MPI_COMM_WORLD);
        else if (!strcmp(what, "gather")) MPI_Gather(s, bytes, MPI_CHAR, r, bytes, MPI_CHAR, 0, MPI_COMM_WORLD);
        else if (!strcmp(what, "scatter")) MPI_Scatter(s, bytes, MPI_CHAR, r, bytes, MPI_CHAR, 0, MPI_COMM_WORLD);
        else MPI_Alltoall(s, bytes, MPI_CHAR, r, bytes, MPI_CHAR, MPI_COMM_WORLD);
    }
    (void) size;
    return (MPI_Wtime() - t0) * 1e6 / iters;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *what = argc > 1 ? argv[1] : "reduce";
    int small = base_iters(argc - 1, argv + 1, 10000);
    int barrier = what[0] == 'b', reduce = what[0] == 'r';
    size_t min = reduce ? 4 : barrier ? 0 : 1, max = reduce ? 16u << 20 : barrier ? 0 : 1u << 20;
    if (argc > 3 && !barrier && (size_t) atol(argv[3]) < max) max = (size_t) atol(argv[3]);
    size_t per_rank_max = reduce ? max : max * (size_t) size;
    char *s = page_alloc(per_rank_max), *r = page_alloc(per_rank_max);
    if (rank == 0) printf("# mpi_coll %s, %d ranks: bytes  avg_us  max_us  iters\n", what, size);
    for (size_t bytes = min; bytes <= max; bytes = bytes ? bytes * 2 : 1) {
        size_t total = reduce || barrier ? bytes : bytes * (size_t) size;
        int iters = iters_for(total, small); if (total >= (4u << 20)) iters = iters / 2 > 10 ? iters / 2 : 10;
        int rounds = barrier ? 5 : 1;
        for (int k = 0; k < rounds; k++) {
            double t = run(what, s, r, (int) bytes, iters, warmup_for(iters), size), tmax, tsum;
            MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            MPI_Reduce(&t, &tsum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            if (rank == 0) printf("%zu %.3f %.3f %d\n", bytes, tsum / size, tmax, iters);
            fflush(stdout);
        }
        if (barrier) break;
    }
    free(s); free(r);
    MPI_Finalize();
    return 0;
}
