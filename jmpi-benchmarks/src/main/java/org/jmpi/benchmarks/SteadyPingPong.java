package org.jmpi.benchmarks;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import mpi.MPI;
import mpi.MPIException;

/**
 * Issue 16's "a 60-second 8 B ping-pong runs with no young collection after warm-up": ranks 0 and 1 do blocking
 * {@code send}/{@code recv} round trips of one small message, first {@code WARM} of them, then for {@code SECONDS}
 * seconds, and each rank reports what its garbage collectors did in the timed part (collections and their total time,
 * from {@link GarbageCollectorMXBean}) and the bytes its thread allocated per round trip there. The loop ignores the
 * {@code Status} of each {@code recv}, as most programs do.
 *
 * <p>Usage: {@code jmpirun -n 2 -cp jmpi-benchmarks.jar org.jmpi.benchmarks.SteadyPingPong [SECONDS [KIND [BYTES
 * [WARM]]]]}, defaults 60, {@code bytes} ({@code byte[]}; or {@code direct}), 8 and 200,000. The clock is read once
 * every 4,096 round trips. Each rank prints {@code rank R round_trips N seconds S collections C gc_ms T
 * bytes_per_round_trip B}.
 */
public final class SteadyPingPong {
    private SteadyPingPong() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 60;
        String kind = args.length > 1 ? args[1] : "bytes";
        int bytes = args.length > 2 ? Bench.parseSize(args[2]) : 8;
        int warm = args.length > 3 ? Integer.parseInt(args[3]) : 200_000;
        int rank = MPI.COMM_WORLD.getRank();
        if (MPI.COMM_WORLD.getSize() != 2) {
            throw new IllegalArgumentException("SteadyPingPong needs exactly 2 ranks");
        }
        if (bytes < 1) {
            throw new IllegalArgumentException("BYTES must be at least 1 (the first byte says which round trip is the last)");
        }
        Object s;
        Object r;
        switch (kind) {
            case "bytes" -> {
                s = new byte[bytes];
                r = new byte[bytes];
            }
            case "direct" -> {
                s = ByteBuffer.allocateDirect(Math.max(bytes, 1)).order(ByteOrder.nativeOrder());
                r = ByteBuffer.allocateDirect(Math.max(bytes, 1)).order(ByteOrder.nativeOrder());
            }
            default -> throw new IllegalArgumentException("KIND is bytes or direct, not " + kind);
        }
        int peer = 1 - rank;
        loop(s, r, bytes, peer, rank, warm, -1);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] gc0 = collections();
        MPI.COMM_WORLD.barrier();
        long bytes0 = mx.getCurrentThreadAllocatedBytes();
        long t0 = System.nanoTime();
        // rank 0 decides when to stop (by the clock) and tells rank 1 in the message's first byte
        long n = loop(s, r, bytes, peer, rank, Long.MAX_VALUE, t0 + (long) (seconds * 1e9));
        long t1 = System.nanoTime();
        long allocated = mx.getCurrentThreadAllocatedBytes() - bytes0;
        long[] gc1 = collections();
        System.out.printf("rank %d round_trips %d seconds %.1f collections %d gc_ms %d bytes_per_round_trip %.2f%n",
                rank, n, (t1 - t0) / 1e9, gc1[0] - gc0[0], gc1[1] - gc0[1], (double) allocated / n);
        MPI.Finalize();
    }

    /** Round trips until {@code max} or (rank 0) the deadline; the last message carries 1 in its first byte. */
    private static long loop(Object s, Object r, int bytes, int peer, int rank, long max, long deadline)
            throws MPIException {
        long n = 0;
        boolean last = false;
        while (!last) {
            n++;
            if (rank == 0) {
                last = n == max || deadline > 0 && (n & 4095) == 0 && System.nanoTime() >= deadline;
                put(s, last);
                MPI.COMM_WORLD.send(s, bytes, MPI.BYTE, peer, 1);
                MPI.COMM_WORLD.recv(r, bytes, MPI.BYTE, peer, 1);
            } else {
                MPI.COMM_WORLD.recv(r, bytes, MPI.BYTE, peer, 1);
                last = get(r) || n == max;
                MPI.COMM_WORLD.send(s, bytes, MPI.BYTE, peer, 1);
            }
        }
        return n;
    }

    private static void put(Object buf, boolean last) {
        byte v = (byte) (last ? 1 : 0);
        if (buf instanceof byte[] a) {
            a[0] = v;
        } else {
            ((ByteBuffer) buf).put(0, v);
        }
    }

    private static boolean get(Object buf) {
        return (buf instanceof byte[] a ? a[0] : ((ByteBuffer) buf).get(0)) == 1;
    }

    /** Collections so far and their total time in ms, over every collector of this JVM. */
    private static long[] collections() {
        long count = 0;
        long ms = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
            ms += Math.max(0, gc.getCollectionTime());
        }
        return new long[] {count, ms};
    }
}
