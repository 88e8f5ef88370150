package org.jmpi.benchmarks;

import mpi.MPI;
import mpi.MPIException;

/**
 * MPI_Bcast from rank 0, 4 B to 16 MiB: the Java twin of the baseline's {@code mpi_bcast.c}. Every broadcast is
 * followed by a zero-byte acknowledgement from each other rank to the root, so that the root cannot run ahead; the
 * one-way zero-byte latency (half a zero-byte ping-pong with rank 1) is measured the same way and subtracted. Prints
 * {@code bytes bcast_us(corrected) bcast+ack_cycle_us oneway0B_us iters} on rank 0. Options: see {@link Bench}.
 */
public final class OsuBcast {
    private OsuBcast() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Bench b = new Bench(args, 4, 16 << 20);
        Object buf = b.bytes(b.max);
        if (b.size < 2) {
            System.out.println("OsuBcast needs at least 2 ranks");
            MPI.Finalize();
            return;
        }
        if (b.rank == 0) {
            System.out.printf("# jmpi bcast root 0, %d ranks (%s): bytes  bcast_us(corrected)  bcast+ack_cycle_us  "
                    + "oneway0B_us  iters%n", b.size, b.arrays ? "Java arrays" : "direct buffers");
        }
        loop(b, buf, 4, 0, 20_000, true); // JIT warm-up (Warmup's reasons)
        loop(b, buf, 0, 0, 20_000, false);
        b.warmUntilQuiet(() -> {
            for (int bytes : b.sizes()) {
                // both loops the sweep times: with the acknowledgement-only loop left cold, the first size's one-way
                // latency came out too long, and its bcast time (the difference) negative
                loop(b, buf, bytes, 0, b.warmupCalls(bytes), false);
                loop(b, buf, bytes, 0, b.warmupCalls(bytes), true);
            }
        });
        for (int bytes : b.sizes()) {
            int iters = b.itersFor(bytes);
            int warm = Bench.warmupFor(iters);
            double ack = loop(b, buf, bytes, warm, iters, false) / 2;
            double both = loop(b, buf, bytes, warm, iters, true);
            if (b.rank == 0) {
                System.out.printf("%d %.3f %.3f %.3f %d%n", bytes, both - ack, both, ack, iters);
                System.out.flush();
            }
        }
        MPI.Finalize();
    }

    private static double loop(Bench b, Object buf, int bytes, int warm, int iters, boolean bcast)
            throws MPIException {
        double t0 = 0;
        MPI.COMM_WORLD.barrier();
        for (int i = 0; i < warm + iters; i++) {
            if (i == warm) {
                MPI.COMM_WORLD.barrier();
                t0 = MPI.wtime();
            }
            if (bcast) {
                MPI.COMM_WORLD.bcast(buf, bytes, MPI.BYTE, 0);
            } else if (b.rank == 0) {
                MPI.COMM_WORLD.send(null, 0, MPI.BYTE, 1, 8);
            } else if (b.rank == 1) {
                MPI.COMM_WORLD.recv(null, 0, MPI.BYTE, 0, 8);
            }
            if (!bcast && b.rank > 1) {
                continue;
            }
            if (b.rank == 0) {
                for (int r = 1; r < (bcast ? b.size : 2); r++) {
                    MPI.COMM_WORLD.recv(null, 0, MPI.BYTE, MPI.ANY_SOURCE, 9);
                }
            } else {
                MPI.COMM_WORLD.send(null, 0, MPI.BYTE, 0, 9);
            }
        }
        return (MPI.wtime() - t0) * 1e6 / Math.max(1, iters);
    }
}
