package org.jmpi.benchmarks;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Bi-directional bandwidth between ranks 0 and 1, window of 64 in each direction, 1 B to 4 MiB (OSU's
 * {@code osu_bibw}, with the iteration scheme of the baseline's {@code mpi_bw.c}): each rank posts 64 receives and
 * 64 sends, then waits for all; the bytes moved in both directions over the time give the rate. Its C twin is
 * {@code src/main/c/mpi_bibw.c}. Prints {@code bytes MB_per_s iters} (MB = 1e6 bytes). Options: see {@link Bench}
 * ({@code --iters} is the base count, default 2000).
 */
public final class OsuBiBandwidth {
    static final int WINDOW = 64;

    private OsuBiBandwidth() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String[] all = new String[args.length + 2];
        all[0] = "--iters";
        all[1] = "2000";
        System.arraycopy(args, 0, all, 2, args.length);
        Bench b = new Bench(all, 1, 4 << 20);
        if (b.size != 2) {
            if (b.rank == 0) {
                System.out.println("OsuBiBandwidth needs exactly 2 ranks");
            }
            MPI.Finalize();
            return;
        }
        Object out = b.bytes(b.max);
        Object in = b.bytes(b.max);
        Request[] reqs = new Request[2 * WINDOW];
        if (b.rank == 0) {
            System.out.printf("# jmpi bi-directional bandwidth, window %d (%s): bytes  MB_per_s  iters%n", WINDOW,
                    b.arrays ? "Java arrays" : "direct buffers");
        }
        Warmup.pingPong(b.rank, out, in, b.max);
        windows(b, out, in, reqs, 8, 2000);
        b.warmUntilQuiet(() -> {
            for (int bytes : b.sizes()) {
                windows(b, out, in, reqs, bytes, Math.max(1, b.warmupCalls(bytes) / 10));
            }
        });
        for (int bytes : b.sizes()) {
            int iters = Math.max(b.itersFor(bytes) / 4, 10);
            int warm = Bench.warmupFor(iters);
            windows(b, out, in, reqs, bytes, warm);
            MPI.COMM_WORLD.barrier();
            double t0 = MPI.wtime();
            windows(b, out, in, reqs, bytes, iters);
            double t = MPI.wtime() - t0;
            if (b.rank == 0) {
                System.out.printf("%d %.2f %d%n", bytes, 2.0 * WINDOW * iters * bytes / t / 1e6, iters);
                System.out.flush();
            }
        }
        MPI.Finalize();
    }

    private static void windows(Bench b, Object out, Object in, Request[] reqs, int bytes, int n)
            throws MPIException {
        int peer = 1 - b.rank;
        for (int i = 0; i < n; i++) {
            for (int w = 0; w < WINDOW; w++) {
                reqs[w] = MPI.COMM_WORLD.iRecv(in, bytes, MPI.BYTE, peer, 4);
            }
            for (int w = 0; w < WINDOW; w++) {
                reqs[WINDOW + w] = MPI.COMM_WORLD.iSend(out, bytes, MPI.BYTE, peer, 4);
            }
            Request.waitAll(reqs);
        }
    }
}
