package org.jmpi.tests.pt2pt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.jmpi.junit.MpiTest;

/**
 * Blocking sends, receives and sendRecvs of small contiguous messages take the engine's lane (written straight into
 * the peer's ring, taken straight out of it) whenever nothing stands in the way, and the usual path otherwise. These
 * tests mix the two on one pair of ranks and check what MPI promises either way: order, matching, truncation,
 * progress for the other peers while one waits, and statuses.
 */
class LaneTest {

    /**
     * Sizes on both sides of the engine's eager limit (64 KiB) and of the largest message the lane takes (shared
     * memory's eager limit, 256 KiB), zero included.
     */
    private static final int[] SIZES = {0, 1, 8, 40, 1000, 4096, 16 << 10, (16 << 10) + 1, 64 << 10, (64 << 10) + 1,
        100_000, 256 << 10, (256 << 10) + 1};

    private static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i);
        }
        return b;
    }

    /**
     * One stream of messages on one tag, in blocking, non-blocking and synchronous sends of every size, received by
     * blocking receives (exact and ANY_SOURCE/ANY_TAG) and non-blocking ones: every message arrives whole, in order.
     */
    @MpiTest(ranks = {2, 3})
    void messagesOfOneStreamKeepTheirOrderWhateverPathEachTakes() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int rounds = 3;
        if (rank == 0) {
            int k = 0;
            for (int round = 0; round < rounds; round++) {
                for (int n : SIZES) {
                    byte[] b = pattern(n, k);
                    switch (k++ % 4) {
                        case 0, 1 -> w.send(b, n, MPI.BYTE, 1, 7);
                        case 2 -> w.iSend(b, n, MPI.BYTE, 1, 7).waitFor();
                        default -> w.sSend(b, n, MPI.BYTE, 1, 7);
                    }
                }
            }
        } else if (rank == 1) {
            int k = 0;
            for (int round = 0; round < rounds; round++) {
                for (int n : SIZES) {
                    byte[] got = new byte[n];
                    Status s;
                    switch (k % 3) {
                        case 0 -> s = w.recv(got, n, MPI.BYTE, 0, 7);
                        case 1 -> s = w.recv(got, n, MPI.BYTE, MPI.ANY_SOURCE, MPI.ANY_TAG);
                        default -> s = w.iRecv(got, n, MPI.BYTE, 0, 7).waitStatus();
                    }
                    assertThat(s.getSource()).isEqualTo(0);
                    assertThat(s.getTag()).isEqualTo(7);
                    assertThat(s.getCount(MPI.BYTE)).as("message %d", k).isEqualTo(n);
                    assertThat(got).as("message %d of %d bytes", k, n).isEqualTo(pattern(n, k));
                    k++;
                }
            }
        }
    }

    /**
     * A receive posted earlier matches first: with an iRecv for tag 5 pending, a blocking receive for tag 6 must not
     * take the tag-5 message that heads the ring, and the iRecv gets it.
     */
    @MpiTest(ranks = {2, 3})
    void aReceivePostedEarlierKeepsItsMessage() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        for (int i = 0; i < 50; i++) {
            if (rank == 0) {
                w.send(new int[] {i, 5}, 2, MPI.INT, 1, 5);
                w.send(new int[] {i, 6}, 2, MPI.INT, 1, 6);
            } else if (rank == 1) {
                int[] five = new int[2];
                Request r = w.iRecv(five, 2, MPI.INT, 0, 5);
                int[] six = new int[2];
                w.recv(six, 2, MPI.INT, 0, 6);
                r.waitFor();
                assertThat(five).containsExactly(i, 5);
                assertThat(six).containsExactly(i, 6);
            }
        }
    }

    /** A message that arrived before its receive (unexpected) is taken before a later one from the ring. */
    @MpiTest(ranks = {2})
    void anUnexpectedMessageComesBeforeTheRing() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        if (w.getRank() == 0) {
            for (int i = 0; i < 100; i++) {
                w.send(new long[] {i}, 1, MPI.LONG, 1, 3);
            }
            w.send(new long[0], 0, MPI.LONG, 1, 4); // sent after all of them
        } else {
            w.recv(new long[0], 0, MPI.LONG, 0, 4); // polls everything before it: tag-3 messages become unexpected
            for (int i = 0; i < 100; i++) {
                long[] got = new long[1];
                w.recv(got, 1, MPI.LONG, 0, 3);
                assertThat(got[0]).isEqualTo(i);
            }
        }
    }

    /** A message longer than the receive buffer is an error of class ERR_TRUNCATE, and the next message is intact. */
    @MpiTest(ranks = {2})
    void aTooShortBufferIsTruncation() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        if (w.getRank() == 0) {
            w.send(pattern(100, 1), 100, MPI.BYTE, 1, 1);
            w.send(pattern(10, 2), 10, MPI.BYTE, 1, 1);
        } else {
            assertThatThrownBy(() -> w.recv(new byte[10], 10, MPI.BYTE, 0, 1)).isInstanceOfSatisfying(
                    MPIException.class, e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_TRUNCATE));
            byte[] got = new byte[10];
            w.recv(got, 10, MPI.BYTE, 0, 1);
            assertThat(got).isEqualTo(pattern(10, 2));
        }
    }

    /**
     * A halo exchange along a line of ranks, as textbook codes write it: sendRecv with PROC_NULL at both ends, on Java
     * arrays and on direct buffers; every rank gets its neighbours' values, the end ranks a PROC_NULL status.
     */
    @MpiTest(ranks = {1, 2, 3, 4})
    void haloExchangeWithProcNullAtTheEnds() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int up = rank == 0 ? MPI.PROC_NULL : rank - 1;
        int down = rank == size - 1 ? MPI.PROC_NULL : rank + 1;
        for (int it = 0; it < 200; it++) {
            double[] mine = {rank, it};
            double[] fromDown = {-1, -1};
            double[] fromUp = {-1, -1};
            Status s1 = w.sendRecv(mine, 2, MPI.DOUBLE, up, 0, fromDown, 2, MPI.DOUBLE, down, 0);
            Status s2 = w.sendRecv(mine, 2, MPI.DOUBLE, down, 1, fromUp, 2, MPI.DOUBLE, up, 1);
            if (down == MPI.PROC_NULL) {
                assertThat(s1.getSource()).isEqualTo(MPI.PROC_NULL);
                assertThat(fromDown).containsExactly(-1, -1);
            } else {
                assertThat(s1.getSource()).isEqualTo(down);
                assertThat(s1.getCount(MPI.DOUBLE)).isEqualTo(2);
                assertThat(fromDown).containsExactly(down, it);
            }
            if (up == MPI.PROC_NULL) {
                assertThat(s2.getSource()).isEqualTo(MPI.PROC_NULL);
            } else {
                assertThat(fromUp).containsExactly(up, it);
            }
            ByteBuffer out = ByteBuffer.allocateDirect(8).putInt(0, rank).putInt(4, it);
            ByteBuffer in = ByteBuffer.allocateDirect(8).putInt(0, -1);
            w.sendRecv(out, 8, MPI.BYTE, down, 2, in, 8, MPI.BYTE, up, 2);
            if (up != MPI.PROC_NULL) {
                assertThat(in.getInt(0)).isEqualTo(up);
                assertThat(in.getInt(4)).isEqualTo(it);
            }
        }
    }

    /**
     * A one-way stream of lane messages five times the flow window (4 MiB): the sender goes on only as the receiver's
     * credit comes back (through the lane, in the credit record's envelope), and every message arrives, in order.
     */
    @MpiTest(ranks = {2, 3}, timeoutSeconds = 120)
    void creditComesBackThroughTheLane() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int n = 4096;
        int messages = 5 * (4 << 20) / n;
        byte[] b = new byte[n];
        if (rank == 0) {
            for (int i = 0; i < messages; i++) {
                b[0] = (byte) i;
                b[n - 1] = (byte) (i >>> 8);
                w.send(b, n, MPI.BYTE, 1, 3);
            }
        } else if (rank == 1) {
            for (int i = 0; i < messages; i++) {
                w.recv(b, n, MPI.BYTE, 0, 3);
                assertThat(b[0]).isEqualTo((byte) i);
                assertThat(b[n - 1]).isEqualTo((byte) (i >>> 8));
            }
        }
        w.barrier();
    }

    /**
     * A sendRecv from MPI.PROC_NULL (a halo's edge) receives nothing and returns the PROC_NULL status at once, after
     * its send; its receive arguments (and, to MPI.PROC_NULL, its send's) are still checked, with the error classes of
     * a recv from (a send to) MPI.PROC_NULL, and a refused call sends nothing.
     */
    @MpiTest(ranks = {2, 3})
    void sendRecvFromProcNullChecksTheReceiveAndSends() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        if (rank > 1) {
            return;
        }
        int peer = 1 - rank;
        w.setErrhandler(MPI.ERRORS_RETURN);
        byte[] in = {7, 7, 7, 7};
        for (int it = 0; it < 100; it++) {
            byte[] out = {(byte) rank, (byte) it};
            // rank 0 sends to 1 and receives from PROC_NULL; rank 1 sends to PROC_NULL and receives from 0
            Status s = rank == 0 ? w.sendRecv(out, 2, MPI.BYTE, peer, 5, in, 4, MPI.BYTE, MPI.PROC_NULL, 5)
                    : w.sendRecv(out, 2, MPI.BYTE, MPI.PROC_NULL, 5, in, 4, MPI.BYTE, peer, 5);
            if (rank == 0) {
                assertThat(s.getSource()).isEqualTo(MPI.PROC_NULL);
                assertThat(s.getTag()).isEqualTo(MPI.ANY_TAG);
                assertThat(s.getCount(MPI.BYTE)).isZero();
                assertThat(in).containsExactly(7, 7, 7, 7);
            } else {
                assertThat(s.getSource()).isZero();
                assertThat(s.getCount(MPI.BYTE)).isEqualTo(2);
                assertThat(in[0]).isZero();
                assertThat(in[1]).isEqualTo((byte) it);
            }
        }
        if (rank == 0) {
            byte[] out = {1};
            int[][] bad = {{-1, 0}, {8, 0}, {1, 1}}; // {count, which type: 0 BYTE, 1 null}
            for (int[] b : bad) {
                Datatype type = b[1] == 0 ? MPI.BYTE : null;
                int expected = errorClassOf(() -> w.recv(in, b[0], type, MPI.PROC_NULL, 5));
                assertThat(expected).isNotEqualTo(MPI.SUCCESS);
                assertThat(errorClassOf(() -> w.sendRecv(out, 1, MPI.BYTE, peer, 6, in, b[0], type, MPI.PROC_NULL,
                        5))).as("count %d, type %s", b[0], type).isEqualTo(expected);
            }
            // and the send's, when it goes to MPI.PROC_NULL too
            int expected = errorClassOf(() -> w.send(out, 8, MPI.BYTE, MPI.PROC_NULL, 6));
            assertThat(expected).isNotEqualTo(MPI.SUCCESS);
            assertThat(errorClassOf(() -> w.sendRecv(out, 8, MPI.BYTE, MPI.PROC_NULL, 6, in, 4, MPI.BYTE,
                    MPI.PROC_NULL, 5))).isEqualTo(expected);
            w.send(new byte[] {42}, 1, MPI.BYTE, peer, 7);
        } else {
            byte[] got = new byte[1];
            Status s = w.recv(got, 1, MPI.BYTE, peer, MPI.ANY_TAG);
            assertThat(s.getTag()).as("the refused sendRecvs sent nothing").isEqualTo(7);
            assertThat(got[0]).isEqualTo((byte) 42);
        }
    }

    private interface Call {
        void run() throws MPIException;
    }

    private static int errorClassOf(Call c) {
        try {
            c.run();
            return MPI.SUCCESS;
        } catch (MPIException e) {
            return e.getErrorClass();
        }
    }

    /**
     * A rank waiting in a blocking receive for one peer still takes the frames of the others: rank 2 floods rank 0
     * with more than its ring holds and only then releases rank 1, whose message rank 0 is waiting for. Without
     * progress for rank 2's ring while it waits, rank 2 would never finish its sends and nobody would move.
     */
    @MpiTest(ranks = {3})
    void aWaitingRankServesItsOtherPeers() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int flood = 600; // 600 x 1 KiB: more than a 256 KiB ring
        if (rank == 0) {
            int[] got = new int[1];
            w.recv(got, 1, MPI.INT, 1, 9);
            assertThat(got[0]).isEqualTo(42);
            byte[] b = new byte[1024];
            for (int i = 0; i < flood; i++) {
                w.recv(b, 1024, MPI.BYTE, 2, 8);
                assertThat(b[0]).isEqualTo((byte) i);
            }
        } else if (rank == 2) {
            byte[] b = new byte[1024];
            for (int i = 0; i < flood; i++) {
                b[0] = (byte) i;
                w.send(b, 1024, MPI.BYTE, 0, 8);
            }
            w.send(new int[0], 0, MPI.INT, 1, 10); // go
        } else {
            w.recv(new int[0], 0, MPI.INT, 2, 10);
            w.send(new int[] {42}, 1, MPI.INT, 0, 9);
        }
    }

    /** Typed arrays other than byte[]: data and counts in elements, a message shorter than the buffer. */
    @MpiTest(ranks = {2})
    void typedArraysAndStatusCounts() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        if (w.getRank() == 0) {
            w.send(new double[] {1.5, 2.5, 3.5}, 3, MPI.DOUBLE, 1, 1);
            w.send(new long[] {Long.MIN_VALUE, Long.MAX_VALUE}, 2, MPI.LONG, 1, 2);
            w.send(new char[] {'j', 'm'}, 2, MPI.CHAR, 1, 3);
        } else {
            double[] d = new double[5];
            Status s = w.recv(d, 5, MPI.DOUBLE, 0, 1);
            assertThat(s.getCount(MPI.DOUBLE)).isEqualTo(3);
            assertThat(d).containsExactly(1.5, 2.5, 3.5, 0, 0);
            long[] l = new long[2];
            w.recv(l, 2, MPI.LONG, 0, 2);
            assertThat(l).containsExactly(Long.MIN_VALUE, Long.MAX_VALUE);
            char[] c = new char[2];
            w.recv(c, 2, MPI.CHAR, 0, 3);
            assertThat(c).containsExactly('j', 'm');
        }
    }

    /**
     * New small arrays of every kind the lane copies a word at a time (their views make no memory segment), sent and
     * received by blocking calls: messages of every length from 0 to 32 bytes, received into arrays of 32 bytes
     * viewed as MPI.BYTE, also where the length is not a whole number of the array's elements (the lane leaves such a
     * message to the usual way): every byte arrives, the status counts bytes, nothing past the message is written.
     */
    @MpiTest(ranks = {2, 3})
    void newSmallArraysOfEveryKindAndAnyLength() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        if (rank > 1) {
            return;
        }
        String[] kinds = {"byte", "double", "long", "int", "float"};
        for (int round = 0; round < 3; round++) { // the first sends and receives of a shape, then the ones after
            for (String kind : kinds) {
                for (int n = 0; n <= 32; n++) {
                    int tag = 100 + n;
                    if (rank == 0) {
                        byte[] p = pattern(n, n + round);
                        w.send(p, n, MPI.BYTE, 1, tag); // a byte[] of any length
                        Object typed = typedArray(kind, pattern(32, 7 * n + round)); // whole elements: the lane's words
                        w.send(typed, 32 / elementBytes(kind), datatype(kind), 1, tag);
                    } else {
                        Object into = typedArray(kind, new byte[32]);
                        Status st = w.recv(into, 32, MPI.BYTE, 0, tag);
                        assertThat(st.getCount(MPI.BYTE)).as("%s, %d bytes", kind, n).isEqualTo(n);
                        byte[] expected = new byte[32];
                        System.arraycopy(pattern(n, n + round), 0, expected, 0, n);
                        assertThat(bytesOf(into)).as("%s, %d bytes", kind, n).isEqualTo(expected);
                        Object typed = typedArray(kind, new byte[32]);
                        w.recv(typed, 32 / elementBytes(kind), datatype(kind), 0, tag);
                        assertThat(bytesOf(typed)).as("%s array of 32 bytes", kind).isEqualTo(pattern(32, 7 * n + round));
                    }
                }
            }
        }
    }

    private static int elementBytes(String kind) {
        return switch (kind) {
            case "byte" -> 1;
            case "int", "float" -> 4;
            default -> 8;
        };
    }

    private static Datatype datatype(String kind) {
        return switch (kind) {
            case "byte" -> MPI.BYTE;
            case "int" -> MPI.INT;
            case "float" -> MPI.FLOAT;
            case "long" -> MPI.LONG;
            default -> MPI.DOUBLE;
        };
    }

    /** A new array of {@code kind} holding {@code bytes} (native order). */
    private static Object typedArray(String kind, byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.nativeOrder());
        return switch (kind) {
            case "byte" -> bytes.clone();
            case "int" -> { int[] a = new int[bytes.length / 4]; b.asIntBuffer().get(a); yield a; }
            case "float" -> { float[] a = new float[bytes.length / 4]; b.asFloatBuffer().get(a); yield a; }
            case "long" -> { long[] a = new long[bytes.length / 8]; b.asLongBuffer().get(a); yield a; }
            default -> { double[] a = new double[bytes.length / 8]; b.asDoubleBuffer().get(a); yield a; }
        };
    }

    /** The bytes of a primitive array (native order). */
    private static byte[] bytesOf(Object array) {
        ByteBuffer b = ByteBuffer.allocate(32).order(java.nio.ByteOrder.nativeOrder());
        switch (array) {
            case byte[] a -> b.put(a);
            case int[] a -> b.asIntBuffer().put(a);
            case float[] a -> b.asFloatBuffer().put(a);
            case long[] a -> b.asLongBuffer().put(a);
            case double[] a -> b.asDoubleBuffer().put(a);
            default -> throw new IllegalArgumentException(String.valueOf(array));
        }
        return b.array();
    }

    /**
     * A window of non-blocking sends of every size (small ones are written at once through the lane and come back
     * complete, large ones wait for their receiver), to two tags, received in an order other than the one sent per
     * tag: each message arrives whole, in order within its tag, and every send request completes with a usable
     * status, also when tested and freed rather than waited for.
     */
    @MpiTest(ranks = {2, 3})
    void aWindowOfNonBlockingSendsMixesLaneAndUsualPath() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int n = SIZES.length * 2;
        if (rank == 0) {
            Request[] reqs = new Request[n];
            ByteBuffer[] bufs = new ByteBuffer[n];
            for (int i = 0; i < n; i++) {
                int size = SIZES[i % SIZES.length];
                bufs[i] = ByteBuffer.allocateDirect(Math.max(size, 1));
                bufs[i].put(0, pattern(size, i));
                reqs[i] = w.iSend(bufs[i], size, MPI.BYTE, 1, 20 + i % 2);
            }
            Request.waitAll(reqs);
            for (Request r : reqs) {
                assertThat(r.isNull()).isTrue();
            }
            Request last = w.iSend(new byte[] {5}, 1, MPI.BYTE, 1, 22);
            while (!last.test()) {
                Thread.onSpinWait();
            }
            Request freed = w.iSend(new byte[] {6}, 1, MPI.BYTE, 1, 23);
            freed.free();
        } else if (rank == 1) {
            for (int tag : new int[] {21, 20}) {
                for (int i = tag - 20; i < n; i += 2) {
                    int size = SIZES[i % SIZES.length];
                    byte[] got = new byte[size];
                    Status s = w.recv(got, size, MPI.BYTE, 0, tag);
                    assertThat(s.getCount(MPI.BYTE)).as("message %d", i).isEqualTo(size);
                    assertThat(got).as("message %d", i).isEqualTo(pattern(size, i));
                }
            }
            byte[] one = new byte[1];
            w.recv(one, 1, MPI.BYTE, 0, 22);
            assertThat(one[0]).isEqualTo((byte) 5);
            w.recv(one, 1, MPI.BYTE, 0, 23);
            assertThat(one[0]).isEqualTo((byte) 6);
        }
    }
}
