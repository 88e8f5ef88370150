package org.jmpi.benchmarks;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Message rate between ranks 0 and 1, OSU-style: rank 0 posts a window of non-blocking sends of one size
 * (default 8 B, window 64), rank 1 a window of receives, both wait for all, then rank 1 acknowledges with a 4-byte
 * message; repeated. Prints messages per second. Options: {@code --size B}, {@code --window W},
 * {@code --iterations N}, {@code --rounds R} (one line per round).
 */
public final class MessageRate {
    private MessageRate() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int size = 8;
        int window = 64;
        int iterations = 20_000;
        int rounds = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--size" -> size = Integer.parseInt(args[++i]);
                case "--window" -> window = Integer.parseInt(args[++i]);
                case "--iterations" -> iterations = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        int rank = MPI.COMM_WORLD.getRank();
        if (MPI.COMM_WORLD.getSize() < 2) {
            System.out.println("MessageRate needs 2 ranks");
            MPI.Finalize();
            return;
        }
        ByteBuffer[] bufs = new ByteBuffer[window];
        for (int w = 0; w < window; w++) {
            bufs[w] = ByteBuffer.allocateDirect(Math.max(1, size));
        }
        ByteBuffer ack = ByteBuffer.allocateDirect(4);
        Request[] reqs = new Request[window];
        if (rank == 0) {
            System.out.printf("# jmpi MessageRate: %d B messages, window %d, %d iterations per round%n", size, window,
                    iterations);
        }
        for (int round = 0; round < rounds + 1; round++) {
            MPI.COMM_WORLD.barrier();
            double t0 = MPI.wtime();
            for (int it = 0; it < iterations; it++) {
                if (rank == 0) {
                    for (int w = 0; w < window; w++) {
                        reqs[w] = MPI.COMM_WORLD.iSend(bufs[w], size, MPI.BYTE, 1, 100);
                    }
                    Request.waitAll(reqs);
                    MPI.COMM_WORLD.recv(ack, 4, MPI.BYTE, 1, 101);
                } else if (rank == 1) {
                    for (int w = 0; w < window; w++) {
                        reqs[w] = MPI.COMM_WORLD.iRecv(bufs[w], size, MPI.BYTE, 0, 100);
                    }
                    Request.waitAll(reqs);
                    MPI.COMM_WORLD.send(ack, 4, MPI.BYTE, 0, 101);
                }
            }
            double t = MPI.wtime() - t0;
            if (rank == 0 && round > 0) { // round 0 warms up
                double rate = (double) iterations * window / t;
                System.out.printf("round %d: %.0f messages/s, %.2f MB/s%n", round, rate, rate * size / 1e6);
            }
        }
        MPI.Finalize();
    }
}
