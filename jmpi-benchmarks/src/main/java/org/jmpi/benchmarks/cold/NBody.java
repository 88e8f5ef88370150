package org.jmpi.benchmarks.cold;

import java.nio.DoubleBuffer;
import mpi.MPI;
import mpi.MPIException;

/**
 * All-pairs gravitational N-body, as a textbook writes it. The bodies are split in blocks across the ranks (the first
 * {@code N % size} ranks get one more); every rank keeps all N positions in one {@code double[3 * N]} (x, y, z per
 * body), refreshed each step by an {@code allGatherv} of the blocks (into a direct buffer, then copied), and the
 * velocities of its own bodies. The bodies start at rest at splitmix64-generated points of the unit cube, each of
 * mass 1/N (G = 1, softening 0.01, time step 0.001); the integrator is kick-drift-kick leapfrog, one force evaluation
 * per step (plus one before the first).
 *
 * <p>Usage: {@code NBody [N [STEPS]]}, default N = 4096 and STEPS = 20; needs N &ge; number of ranks. Rank 0 prints
 * {@code RESULT nbody seconds=<s> check=<kinetic energy>}, the total kinetic energy at the end summed by
 * {@code reduce}; the forces are the same at every rank count, only the order of that final sum differs. The C twin
 * is {@code src/main/c/cold/nbody.c}.
 */
public final class NBody {
    private static final double DT = 0.001;
    private static final double EPS2 = 1e-4;

    private NBody() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 4096;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (n < size) {
            throw new IllegalArgumentException("NBody needs N >= number of ranks");
        }

        // blocks of bodies, counted in doubles (3 per body) for allGatherv
        int[] counts = new int[size];
        int[] displs = new int[size];
        for (int r = 0; r < size; r++) {
            counts[r] = 3 * (n / size + (r < n % size ? 1 : 0));
            displs[r] = r == 0 ? 0 : displs[r - 1] + counts[r - 1];
        }
        int first = displs[rank] / 3;
        int mine = counts[rank] / 3;
        double mass = 1.0 / n;

        double[] pos = new double[3 * n]; // everybody's positions
        // gathered into a direct buffer: Open MPI's Java bindings (4.1) mis-size their temporary copy of a Java
        // array in the v-collectives (displacement times count of the last block), a direct buffer they pass on
        DoubleBuffer gathered = MPI.newDoubleBuffer(3 * n);
        double[] myPos = new double[3 * mine];
        double[] vel = new double[3 * mine];
        double[] acc = new double[3 * mine];
        for (int k = 0; k < 3 * mine; k++) {
            myPos[k] = uniform(3L * first + k);
        }

        MPI.COMM_WORLD.barrier();
        double t0 = MPI.wtime();
        MPI.COMM_WORLD.allGatherv(myPos, 3 * mine, MPI.DOUBLE, gathered, counts, displs, MPI.DOUBLE);
        gathered.get(0, pos);
        forces(pos, n, first, mine, mass, acc);
        for (int step = 0; step < steps; step++) {
            for (int k = 0; k < 3 * mine; k++) {
                vel[k] += 0.5 * DT * acc[k];
                myPos[k] += DT * vel[k];
            }
            MPI.COMM_WORLD.allGatherv(myPos, 3 * mine, MPI.DOUBLE, gathered, counts, displs, MPI.DOUBLE);
            gathered.get(0, pos);
            forces(pos, n, first, mine, mass, acc);
            for (int k = 0; k < 3 * mine; k++) {
                vel[k] += 0.5 * DT * acc[k];
            }
        }
        double[] kinetic = new double[1];
        for (int k = 0; k < 3 * mine; k++) {
            kinetic[0] += 0.5 * mass * vel[k] * vel[k];
        }
        double[] total = new double[1];
        MPI.COMM_WORLD.reduce(kinetic, total, 1, MPI.DOUBLE, MPI.SUM, 0);
        double seconds = MPI.wtime() - t0;

        if (rank == 0) {
            System.out.printf("RESULT nbody seconds=%.6e check=%.10e%n", seconds, total[0]);
        }
        MPI.Finalize();
    }

    /** Accelerations of my bodies (global indices first..first+mine-1) from all N bodies (itself adds nothing). */
    static void forces(double[] pos, int n, int first, int mine, double mass, double[] acc) {
        for (int i = 0; i < mine; i++) {
            double xi = pos[3 * (first + i)];
            double yi = pos[3 * (first + i) + 1];
            double zi = pos[3 * (first + i) + 2];
            double ax = 0.0;
            double ay = 0.0;
            double az = 0.0;
            for (int j = 0; j < n; j++) {
                double dx = pos[3 * j] - xi;
                double dy = pos[3 * j + 1] - yi;
                double dz = pos[3 * j + 2] - zi;
                double r2 = dx * dx + dy * dy + dz * dz + EPS2;
                double s = mass / (r2 * Math.sqrt(r2));
                ax += s * dx;
                ay += s * dy;
                az += s * dz;
            }
            acc[3 * i] = ax;
            acc[3 * i + 1] = ay;
            acc[3 * i + 2] = az;
        }
    }

    /** A double in [0, 1) from the (x+1)-th output of a splitmix64 generator started from state 0. */
    static double uniform(long x) {
        long z = (x + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z = z ^ (z >>> 31);
        return (z >>> 11) * 0x1.0p-53;
    }
}
