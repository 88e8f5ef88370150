/* C twin of org.jmpi.benchmarks.cold.NBody: all-pairs gravitational N-body. Bodies split in blocks across the ranks
 * (the first N % size ranks get one more); every rank keeps all N positions in one double[3 * N] (x, y, z per body),
 * refreshed each step by MPI_Allgatherv of the blocks, and the velocities of its own bodies. Bodies start at rest at
 * splitmix64-generated points of the unit cube, each of mass 1/N (G = 1, softening 0.01, time step 0.001);
 * kick-drift-kick leapfrog, one force evaluation per step (plus one before the first).
 * Usage: nbody [N [STEPS]], default 4096 and 20. Rank 0 prints
 * "RESULT nbody seconds=<s> check=<total kinetic energy at the end>". */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define DT 0.001
#define EPS2 1e-4

/* Accelerations of my bodies (global indices first..first+mine-1) from all N bodies (itself adds nothing). */
static void forces(const double *pos, int n, int first, int mine, double mass, double *acc) {
    for (int i = 0; i < mine; i++) {
        double xi = pos[3 * (first + i)];
        double yi = pos[3 * (first + i) + 1];
        double zi = pos[3 * (first + i) + 2];
        double ax = 0.0, ay = 0.0, az = 0.0;
        for (int j = 0; j < n; j++) {
            double dx = pos[3 * j] - xi;
            double dy = pos[3 * j + 1] - yi;
            double dz = pos[3 * j + 2] - zi;
            double r2 = dx * dx + dy * dy + dz * dz + EPS2;
            double s = mass / (r2 * sqrt(r2));
            ax += s * dx;
            ay += s * dy;
            az += s * dz;
        }
        acc[3 * i] = ax;
        acc[3 * i + 1] = ay;
        acc[3 * i + 2] = az;
    }
}

/* A double in [0, 1) from the (x+1)-th output of a splitmix64 generator started from state 0. */
static double uniform(uint64_t x) {
    uint64_t z = (x + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z = z ^ (z >> 31);
    return (double)(z >> 11) * 0x1.0p-53;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    int steps = argc > 2 ? atoi(argv[2]) : 20;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (n < size) {
        if (rank == 0) fprintf(stderr, "nbody needs N >= number of ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    /* blocks of bodies, counted in doubles (3 per body) for MPI_Allgatherv */
    int *counts = malloc(size * sizeof(int)), *displs = malloc(size * sizeof(int));
    for (int r = 0; r < size; r++) {
        counts[r] = 3 * (n / size + (r < n % size ? 1 : 0));
        displs[r] = r == 0 ? 0 : displs[r - 1] + counts[r - 1];
    }
    int first = displs[rank] / 3;
    int mine = counts[rank] / 3;
    double mass = 1.0 / n;

    double *pos = calloc(3 * (size_t)n, sizeof(double)); /* everybody's positions */
    double *my_pos = calloc(3 * (size_t)mine, sizeof(double));
    double *vel = calloc(3 * (size_t)mine, sizeof(double));
    double *acc = calloc(3 * (size_t)mine, sizeof(double));
    for (int k = 0; k < 3 * mine; k++) my_pos[k] = uniform(3ULL * first + k);

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_Allgatherv(my_pos, 3 * mine, MPI_DOUBLE, pos, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    forces(pos, n, first, mine, mass, acc);
    for (int step = 0; step < steps; step++) {
        for (int k = 0; k < 3 * mine; k++) {
            vel[k] += 0.5 * DT * acc[k];
            my_pos[k] += DT * vel[k];
        }
        MPI_Allgatherv(my_pos, 3 * mine, MPI_DOUBLE, pos, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
        forces(pos, n, first, mine, mass, acc);
        for (int k = 0; k < 3 * mine; k++) vel[k] += 0.5 * DT * acc[k];
    }
    double kinetic = 0.0, total = 0.0;
    for (int k = 0; k < 3 * mine; k++) kinetic += 0.5 * mass * vel[k] * vel[k];
    MPI_Reduce(&kinetic, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    double seconds = MPI_Wtime() - t0;

    if (rank == 0) printf("RESULT nbody seconds=%.6e check=%.10e\n", seconds, total);
    free(counts);
    free(displs);
    free(pos);
    free(my_pos);
    free(vel);
    free(acc);
    MPI_Finalize();
    return 0;
}
