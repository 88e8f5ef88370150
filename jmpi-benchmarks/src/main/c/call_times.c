/* Time of every single call: the C twin of jmpi's CallTimes, for comparing per-call distributions (median, tail,
 * share of slow calls) with MPICH in the same sitting. An average can hide whether a few long calls (a descheduled
 * rank, a hypervisor pause) or a slow common case make it; this shows which.
 * Calls: allreduce (float SUM of BYTES/4 floats), barrier, pingpong (round trip between ranks 0 and 1), fence (an
 * empty fence epoch on a window over 8 bytes).
 * Build: mpicc.mpich -O2 -I ../shared/baseline -o call_times call_times.c
 * Usage: mpiexec.mpich -n 2 ./call_times CALL [calls=100000] [reps=5] [bytes=4] [warmups=2]
 * Output, per repetition after WARMUPS untimed ones (two by default, as CallTimes, which needs the second): rep avg_us p50_us p99_us p99.9_us max_us share_of_time_in_calls_over_20us */
#include "bench_common.h"
#include <time.h>

static int cmp_long(const void *a, const void *b) {
    long x = *(const long *) a, y = *(const long *) b;
    return (x > y) - (x < y);
}

static long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    const char *call = argc > 1 ? argv[1] : "allreduce";
    int calls = argc > 2 ? atoi(argv[2]) : 100000;
    int reps = argc > 3 ? atoi(argv[3]) : 5;
    int bytes = argc > 4 ? atoi(argv[4]) : 4;
    int warmups = argc > 5 ? atoi(argv[5]) : 2;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int count = bytes / 4 > 0 ? bytes / 4 : 1;
    float *send = calloc(count, sizeof(float)), *recv = calloc(count, sizeof(float));
    char *ping = calloc(bytes > 0 ? bytes : 1, 1);
    long *t = malloc(sizeof(long) * calls), *s = malloc(sizeof(long) * calls);
    MPI_Win win = MPI_WIN_NULL;
    char *base = NULL;
    if (!strcmp(call, "fence")) {
        base = calloc(8, 1);
        MPI_Win_create(base, 8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        MPI_Win_fence(0, win);
    }
    if (rank == 0)
        printf("# MPICH per-call times, %s of %d bytes, %d ranks: rep avg_us p50_us p99_us p99.9_us max_us "
               "share_of_time_in_calls_over_20us\n", call, bytes, size);
    for (int rep = -warmups; rep < reps; rep++) {
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < calls; i++) {
            long t0 = now_ns();
            if (!strcmp(call, "barrier")) MPI_Barrier(MPI_COMM_WORLD);
            else if (!strcmp(call, "fence")) MPI_Win_fence(0, win);
            else if (!strcmp(call, "pingpong")) {
                if (rank == 0) {
                    MPI_Send(ping, bytes, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
                    MPI_Recv(ping, bytes, MPI_BYTE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else if (rank == 1) {
                    MPI_Recv(ping, bytes, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(ping, bytes, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
                }
            } else MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
            t[i] = now_ns() - t0;
        }
        if (rep < 0 || rank != 0) continue;
        long sum = 0, slow = 0;
        for (int i = 0; i < calls; i++) {
            sum += t[i];
            if (t[i] > 20000) slow += t[i];
            s[i] = t[i];
        }
        qsort(s, calls, sizeof(long), cmp_long);
        printf("%d %.3f %.3f %.3f %.3f %.1f %.1f%%\n", rep, sum / 1e3 / calls, s[calls / 2] / 1e3,
               s[(int) (calls * 0.99)] / 1e3, s[(int) (calls * 0.999)] / 1e3, s[calls - 1] / 1e3,
               100.0 * slow / (sum > 0 ? sum : 1));
        fflush(stdout);
    }
    if (win != MPI_WIN_NULL) {
        MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
        MPI_Win_free(&win);
    }
    MPI_Finalize();
    return 0;
}
