package org.jmpi.benchmarks;

import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * A short job of many different calls, as a test or a small tool runs one: for 1, 100, 3,000 and 6,000 ints, four
 * rounds, every root in turn, a bcast on an int[] and on a direct buffer, a reduce, a gather and a scatter, each
 * result checked element by element in the program's own code. About 80 collectives per rank count, in well under a
 * second; nothing is warm when it starts, and it ends before the JIT has finished with jmpi or with itself.
 *
 * <p>What it is for: the cost of JIT settings that help a long benchmark's timed part but make a short job longer
 * (blocking compilations of the message path, tried and dropped on 2026-11-25: this loop took 0.73-0.88 s instead of
 * 0.36-0.54 s at 2 ranks). Its figure is the loop's time, from after {@code MPI.Init} to after the last barrier; the
 * whole process's time is what a gate or a shell measures around it.
 *
 * <p>Usage: {@code jmpirun -n P -cp jmpi-benchmarks.jar org.jmpi.benchmarks.ShortJob}; rank 0 prints
 * {@code shortjob P loop_seconds}. A wrong result throws (the job fails).
 */
public final class ShortJob {
    private ShortJob() {}

    private static void check(boolean ok, String what, int count, int root, int i) {
        if (!ok) {
            throw new IllegalStateException(what + ": count " + count + " root " + root + " element " + i);
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        long t0 = System.nanoTime();
        Intracomm w = MPI.COMM_WORLD;
        int p = w.getSize();
        int r = w.getRank();
        for (int count : new int[] {1, 100, 3000, 6000}) {
            for (int round = 0; round < 4; round++) {
                for (int root = 0; root < p; root++) {
                    int seed = round * 1000 + root * 10 + count;
                    int[] a = new int[count];
                    IntBuffer d = MPI.newIntBuffer(count);
                    if (r == root) {
                        for (int i = 0; i < count; i++) {
                            a[i] = seed + i;
                            d.put(i, seed - i);
                        }
                    }
                    w.bcast(a, count, MPI.INT, root);
                    w.bcast(d, count, MPI.INT, root);
                    for (int i = 0; i < count; i++) {
                        check(a[i] == seed + i, "bcast", count, root, i);
                        check(d.get(i) == seed - i, "bcast (direct)", count, root, i);
                    }
                    int[] in = new int[count];
                    for (int i = 0; i < count; i++) {
                        in[i] = seed + r * 7 + i;
                    }
                    int[] sum = new int[count];
                    w.reduce(in, sum, count, MPI.INT, MPI.SUM, root);
                    int[] all = new int[p * count];
                    w.gather(in, count, MPI.INT, all, count, MPI.INT, root);
                    if (r == root) {
                        for (int i = 0; i < count; i++) {
                            check(sum[i] == p * (seed + i) + 7 * p * (p - 1) / 2, "reduce", count, root, i);
                            for (int q = 0; q < p; q++) {
                                check(all[q * count + i] == seed + q * 7 + i, "gather", count, root, i);
                            }
                        }
                    }
                    int[] source = new int[p * count];
                    if (r == root) {
                        for (int i = 0; i < p * count; i++) {
                            source[i] = seed * 3 + i;
                        }
                    }
                    int[] mine = new int[count];
                    w.scatter(source, count, MPI.INT, mine, count, MPI.INT, root);
                    for (int i = 0; i < count; i++) {
                        check(mine[i] == seed * 3 + r * count + i, "scatter", count, root, i);
                    }
                }
            }
        }
        w.barrier();
        if (r == 0) {
            System.out.printf("shortjob %d %.3f%n", p, (System.nanoTime() - t0) / 1e9);
        }
        MPI.Finalize();
    }
}
