package org.jmpi.benchmarks;

import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * One-sided benchmarks in the OSU style between ranks 0 (origin) and 1 (target), the Java twin of
 * {@code src/main/c/mpi_rma.c}: {@code --test} one of
 * <ul>
 *   <li>{@code put_latency}, {@code get_latency}: one put (get) of each size and its synchronisation, per iteration
 *       (osu_put_latency / osu_get_latency); {@code --sync flush}: inside one lock(SHARED) epoch, put + flush;
 *       {@code --sync fence}: put + fence on both ranks (the fence cost is part of the figure).
 *   <li>{@code put_bw}, {@code get_bw}: 64 puts (gets) of each size then one flush (or fence), per iteration; MB/s.
 *   <li>{@code acc_latency}: accumulate of longs with SUM + flush (or fence).
 *   <li>{@code fop_latency}, {@code cas_latency}: fetchAndOp(SUM) / compareAndSwap of one long on a window made by the
 *       allocating constructor, each followed by a flush (they complete on return already).
 *   <li>{@code fence}: the cost of an empty fence epoch (fence + fence), per iteration.
 * </ul>
 * Prints {@code bytes latency_us iters} (or {@code bytes MB_per_s iters}). Options: see {@link Bench} (default base
 * iteration count 10000, sizes 8 B .. 4 MiB); {@code --sync flush|fence} (default flush).
 */
public final class OsuOneSided {
    private OsuOneSided() {}

    private static final int WINDOW = 64;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String test = "put_latency";
        String sync = "flush";
        java.util.List<String> rest = new java.util.ArrayList<>(java.util.List.of("--iters", "10000", "--min", "8"));
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--test" -> test = args[++i];
                case "--sync" -> sync = args[++i];
                default -> rest.add(args[i]);
            }
        }
        Bench b = new Bench(rest.toArray(String[]::new), 8, 4 << 20);
        if (b.size != 2) {
            if (b.rank == 0) {
                System.out.println("OsuOneSided needs exactly 2 ranks");
            }
            MPI.Finalize();
            return;
        }
        boolean fence = sync.equals("fence");
        boolean single = test.startsWith("fop") || test.startsWith("cas") || test.equals("fence");
        int max = single ? 8 : b.max;
        // fetchAndOp and compareAndSwap on a window the library allocates (MPI_Win_allocate, as in the C twin): in
        // shared memory when both ranks share the host; the others on a window over a direct buffer (MPI_Win_create)
        Win win = test.startsWith("fop") || test.startsWith("cas")
                ? new Win(max, 1, new Info(), MPI.COMM_WORLD, null, Win.FLAVOR_PRIVATE)
                : new Win(MPI.newByteBuffer(max), max, 1, new Info(), MPI.COMM_WORLD);
        ByteBuffer buf = MPI.newByteBuffer(max);
        if (b.rank == 0) {
            System.out.printf("# jmpi one-sided %s (%s): bytes  %s  iters%n", test, fence ? "fence" : "lock+flush",
                    test.endsWith("_bw") ? "MB_per_s" : "latency_us");
        }
        if (!fence) {
            if (b.rank == 0) {
                win.lock(MPI.LOCK_SHARED, 1, 0);
            }
        } else {
            win.fence(0);
        }
        int[] sizes = single ? new int[] {8} : b.sizes();
        final String t = test;
        final boolean fenced = fence;
        // untimed passes over every size until the JIT is quiet, a GC, and again (see Bench.warmUntilQuiet). Each
        // size ends with the barrier the timed sweep puts before its loops: without it the first timed size was the
        // first to mix barrier traffic (collective context, empty messages) into point-to-point code C2 had compiled
        // for one-sided traffic alone; the uncommon traps in Engine.isend/irecv/onFrame and MatchingQueues that
        // followed had it recompile while the first size was timed (7-9 us per 8-byte put + flush instead of 1.2)
        b.warmUntilQuiet(() -> {
            for (int bytes : sizes) {
                loop(t, win, buf, bytes, fenced, b.rank, Math.max(Bench.warmupFor(b.itersFor(bytes)), 1000));
                MPI.COMM_WORLD.barrier();
            }
        });
        for (int bytes : sizes) {
            int iters = b.itersFor(bytes);
            if (t.endsWith("_bw")) {
                iters = Math.max(10, iters / 4);
            }
            loop(t, win, buf, bytes, fence, b.rank, Bench.warmupFor(iters));
            MPI.COMM_WORLD.barrier();
            double t0 = MPI.wtime();
            loop(t, win, buf, bytes, fence, b.rank, iters);
            double el = MPI.wtime() - t0;
            if (b.rank == 0) {
                if (t.endsWith("_bw")) {
                    System.out.printf("%d %.2f %d%n", bytes, (double) WINDOW * iters * bytes / el / 1e6, iters);
                } else {
                    System.out.printf("%d %.3f %d%n", bytes, el * 1e6 / iters, iters);
                }
                System.out.flush();
            }
        }
        if (!fence) {
            if (b.rank == 0) {
                win.unlock(1);
            }
        } else {
            win.fence(MPI.MODE_NOSUCCEED);
        }
        MPI.COMM_WORLD.barrier();
        win.free();
        MPI.Finalize();
    }

    private static void loop(String test, Win win, ByteBuffer buf, int bytes, boolean fence, int rank, int n)
            throws MPIException {
        LongBuffer one = MPI.newLongBuffer(1);
        one.put(0, 1);
        LongBuffer res = MPI.newLongBuffer(1);
        LongBuffer cmp = MPI.newLongBuffer(1);
        int longs = Math.max(1, bytes / 8);
        for (int i = 0; i < n; i++) {
            if (rank == 0) {
                switch (test) {
                    case "put_latency" -> win.put(buf, bytes, MPI.BYTE, 1, 0, bytes, MPI.BYTE);
                    case "get_latency" -> win.get(buf, bytes, MPI.BYTE, 1, 0, bytes, MPI.BYTE);
                    case "put_bw" -> {
                        for (int w = 0; w < WINDOW; w++) {
                            win.put(buf, bytes, MPI.BYTE, 1, 0, bytes, MPI.BYTE);
                        }
                    }
                    case "get_bw" -> {
                        for (int w = 0; w < WINDOW; w++) {
                            win.get(buf, bytes, MPI.BYTE, 1, 0, bytes, MPI.BYTE);
                        }
                    }
                    case "acc_latency" -> win.accumulate(buf, longs, MPI.LONG, 1, 0, longs, MPI.LONG, MPI.SUM);
                    case "fop_latency" -> win.fetchAndOp(one, res, MPI.LONG, 1, 0, MPI.SUM);
                    case "cas_latency" -> win.compareAndSwap(one, cmp, res, MPI.LONG, 1, 0);
                    case "fence" -> { }
                    default -> throw new IllegalArgumentException("unknown --test " + test);
                }
                if (!fence) {
                    win.flush(1);
                }
            }
            if (fence) {
                win.fence(0);
            }
        }
    }
}
