package org.jmpi.examples;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;

/**
 * Ping-pong between ranks 0 and 1: one-way latency (half the round trip) and bandwidth for message sizes from
 * 1 B to 4 MiB (powers of two), with the iteration scheme of the C baseline program (many iterations for small
 * messages, fewer for large ones, 10 % warm-up). Options: {@code --max BYTES}, {@code --min BYTES},
 * {@code --iters-scale F} (multiply every iteration count), {@code --arrays} (byte[] instead of a direct buffer).
 */
public final class PingPong {
    private PingPong() {}

    static int iterations(long size) {
        if (size <= 8 * 1024) {
            return 20000;
        }
        if (size <= 64 * 1024) {
            return 5000;
        }
        if (size <= 1024 * 1024) {
            return 1000;
        }
        return 200;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        long max = 4L << 20;
        long min = 1;
        double scale = 1.0;
        boolean arrays = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--max" -> max = Long.parseLong(args[++i]);
                case "--min" -> min = Long.parseLong(args[++i]);
                case "--iters-scale" -> scale = Double.parseDouble(args[++i]);
                case "--arrays" -> arrays = true;
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (size < 2) {
            if (rank == 0) {
                System.out.println("PingPong needs at least 2 ranks");
            }
            MPI.Finalize();
            return;
        }
        Object buf = arrays ? new byte[(int) max] : ByteBuffer.allocateDirect((int) max);
        if (rank == 0) {
            System.out.printf("# jmpi PingPong, %s, 2 of %d ranks%n", arrays ? "byte[]" : "direct ByteBuffer", size);
            System.out.printf("# %10s %14s %14s%n", "bytes", "latency(us)", "bandwidth(MB/s)");
        }
        for (long n = min; n <= max; n *= 2) {
            int iters = Math.max(10, (int) (iterations(n) * scale));
            int warm = Math.max(1, iters / 10);
            double t0 = 0;
            for (int i = 0; i < iters + warm; i++) {
                if (i == warm) {
                    t0 = MPI.wtime();
                }
                if (rank == 0) {
                    MPI.COMM_WORLD.send(buf, (int) n, MPI.BYTE, 1, 1);
                    MPI.COMM_WORLD.recv(buf, (int) n, MPI.BYTE, 1, 1);
                } else if (rank == 1) {
                    MPI.COMM_WORLD.recv(buf, (int) n, MPI.BYTE, 0, 1);
                    MPI.COMM_WORLD.send(buf, (int) n, MPI.BYTE, 0, 1);
                }
            }
            double t = MPI.wtime() - t0;
            if (rank == 0) {
                double oneWay = t / iters / 2;
                System.out.printf("  %10d %14.3f %14.2f%n", n, oneWay * 1e6, n / oneWay / 1e6);
            }
        }
        MPI.Finalize();
    }
}
