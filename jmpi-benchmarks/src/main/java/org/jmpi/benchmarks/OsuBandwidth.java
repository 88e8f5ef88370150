package org.jmpi.benchmarks;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Uni-directional bandwidth from rank 0 to rank 1 with a window of 64 non-blocking sends, 1 B to 4 MiB: the Java twin
 * of the baseline's {@code mpi_bw.c} (same sizes, same iteration scheme: {@code iters_for(bytes, 2000) / 4}, at least
 * 10, plus 10 % warm-up; one buffer reused by every request of the window; a 4-byte acknowledgement after each
 * window). Prints {@code bytes MB_per_s iters messages_per_s} (MB = 1e6 bytes); the message rate of small sizes is
 * OSU's {@code osu_mbw_mr} for one pair. Options: see {@link Bench} ({@code --iters} is the base count, default 2000).
 */
public final class OsuBandwidth {
    static final int WINDOW = 64;

    private OsuBandwidth() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String[] all = new String[args.length + 2];
        all[0] = "--iters";
        all[1] = "2000";
        System.arraycopy(args, 0, all, 2, args.length);
        Bench b = new Bench(all, 1, 4 << 20);
        if (b.size != 2) {
            if (b.rank == 0) {
                System.out.println("OsuBandwidth needs exactly 2 ranks");
            }
            MPI.Finalize();
            return;
        }
        Object buf = b.bytes(b.max);
        int[] ack = new int[1];
        Request[] reqs = new Request[WINDOW];
        if (b.rank == 0) {
            System.out.printf("# jmpi bandwidth, window %d (%s): bytes  MB_per_s  iters  messages_per_s%n", WINDOW,
                    b.arrays ? "Java arrays" : "direct buffers");
        }
        Object other = b.bytes(b.max);
        Warmup.pingPong(b.rank, buf, other, b.max);
        windows(b, buf, ack, reqs, 8, 2000);
        b.warmUntilQuiet(() -> {
            for (int bytes : b.sizes()) {
                windows(b, buf, ack, reqs, bytes, Math.max(1, b.warmupCalls(bytes) / 10));
            }
        });
        for (int bytes : b.sizes()) {
            int iters = Math.max(b.itersFor(bytes) / 4, 10);
            int warm = Bench.warmupFor(iters);
            windows(b, buf, ack, reqs, bytes, warm);
            MPI.COMM_WORLD.barrier();
            double t0 = MPI.wtime();
            windows(b, buf, ack, reqs, bytes, iters);
            double t = MPI.wtime() - t0;
            if (b.rank == 0) {
                double messages = (double) WINDOW * iters / t;
                System.out.printf("%d %.2f %d %.0f%n", bytes, messages * bytes / 1e6, iters, messages);
                System.out.flush();
            }
        }
        MPI.Finalize();
    }

    private static void windows(Bench b, Object buf, int[] ack, Request[] reqs, int bytes, int n)
            throws MPIException {
        for (int i = 0; i < n; i++) {
            if (b.rank == 0) {
                for (int w = 0; w < WINDOW; w++) {
                    reqs[w] = MPI.COMM_WORLD.iSend(buf, bytes, MPI.BYTE, 1, 2);
                }
                Request.waitAll(reqs);
                MPI.COMM_WORLD.recv(ack, 1, MPI.INT, 1, 3);
            } else {
                for (int w = 0; w < WINDOW; w++) {
                    reqs[w] = MPI.COMM_WORLD.iRecv(buf, bytes, MPI.BYTE, 0, 2);
                }
                Request.waitAll(reqs);
                MPI.COMM_WORLD.send(ack, 1, MPI.INT, 0, 3);
            }
        }
    }
}
