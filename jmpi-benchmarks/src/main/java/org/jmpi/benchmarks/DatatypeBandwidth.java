package org.jmpi.benchmarks;

import java.nio.DoubleBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

/**
 * What a derived datatype costs: ping-pong between ranks 0 and 1 of 1 MiB of doubles laid out contiguously, as a
 * matrix column and as sub-matrices, sent with one call each, against the same 1 MiB sent contiguously. Also times
 * {@code Comm.pack} of each layout alone. Each figure is the median (and the best) of {@code --reps} runs of
 * {@code --iters} round trips; one-way time is half a round trip. Repetitions interleave the layouts, and "vs
 * contig" is the median over repetitions of the ratio to the contiguous layout in the same repetition.
 *
 * <p>Options: {@code --reps N} (default 11), {@code --iters N} (default 50), {@code --direct} (direct buffers instead
 * of {@code double[]}), {@code --mib N} (payload size, default 1).
 */
public final class DatatypeBandwidth {
    private DatatypeBandwidth() {}

    /** One layout: the type and count to send a payload with, and a buffer big enough for it. */
    private record Layout(String name, Datatype type, int count, int bufferDoubles, boolean receiveSame) {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int reps = 11;
        int iters = 50;
        boolean direct = false;
        int mib = 1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--reps" -> reps = Integer.parseInt(args[++i]);
                case "--iters" -> iters = Integer.parseInt(args[++i]);
                case "--direct" -> direct = true;
                case "--mib" -> mib = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (size < 2) {
            if (rank == 0) {
                System.out.println("DatatypeBandwidth needs 2 ranks");
            }
            MPI.Finalize();
            return;
        }
        int n = mib * (1 << 17); // doubles in the payload
        List<Layout> layouts = new ArrayList<>();
        layouts.add(new Layout("contiguous (n x DOUBLE)", MPI.DOUBLE, n, n, true));
        for (int stride : new int[] {2, 16, 128}) {
            Datatype column = Datatype.createVector(n, 1, stride, MPI.DOUBLE);
            column.commit();
            layouts.add(new Layout("column, stride " + stride + " -> contiguous", column, 1, (n - 1) * stride + 1,
                    false));
            layouts.add(new Layout("column, stride " + stride + " -> column", column, 1, (n - 1) * stride + 1, true));
        }
        for (int row : new int[] {8, 512}) {
            Datatype block = Datatype.createVector(n / row, row, 2 * row, MPI.DOUBLE);
            block.commit();
            layouts.add(new Layout("sub-matrix, rows of " + row + " -> sub-matrix", block, 1, n * 2, true));
        }
        Datatype every2 = Datatype.createResized(MPI.DOUBLE, 0, 2);
        every2.commit();
        layouts.add(new Layout("resized DOUBLE (extent 2), count n -> same", every2, n, 2 * n, true));

        if (rank == 0) {
            System.out.printf("# jmpi DatatypeBandwidth: %d MiB payload, %s, median of %d x %d round trips%n", mib,
                    direct ? "direct DoubleBuffer" : "double[]", reps, iters);
            System.out.printf("# %-42s %12s %10s %10s %10s %14s%n", "layout", "one-way(us)", "best(us)", "MB/s",
                    "vs contig", "pack-only(us)");
        }
        // repetitions interleave the layouts, so that load from elsewhere hits all of them alike; the ratio to
        // contiguous is taken within each repetition, then its median reported
        int m = layouts.size();
        Object[] sendBufs = new Object[m];
        Object[] recvBufs = new Object[m];
        for (int k = 0; k < m; k++) {
            Layout l = layouts.get(k);
            sendBufs[k] = buffer(l.bufferDoubles, direct);
            recvBufs[k] = l.receiveSame ? buffer(l.bufferDoubles, direct) : buffer(n, direct);
        }
        double[][] times = new double[m][reps];
        for (int r = -1; r < reps; r++) { // r = -1: warm-up
            for (int k = 0; k < m; k++) {
                Layout l = layouts.get(k);
                Datatype recvType = l.receiveSame ? l.type : MPI.DOUBLE;
                int recvCount = l.receiveSame ? l.count : n;
                MPI.COMM_WORLD.barrier();
                double t0 = MPI.wtime();
                for (int i = 0; i < iters; i++) {
                    if (rank == 0) {
                        MPI.COMM_WORLD.send(sendBufs[k], l.count, l.type, 1, 1);
                        MPI.COMM_WORLD.recv(recvBufs[k], recvCount, recvType, 1, 1);
                    } else if (rank == 1) {
                        MPI.COMM_WORLD.recv(recvBufs[k], recvCount, recvType, 0, 1);
                        MPI.COMM_WORLD.send(sendBufs[k], l.count, l.type, 0, 1);
                    }
                }
                if (r >= 0) {
                    times[k][r] = (MPI.wtime() - t0) / iters / 2;
                }
            }
        }
        for (int k = 0; k < m; k++) {
            Layout l = layouts.get(k);
            double packOnly = rank == 0 ? packTime(sendBufs[k], l, reps, iters) : 0;
            if (rank == 0) {
                double t = median(times[k]);
                double[] ratios = new double[reps];
                for (int r = 0; r < reps; r++) {
                    ratios[r] = times[k][r] / times[0][r];
                }
                System.out.printf("  %-42s %12.1f %10.1f %10.0f %10.2f %14.1f%n", l.name, t * 1e6,
                        Arrays.stream(times[k]).min().orElse(0) * 1e6, 8.0 * n / t / 1e6, median(ratios),
                        packOnly * 1e6);
            }
        }
        MPI.Finalize();
    }

    private static Object buffer(int doubles, boolean direct) {
        if (direct) {
            DoubleBuffer b = MPI.newDoubleBuffer(doubles);
            for (int i = 0; i < doubles; i++) {
                b.put(i, i);
            }
            return b;
        }
        double[] a = new double[doubles];
        Arrays.setAll(a, i -> i);
        return a;
    }

    /** Median time of one {@code Comm.pack} of the layout into a byte array. */
    private static double packTime(Object buf, Layout l, int reps, int iters) throws MPIException {
        byte[] out = new byte[MPI.COMM_WORLD.packSize(l.count, l.type)];
        double[] times = new double[reps];
        for (int r = -1; r < reps; r++) {
            double t0 = MPI.wtime();
            for (int i = 0; i < iters; i++) {
                MPI.COMM_WORLD.pack(buf, l.count, l.type, out, 0);
            }
            if (r >= 0) {
                times[r] = (MPI.wtime() - t0) / iters;
            }
        }
        return median(times);
    }

    private static double median(double[] a) {
        double[] s = a.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
