package org.jmpi.benchmarks.cold;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Checks that every byte arrives, once and in order, for a bad link (netem loss, delay, rate limits between hosts):
 * ROUNDS rounds, each of a ring exchange at sizes from 1 B to 4 MiB (byte arrays with {@code sendRecv}, direct
 * buffers with {@code iRecv}/{@code iSend}), a burst of 256 small messages with one tag whose sequence numbers must
 * come in order, an {@code allReduce}, a {@code bcast} of 1 MiB and an {@code allToAll}, every byte checked against
 * the pattern its sender wrote. Any number of ranks from 2.
 *
 * <p>Usage: {@code LinkCheck [ROUNDS=3]}. Rank 0 prints {@code RESULT link-check seconds=<s> check=<OK|FAIL-n>}, n the
 * number of wrong values seen by all ranks together; the program compiles against jmpi and Open MPI's Java bindings.
 */
public final class LinkCheck {
    private static final int[] SIZES = {1, 100, 4096, 65_539, 300_000, 1_048_581, 4 << 20};
    private static final int BURST = 256;

    private LinkCheck() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (size < 2) {
            throw new IllegalArgumentException("LinkCheck needs 2 or more ranks");
        }
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        long errors = 0;
        MPI.COMM_WORLD.barrier();
        double t0 = MPI.wtime();
        for (int r = 0; r < rounds; r++) {
            for (int n : SIZES) {
                byte[] out = new byte[n];
                byte[] in = new byte[n];
                fill(out, rank, r, n);
                MPI.COMM_WORLD.sendRecv(out, n, MPI.BYTE, right, 1, in, n, MPI.BYTE, left, 1);
                errors += check(in, left, r, n);

                ByteBuffer dOut = MPI.newByteBuffer(n);
                ByteBuffer dIn = MPI.newByteBuffer(n);
                dOut.put(out);
                Request rq = MPI.COMM_WORLD.iRecv(dIn, n, MPI.BYTE, right, 2);
                Request sq = MPI.COMM_WORLD.iSend(dOut, n, MPI.BYTE, left, 2);
                sq.waitFor();
                Status st = rq.waitStatus();
                if (st.getCount(MPI.BYTE) != n) {
                    errors++;
                }
                dIn.get(0, in);
                errors += check(in, right, r, n);
            }
            // non-overtaking: a burst of one tag arrives in the order it was sent
            ByteBuffer seqOut = MPI.newByteBuffer(4 * BURST);
            ByteBuffer seqIn = MPI.newByteBuffer(4 * BURST);
            Request[] recvs = new Request[BURST];
            for (int i = 0; i < BURST; i++) {
                recvs[i] = MPI.COMM_WORLD.iRecv(MPI.slice(seqIn, 4 * i), 1, MPI.INT, left, 3);
            }
            for (int i = 0; i < BURST; i++) {
                seqOut.putInt(4 * i, r * BURST + i);
                MPI.COMM_WORLD.send(MPI.slice(seqOut, 4 * i), 1, MPI.INT, right, 3);
            }
            for (int i = 0; i < BURST; i++) {
                recvs[i].waitFor();
                if (seqIn.getInt(4 * i) != r * BURST + i) {
                    errors++;
                }
            }
            int[] mine = new int[1000];
            int[] sum = new int[1000];
            for (int i = 0; i < mine.length; i++) {
                mine[i] = rank * 1000 + i + r;
            }
            MPI.COMM_WORLD.allReduce(mine, sum, mine.length, MPI.INT, MPI.SUM);
            for (int i = 0; i < sum.length; i++) {
                long want = 1000L * size * (size - 1) / 2 + (long) size * (i + r);
                if (sum[i] != want) {
                    errors++;
                }
            }
            byte[] b = new byte[1 << 20];
            int root = (r + size - 1) % size;
            if (rank == root) {
                fill(b, root, r, b.length);
            }
            MPI.COMM_WORLD.bcast(b, b.length, MPI.BYTE, root);
            errors += check(b, root, r, b.length);
            int per = 4096;
            int[] a2aOut = new int[per * size];
            int[] a2aIn = new int[per * size];
            for (int i = 0; i < a2aOut.length; i++) {
                a2aOut[i] = rank * 1_000_000 + (i / per) * 10_000 + i % per + r;
            }
            MPI.COMM_WORLD.allToAll(a2aOut, per, MPI.INT, a2aIn, per, MPI.INT);
            for (int src = 0; src < size; src++) {
                for (int k = 0; k < per; k++) {
                    if (a2aIn[src * per + k] != src * 1_000_000 + rank * 10_000 + k + r) {
                        errors++;
                    }
                }
            }
        }
        double seconds = MPI.wtime() - t0;
        long[] total = new long[1];
        MPI.COMM_WORLD.reduce(new long[] {errors}, total, 1, MPI.LONG, MPI.SUM, 0);
        if (rank == 0) {
            System.out.printf("RESULT link-check seconds=%.6e check=%s%n", seconds,
                    total[0] == 0 ? "OK" : "FAIL-" + total[0]);
        }
        MPI.Finalize();
    }

    private static void fill(byte[] b, int sender, int round, int n) {
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (sender * 31 + round * 7 + n + i * 13 + (i >>> 9));
        }
    }

    private static long check(byte[] b, int sender, int round, int n) {
        long bad = 0;
        for (int i = 0; i < b.length; i++) {
            if (b[i] != (byte) (sender * 31 + round * 7 + n + i * 13 + (i >>> 9))) {
                bad++;
            }
        }
        return bad;
    }
}
