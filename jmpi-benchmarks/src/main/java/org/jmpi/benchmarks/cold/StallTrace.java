package org.jmpi.benchmarks.cold;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.MPI;
import mpi.MPIException;

/**
 * A cold loop that times every iteration and names the slow ones: what a benchmark's mean hides. Each rank runs
 * {@code ITERS} iterations of one case after a barrier, records each iteration's time, and prints a summary and every
 * stall (an iteration slower than {@code max(THRESHOLD_US, 10 x the median)}) with the wall-clock millisecond at which
 * it started, so that it can be laid beside the JVM's own logs with {@code timemillis} decorations (compilations,
 * collections, safepoints): {@code jmpi-benchmarks/scripts/stall-trace.sh} does that. Stalls that fall at the same
 * iterations in every run are events of the program's own making (a compilation when a method crosses its
 * threshold, a rare branch of the library taken every n-th call); the others are the machine's.
 *
 * <p>Cases: {@code pingpong BYTES} (rank 0 sends and receives a {@code byte[]}, rank 1 answers), {@code bcast BYTES}
 * (from rank 0, {@code byte[]}), {@code allreduce DOUBLES} (sum of a {@code double[]}), {@code halo N} (one step of a
 * 2-D Jacobi on an N x N grid split by rows, as {@link Jacobi2d} does it: two {@code sendRecv} of a row and an
 * {@code allReduce} of the residual).
 * Usage: {@code StallTrace CASE PARAM ITERS [THRESHOLD_US=500]}. Output, one line each, per rank: {@code SUMMARY
 * rank=R pid=P case=C iters=N total_ms=T median_us=M excess_ms=E stalls=K}, then {@code STALL rank=R pid=P it=I
 * at_ms=W dur_ms=D} for each stall.
 */
public final class StallTrace {
    private StallTrace() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        if (args.length < 3) {
            throw new IllegalArgumentException("usage: StallTrace pingpong|bcast|allreduce|halo PARAM ITERS [US]");
        }
        String kind = args[0];
        int param = Integer.parseInt(args[1]);
        int iters = Integer.parseInt(args[2]);
        double thresholdUs = args.length > 3 ? Double.parseDouble(args[3]) : 500;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Step step = switch (kind) {
            case "pingpong" -> pingPong(rank, param);
            case "bcast" -> bcast(param);
            case "allreduce" -> allReduce(param);
            case "halo" -> halo(rank, size, param);
            default -> throw new IllegalArgumentException("unknown case " + kind);
        };
        long[] t = new long[iters + 1];
        MPI.COMM_WORLD.barrier();
        long epochMs = System.currentTimeMillis();
        long n0 = System.nanoTime();
        for (int i = 0; i < iters; i++) {
            t[i] = System.nanoTime();
            step.run();
        }
        t[iters] = System.nanoTime();
        double[] us = new double[iters];
        for (int i = 0; i < iters; i++) {
            us[i] = (t[i + 1] - t[i]) / 1e3;
        }
        double[] sorted = us.clone();
        Arrays.sort(sorted);
        double median = sorted[iters / 2];
        double limit = Math.max(thresholdUs, 10 * median);
        long pid = ProcessHandle.current().pid();
        List<String> lines = new ArrayList<>();
        double excess = 0;
        for (int i = 0; i < iters; i++) {
            excess += Math.max(0, us[i] - median);
            if (us[i] > limit) {
                lines.add(String.format("STALL rank=%d pid=%d it=%d at_ms=%.1f dur_ms=%.2f%n", rank, pid, i,
                        epochMs + (t[i] - n0) / 1e6, us[i] / 1e3));
            }
        }
        lines.addFirst(String.format("SUMMARY rank=%d pid=%d case=%s-%d iters=%d total_ms=%.2f median_us=%.2f "
                + "excess_ms=%.2f stalls=%d%n", rank, pid, kind, param, iters, (t[iters] - t[0]) / 1e6, median,
                excess / 1e3, lines.size()));
        for (String line : lines) { // one write per line: a launcher that merges the ranks' output keeps lines whole
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            System.out.write(b, 0, b.length);
            System.out.flush();
        }
        MPI.Finalize();
    }

    /** One iteration of a case. */
    private interface Step {
        void run() throws MPIException;
    }

    private static Step pingPong(int rank, int bytes) {
        byte[] b = new byte[bytes];
        return rank == 0 ? () -> {
            MPI.COMM_WORLD.send(b, bytes, MPI.BYTE, 1, 1);
            MPI.COMM_WORLD.recv(b, bytes, MPI.BYTE, 1, 1);
        } : rank == 1 ? () -> {
            MPI.COMM_WORLD.recv(b, bytes, MPI.BYTE, 0, 1);
            MPI.COMM_WORLD.send(b, bytes, MPI.BYTE, 0, 1);
        } : () -> { };
    }

    private static Step bcast(int bytes) {
        byte[] b = new byte[bytes];
        return () -> MPI.COMM_WORLD.bcast(b, bytes, MPI.BYTE, 0);
    }

    private static Step allReduce(int n) {
        double[] in = new double[n];
        double[] out = new double[n];
        return () -> MPI.COMM_WORLD.allReduce(in, out, n, MPI.DOUBLE, MPI.SUM);
    }

    private static Step halo(int rank, int size, int n) {
        int rows = n / size + (rank < n % size ? 1 : 0);
        int up = rank > 0 ? rank - 1 : MPI.PROC_NULL;
        int down = rank < size - 1 ? rank + 1 : MPI.PROC_NULL;
        double[][][] grids = {new double[rows + 2][n + 2], new double[rows + 2][n + 2]};
        double[] local = new double[1];
        double[] residual = new double[1];
        int[] which = {0};
        return () -> {
            double[][] u = grids[which[0]];
            double[][] v = grids[1 - which[0]];
            MPI.COMM_WORLD.sendRecv(u[1], n + 2, MPI.DOUBLE, up, 0, u[rows + 1], n + 2, MPI.DOUBLE, down, 0);
            MPI.COMM_WORLD.sendRecv(u[rows], n + 2, MPI.DOUBLE, down, 1, u[0], n + 2, MPI.DOUBLE, up, 1);
            if (rank == 0) {
                Arrays.fill(u[0], 1.0);
            }
            local[0] = Jacobi2d.sweep(u, v, rows, n);
            MPI.COMM_WORLD.allReduce(local, residual, 1, MPI.DOUBLE, MPI.SUM);
            which[0] = 1 - which[0];
        };
    }
}
