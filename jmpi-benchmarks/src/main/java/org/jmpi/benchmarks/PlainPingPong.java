package org.jmpi.benchmarks;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

/**
 * "The plain one" of issue 16: a ping-pong as a new user writes it, with no preparation beyond its own warm-up.
 * Ranks 0 and 1 do {@code iters} untimed round trips of blocking {@code send}/{@code recv}, then {@code iters} timed
 * ones, at ONE message size, in one buffer kind, and the program ends: every size runs as its own JVMs, so nothing
 * has warmed up before (no other passes, no GC, no wait for the JIT). The C twin is {@code src/main/c/plain_pingpong.c}.
 *
 * <p>Usage: {@code jmpirun -n 2 -cp jmpi-benchmarks.jar org.jmpi.benchmarks.PlainPingPong KIND BYTES [ITERS]} with
 * KIND {@code bytes} (byte[]), {@code doubles} (double[], BYTES rounded down to whole doubles) or {@code direct}
 * (direct ByteBuffer). ITERS defaults to {@link #defaultIters}: 20,000 up to 64 KiB, 2,000 up to 256 KiB, 200 above
 * (as the "1 MiB: 200 + 200"). Rank 0 prints {@code kind bytes one_way_latency_us iters}.
 */
public final class PlainPingPong {
    private PlainPingPong() {}

    /** Warm-up and timed round trips for a message size (the same for the C twin). */
    static int defaultIters(long bytes) {
        return bytes <= 64 << 10 ? 20_000 : bytes <= 256 << 10 ? 2_000 : 200;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String kind = args[0];
        int bytes = Bench.parseSize(args[1]);
        int iters = args.length > 2 ? Integer.parseInt(args[2]) : defaultIters(bytes);
        int rank = MPI.COMM_WORLD.getRank();
        if (MPI.COMM_WORLD.getSize() != 2) {
            throw new IllegalArgumentException("PlainPingPong needs exactly 2 ranks");
        }
        Object s;
        Object r;
        Datatype type;
        int count;
        switch (kind) {
            case "bytes" -> {
                s = new byte[bytes];
                r = new byte[bytes];
                type = MPI.BYTE;
                count = bytes;
            }
            case "doubles" -> {
                s = new double[bytes / 8];
                r = new double[bytes / 8];
                type = MPI.DOUBLE;
                count = bytes / 8;
            }
            case "direct" -> {
                s = ByteBuffer.allocateDirect(Math.max(bytes, 1)).order(ByteOrder.nativeOrder());
                r = ByteBuffer.allocateDirect(Math.max(bytes, 1)).order(ByteOrder.nativeOrder());
                type = MPI.BYTE;
                count = bytes;
            }
            default -> throw new IllegalArgumentException("KIND is bytes, doubles or direct, not " + kind);
        }
        int peer = 1 - rank;
        pingPong(rank, s, r, count, type, peer, iters);
        double t0 = MPI.wtime();
        pingPong(rank, s, r, count, type, peer, iters);
        double t = MPI.wtime() - t0;
        if (rank == 0) {
            System.out.printf("%s %d %.3f %d%n", kind, bytes, t * 1e6 / (2.0 * iters), iters);
        }
        MPI.Finalize();
    }

    private static void pingPong(int rank, Object s, Object r, int count, Datatype type, int peer, int n)
            throws MPIException {
        for (int i = 0; i < n; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.send(s, count, type, peer, 1);
                MPI.COMM_WORLD.recv(r, count, type, peer, 1);
            } else {
                MPI.COMM_WORLD.recv(r, count, type, peer, 1);
                MPI.COMM_WORLD.send(s, count, type, peer, 1);
            }
        }
    }
}
