package org.jmpi.benchmarks.cold;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;

/**
 * The user's timing idiom for a ping-pong: ranks 0 and 1 do ITERS untimed round trips of blocking {@code send} /
 * {@code recv} of BYTES bytes, then everybody meets in a {@code barrier}, then ranks 0 and 1 do ITERS timed round
 * trips. Any further ranks only take part in the barrier.
 *
 * <p>Usage: {@code BarrierPingPong KIND BYTES [ITERS]} on 2 (or more) ranks, KIND {@code bytes} (a {@code byte[]}),
 * {@code direct} (a {@code ByteBuffer.allocateDirect}), {@code slices} (a direct buffer 8 bytes longer, each call
 * passing {@code MPI.slice(buffer, 8)}: the Open MPI API's way to start at an offset), {@code fresh} (a new
 * {@code byte[]} for every send and every receive, as a program that builds each message in a new array) or
 * {@code replace} (a {@code byte[]} that both ranks exchange in place by {@code sendRecvReplace}, twice a round trip:
 * the result is the time of one exchange), BYTES a number with an optional {@code k}/{@code m} suffix (KiB, MiB); ITERS defaults to
 * 20,000 up to 64 KiB, 2,000 up to 256 KiB and 200 above. Rank 0 prints
 * {@code RESULT barrier-pingpong-<KIND>-<BYTES> seconds=<one-way latency in seconds> check=<BYTES>}. The C twin is
 * {@code src/main/c/cold/barrier_pingpong.c}.
 */
public final class BarrierPingPong {
    private BarrierPingPong() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: BarrierPingPong KIND BYTES [ITERS]");
        }
        String kind = args[0];
        int bytes = parseSize(args[1]);
        int iters = args.length > 2 ? Integer.parseInt(args[2]) : defaultIters(bytes);
        int rank = MPI.COMM_WORLD.getRank();
        if (MPI.COMM_WORLD.getSize() < 2) {
            throw new IllegalArgumentException("BarrierPingPong needs 2 ranks");
        }
        Object sendBuf;
        Object recvBuf;
        if (kind.equals("bytes")) {
            sendBuf = new byte[bytes];
            recvBuf = new byte[bytes];
        } else if (kind.equals("direct")) {
            sendBuf = ByteBuffer.allocateDirect(Math.max(bytes, 1));
            recvBuf = ByteBuffer.allocateDirect(Math.max(bytes, 1));
        } else if (kind.equals("slices")) {
            sendBuf = ByteBuffer.allocateDirect(bytes + 8);
            recvBuf = ByteBuffer.allocateDirect(bytes + 8);
        } else if (kind.equals("replace")) {
            sendBuf = new byte[bytes];
            recvBuf = null;
        } else if (kind.equals("fresh")) {
            sendBuf = null; // made anew for every call
            recvBuf = null;
        } else {
            throw new IllegalArgumentException("KIND is bytes, direct, slices, fresh or replace, not " + kind);
        }

        if (rank < 2) {
            rounds(kind, rank, sendBuf, recvBuf, bytes, iters); // warm-up, untimed
        }
        MPI.COMM_WORLD.barrier();
        double t0 = MPI.wtime();
        if (rank < 2) {
            rounds(kind, rank, sendBuf, recvBuf, bytes, iters);
        }
        double seconds = MPI.wtime() - t0;

        if (rank == 0) {
            double oneWay = seconds / (2.0 * iters);
            System.out.printf("RESULT barrier-pingpong-%s-%d seconds=%.6e check=%d%n", kind, bytes, oneWay, bytes);
        }
        MPI.Finalize();
    }

    /** Warm-up and timed round trips for a message size (the same in the C twin). */
    static int defaultIters(int bytes) {
        return bytes <= 64 << 10 ? 20_000 : bytes <= 256 << 10 ? 2_000 : 200;
    }

    /** ITERS round trips between ranks 0 and 1 of blocking send/recv. */
    static void pingPong(int rank, Object sendBuf, Object recvBuf, int bytes, int iters) throws MPIException {
        int peer = 1 - rank;
        for (int i = 0; i < iters; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.send(sendBuf, bytes, MPI.BYTE, peer, 0);
                MPI.COMM_WORLD.recv(recvBuf, bytes, MPI.BYTE, peer, 0);
            } else {
                MPI.COMM_WORLD.recv(recvBuf, bytes, MPI.BYTE, peer, 0);
                MPI.COMM_WORLD.send(sendBuf, bytes, MPI.BYTE, peer, 0);
            }
        }
    }

    /** {@link #pingPongSlices}, {@link #pingPongFresh}, {@link #exchanges} or {@link #pingPong}, as {@code kind} says. */
    static void rounds(String kind, int rank, Object sendBuf, Object recvBuf, int bytes, int iters)
            throws MPIException {
        if (kind.equals("fresh")) {
            pingPongFresh(rank, bytes, iters);
        } else if (kind.equals("slices")) {
            pingPongSlices(rank, (ByteBuffer) sendBuf, (ByteBuffer) recvBuf, bytes, iters);
        } else if (kind.equals("replace")) {
            exchanges(rank, (byte[]) sendBuf, bytes, iters);
        } else {
            pingPong(rank, sendBuf, recvBuf, bytes, iters);
        }
    }

    /** ITERS round trips of two {@code sendRecvReplace} exchanges each between ranks 0 and 1. */
    static void exchanges(int rank, byte[] buf, int bytes, int iters) throws MPIException {
        int peer = 1 - rank;
        for (int i = 0; i < 2 * iters; i++) {
            MPI.COMM_WORLD.sendRecvReplace(buf, bytes, MPI.BYTE, peer, 0, peer, 0);
        }
    }

    /** {@link #pingPong} with each call's buffer a new {@code byte[]}. */
    static void pingPongFresh(int rank, int bytes, int iters) throws MPIException {
        int peer = 1 - rank;
        for (int i = 0; i < iters; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.send(new byte[bytes], bytes, MPI.BYTE, peer, 0);
                MPI.COMM_WORLD.recv(new byte[bytes], bytes, MPI.BYTE, peer, 0);
            } else {
                MPI.COMM_WORLD.recv(new byte[bytes], bytes, MPI.BYTE, peer, 0);
                MPI.COMM_WORLD.send(new byte[bytes], bytes, MPI.BYTE, peer, 0);
            }
        }
    }

    /** {@link #pingPong} with each call's buffer a new {@code MPI.slice} 8 bytes into the direct buffer. */
    static void pingPongSlices(int rank, ByteBuffer sendBuf, ByteBuffer recvBuf, int bytes, int iters)
            throws MPIException {
        int peer = 1 - rank;
        for (int i = 0; i < iters; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.send(MPI.slice(sendBuf, 8), bytes, MPI.BYTE, peer, 0);
                MPI.COMM_WORLD.recv(MPI.slice(recvBuf, 8), bytes, MPI.BYTE, peer, 0);
            } else {
                MPI.COMM_WORLD.recv(MPI.slice(recvBuf, 8), bytes, MPI.BYTE, peer, 0);
                MPI.COMM_WORLD.send(MPI.slice(sendBuf, 8), bytes, MPI.BYTE, peer, 0);
            }
        }
    }

    /** A byte count: digits with an optional k (KiB) or m (MiB) suffix. */
    static int parseSize(String s) {
        String t = s.toLowerCase();
        if (t.endsWith("k")) {
            return Integer.parseInt(t.substring(0, t.length() - 1)) << 10;
        } else if (t.endsWith("m")) {
            return Integer.parseInt(t.substring(0, t.length() - 1)) << 20;
        }
        return Integer.parseInt(t);
    }
}
