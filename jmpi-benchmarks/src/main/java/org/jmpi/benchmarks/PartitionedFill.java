package org.jmpi.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;

/**
 * MPI 4.0's partitioned send against a join and one send: rank 0 fills 1 MiB of doubles in 16 parts with 4 threads
 * (a few floating-point operations per element), rank 1 receives it and answers with one byte; 20 untimed and 200
 * timed iterations after a barrier, in a fresh pair of JVMs. {@code partitioned}: {@code pSendInit}/{@code pRecvInit}
 * once, each part marked ready by its thread as soon as it is filled; {@code plain}: the threads fill, rank 0 joins
 * them and sends the whole with {@code send}.
 *
 * <p>Usage: {@code jmpirun -n 2 -cp jmpi-benchmarks.jar org.jmpi.benchmarks.PartitionedFill partitioned|plain}; rank 0
 * prints {@code MODE us/iter=<mean>}.
 */
public final class PartitionedFill {
    private static final int PARTS = 16;
    private static final int PER_PART = 8192;
    private static final int THREADS = 4;

    private PartitionedFill() {}

    static void fill(double[] a, int part, int iteration) {
        for (int i = part * PER_PART; i < (part + 1) * PER_PART; i++) {
            a[i] = Math.sqrt(i + iteration) * 1.0001 + Math.cbrt(i);
        }
    }

    public static void main(String[] args) throws MPIException, InterruptedException, ExecutionException {
        MPI.InitThread(args, MPI.THREAD_MULTIPLE);
        boolean partitioned = args[0].equals("partitioned");
        int rank = MPI.COMM_WORLD.getRank();
        int warm = 20;
        int iters = 200;
        double[] a = new double[PARTS * PER_PART];
        byte[] ack = new byte[1];
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        Prequest p = !partitioned ? null : rank == 0 ? MPI.COMM_WORLD.pSendInit(a, PARTS, PER_PART, MPI.DOUBLE, 1, 0)
                : MPI.COMM_WORLD.pRecvInit(a, PARTS, PER_PART, MPI.DOUBLE, 0, 0);
        long t0 = 0;
        for (int it = 0; it < warm + iters; it++) {
            if (it == warm) {
                MPI.COMM_WORLD.barrier();
                t0 = System.nanoTime();
            }
            int iteration = it;
            if (rank == 0) {
                if (p != null) {
                    p.start();
                }
                List<Callable<Object>> jobs = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int first = t;
                    jobs.add(() -> {
                        for (int q = first; q < PARTS; q += THREADS) {
                            fill(a, q, iteration);
                            if (p != null) {
                                p.pReady(q);
                            }
                        }
                        return null;
                    });
                }
                for (Future<Object> f : pool.invokeAll(jobs)) {
                    f.get();
                }
                if (p != null) {
                    p.waitFor();
                } else {
                    MPI.COMM_WORLD.send(a, a.length, MPI.DOUBLE, 1, 0);
                }
                MPI.COMM_WORLD.recv(ack, 1, MPI.BYTE, 1, 1);
            } else {
                if (p != null) {
                    p.start();
                    p.waitFor();
                } else {
                    MPI.COMM_WORLD.recv(a, a.length, MPI.DOUBLE, 0, 0);
                }
                MPI.COMM_WORLD.send(ack, 1, MPI.BYTE, 0, 1);
            }
        }
        if (rank == 0) {
            System.out.printf("%s us/iter=%.1f%n", args[0], (System.nanoTime() - t0) / 1e3 / iters);
        }
        pool.shutdown();
        if (p != null) {
            p.free();
        }
        MPI.Finalize();
    }
}
