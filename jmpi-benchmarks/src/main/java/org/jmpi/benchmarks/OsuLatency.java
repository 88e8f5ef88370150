package org.jmpi.benchmarks;

import mpi.MPI;
import mpi.MPIException;

/**
 * Ping-pong latency between ranks 0 and 1, 0 B to 4 MiB: the Java twin of the baseline's {@code mpi_pingpong.c}.
 * Prints {@code bytes one_way_latency_us iters} (half the round trip). Options: see {@link Bench} (the base
 * iteration count defaults to 20000, as in C).
 */
public final class OsuLatency {
    private OsuLatency() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String[] all = new String[args.length + 2];
        all[0] = "--iters";
        all[1] = "20000";
        System.arraycopy(args, 0, all, 2, args.length);
        Bench b = new Bench(all, 0, 4 << 20);
        if (b.size != 2) {
            if (b.rank == 0) {
                System.out.println("OsuLatency needs exactly 2 ranks");
            }
            MPI.Finalize();
            return;
        }
        Object s = b.bytes(b.max);
        Object r = b.bytes(b.max);
        int peer = 1 - b.rank;
        if (b.rank == 0) {
            System.out.printf("# jmpi ping-pong (%s): bytes  one_way_latency_us  iters%n",
                    b.arrays ? "Java arrays" : "direct buffers");
        }
        Warmup.pingPong(b.rank, s, r, b.max);
        b.warmUntilQuiet(() -> {
            for (int bytes : b.sizes()) {
                pingPong(b, s, r, bytes, peer, b.warmupCalls(bytes));
            }
        });
        for (int bytes : b.sizes()) {
            int iters = b.itersFor(bytes);
            int warm = Bench.warmupFor(iters);
            pingPong(b, s, r, bytes, peer, warm);
            MPI.COMM_WORLD.barrier();
            double t0 = MPI.wtime();
            pingPong(b, s, r, bytes, peer, iters);
            double t = MPI.wtime() - t0;
            if (b.rank == 0) {
                System.out.printf("%d %.3f %d%n", bytes, t * 1e6 / (2.0 * iters), iters);
                System.out.flush();
            }
        }
        MPI.Finalize();
    }

    private static void pingPong(Bench b, Object s, Object r, int bytes, int peer, int n) throws MPIException {
        for (int i = 0; i < n; i++) {
            if (b.rank == 0) {
                MPI.COMM_WORLD.send(s, bytes, MPI.BYTE, peer, 1);
                MPI.COMM_WORLD.recv(r, bytes, MPI.BYTE, peer, 1);
            } else {
                MPI.COMM_WORLD.recv(r, bytes, MPI.BYTE, peer, 1);
                MPI.COMM_WORLD.send(s, bytes, MPI.BYTE, peer, 1);
            }
        }
    }
}
