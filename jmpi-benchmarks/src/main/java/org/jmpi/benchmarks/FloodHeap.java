package org.jmpi.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import mpi.MPI;
import mpi.MPIException;

/**
 * The flood: rank 0 sends {@code --messages} (default 1,000,000) small blocking messages to rank 1, which consumes
 * them slowly (some work per message). Flow control must hold the sender back so that the receiver's memory for
 * unexpected messages stays bounded (between two messages it also polls with iProbe, {@code --polls}, as busy
 * applications do, which makes the network layer read ahead). Rank 1 prints the peak heap in use (the sum of the heap pools' peak usage,
 * read after the run) and both print their elapsed time. Run the receiver with a small heap to see it hold, e.g.
 * {@code jmpirun -n 2 --jvm-arg -Xmx96m org.jmpi.benchmarks.FloodHeap}.
 */
public final class FloodHeap {
    private FloodHeap() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int messages = 1_000_000;
        int work = 300;
        int polls = 4;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--messages" -> messages = Integer.parseInt(args[++i]);
                case "--work" -> work = Integer.parseInt(args[++i]);
                case "--polls" -> polls = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        int rank = MPI.COMM_WORLD.getRank();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            pool.resetPeakUsage();
        }
        double t0 = MPI.wtime();
        long sink = 0;
        int[] msg = new int[2];
        if (rank == 0) {
            for (int i = 0; i < messages; i++) {
                msg[0] = i;
                MPI.COMM_WORLD.send(msg, 2, MPI.INT, 1, 1);
            }
        } else if (rank == 1) {
            for (int i = 0; i < messages; i++) {
                MPI.COMM_WORLD.recv(msg, 2, MPI.INT, 0, 1);
                if (msg[0] != i) {
                    throw new IllegalStateException("message " + msg[0] + " arrived when " + i + " was due");
                }
                for (int k = 0; k < work; k++) {
                    sink = sink * 31 + k;
                }
                // a consumer that keeps polling MPI while it works (as applications do) reads the network far
                // ahead of what it consumes: only flow control keeps those messages from piling up here
                for (int p = 0; p < polls; p++) {
                    MPI.COMM_WORLD.iProbe(0, 2);
                }
            }
        }
        double t = MPI.wtime() - t0;
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        System.out.printf("rank %d: %d messages in %.2f s; peak heap in use %.1f MiB; max heap %.0f MiB (%d)%n", rank,
                messages, t, peak / 1048576.0, Runtime.getRuntime().maxMemory() / 1048576.0, sink & 1);
        MPI.Finalize();
    }
}
