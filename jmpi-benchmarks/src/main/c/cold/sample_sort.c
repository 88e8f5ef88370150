/* C twin of org.jmpi.benchmarks.cold.SampleSort: sample sort (regular sampling) of 64-bit keys. Each rank holds a
 * block of the TOTAL keys (the first TOTAL % size ranks one more), made by splitmix64 from the key's global index and
 * the repetition. Each repetition: local sort, size regularly spaced samples, MPI_Allgather of the samples, sort them
 * and pick size - 1 splitters, count per destination, MPI_Alltoall of the counts, MPI_Alltoallv of the keys, local
 * sort; then verification (one MPI_Allgather of count/first/last/sorted per rank) and the checksum
 * sum(key * (global_index + 1)) mod 2^64 by MPI_Reduce to rank 0.
 * Usage: sample_sort [TOTAL [REPS]], default 4000000 and 5. Rank 0 prints
 * "RESULT samplesort seconds=<s> check=<sum of the checksums, unsigned decimal, or unsorted>". */
#include <inttypes.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int compare_keys(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}

/* The (x+1)-th output of a splitmix64 generator started from state 0. */
static int64_t splitmix64(uint64_t x) {
    uint64_t z = (x + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (int64_t)(z ^ (z >> 31));
}

/* Sorts the keys across all ranks; returns my part of the global order (malloc'd) and its length in *out_n. */
static int64_t *sort_keys(int64_t *keys, int n, int size, int *out_n) {
    qsort(keys, n, sizeof(int64_t), compare_keys);

    /* regular samples, gathered everywhere, and the splitters chosen from them */
    int64_t *samples = malloc(size * sizeof(int64_t));
    for (int i = 0; i < size; i++) samples[i] = keys[(int)((long long)i * n / size)];
    int64_t *all_samples = malloc((size_t)size * size * sizeof(int64_t));
    MPI_Allgather(samples, size, MPI_INT64_T, all_samples, size, MPI_INT64_T, MPI_COMM_WORLD);
    qsort(all_samples, (size_t)size * size, sizeof(int64_t), compare_keys);
    int64_t *splitters = malloc(size * sizeof(int64_t));
    for (int k = 1; k < size; k++) splitters[k - 1] = all_samples[k * size + size / 2 - 1];

    /* keys <= splitters[d] (and > splitters[d-1]) go to rank d; the keys are sorted, so walk them once */
    int *send_counts = calloc(size, sizeof(int)), *recv_counts = malloc(size * sizeof(int));
    int dest = 0;
    for (int i = 0; i < n; i++) {
        while (dest < size - 1 && keys[i] > splitters[dest]) dest++;
        send_counts[dest]++;
    }
    MPI_Alltoall(send_counts, 1, MPI_INT, recv_counts, 1, MPI_INT, MPI_COMM_WORLD);

    int *send_displs = calloc(size, sizeof(int)), *recv_displs = calloc(size, sizeof(int));
    for (int r = 1; r < size; r++) {
        send_displs[r] = send_displs[r - 1] + send_counts[r - 1];
        recv_displs[r] = recv_displs[r - 1] + recv_counts[r - 1];
    }
    int m = recv_displs[size - 1] + recv_counts[size - 1];
    int64_t *result = malloc((m > 0 ? m : 1) * sizeof(int64_t));
    MPI_Alltoallv(keys, send_counts, send_displs, MPI_INT64_T, result, recv_counts, recv_displs, MPI_INT64_T,
                  MPI_COMM_WORLD);
    qsort(result, m, sizeof(int64_t), compare_keys);

    free(samples);
    free(all_samples);
    free(splitters);
    free(send_counts);
    free(recv_counts);
    free(send_displs);
    free(recv_displs);
    *out_n = m;
    return result;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    long long total = argc > 1 ? atoll(argv[1]) : 4000000LL;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (total < size) {
        if (rank == 0) fprintf(stderr, "sample_sort needs TOTAL >= number of ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int mine = (int)(total / size + (rank < total % size ? 1 : 0));
    long long first = rank * (total / size) + (rank < total % size ? rank : total % size);

    uint64_t checksum = 0;
    int ok = 1;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int rep = 0; rep < reps; rep++) {
        int64_t *keys = malloc(mine * sizeof(int64_t));
        for (int i = 0; i < mine; i++) keys[i] = splitmix64((uint64_t)(rep * total + first + i));
        int n;
        int64_t *sorted = sort_keys(keys, mine, size, &n);

        /* verification and checksum: count, first key, last key, locally sorted? of every rank */
        int64_t info[4] = {n, n > 0 ? sorted[0] : 0, n > 0 ? sorted[n - 1] : 0, 1};
        for (int i = 1; i < n; i++) {
            if (sorted[i - 1] > sorted[i]) info[3] = 0;
        }
        int64_t *all = malloc(4 * size * sizeof(int64_t));
        MPI_Allgather(info, 4, MPI_INT64_T, all, 4, MPI_INT64_T, MPI_COMM_WORLD);
        long long offset = 0, count = 0; /* offset: global index of my first sorted key */
        int have_last = 0;
        int64_t last = 0;
        for (int r = 0; r < size; r++) {
            if (r < rank) offset += all[4 * r];
            count += all[4 * r];
            ok &= all[4 * r + 3] == 1;
            if (all[4 * r] > 0) {
                ok &= !have_last || last <= all[4 * r + 1];
                have_last = 1;
                last = all[4 * r + 2];
            }
        }
        ok &= count == total;
        uint64_t sum = 0, global_sum = 0;
        for (int i = 0; i < n; i++) sum += (uint64_t)sorted[i] * (uint64_t)(offset + i + 1);
        MPI_Reduce(&sum, &global_sum, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
        checksum += global_sum;
        free(keys);
        free(sorted);
        free(all);
    }
    double seconds = MPI_Wtime() - t0;

    if (rank == 0) {
        if (ok) {
            printf("RESULT samplesort seconds=%.6e check=%" PRIu64 "\n", seconds, checksum);
        } else {
            printf("RESULT samplesort seconds=%.6e check=unsorted\n", seconds);
        }
    }
    MPI_Finalize();
    return 0;
}
