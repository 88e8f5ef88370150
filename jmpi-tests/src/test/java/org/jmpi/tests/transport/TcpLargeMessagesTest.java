package org.jmpi.tests.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * Large messages over TCP (forced, processes of one host): data written from a direct send buffer's own memory or
 * copied piece by piece from an array, read straight into a direct receive buffer or copied into an array piece by
 * piece, byte for byte, at odd sizes and offsets, in exchanges and with several in flight, also with socket buffers
 * so small that writes are partial and data frames of 64 KiB that do not fit the write buffer; a receive too small
 * for its message fails with ERR_TRUNCATE and keeps what it could hold.
 */
class TcpLargeMessagesTest {

    private static byte pattern(int from, int seq, int i) {
        return (byte) (i * 131 + (i >>> 11) + seq * 7 + from * 13);
    }

    private static ByteBuffer filled(int n, int from, int seq) {
        ByteBuffer b = MPI.newByteBuffer(n);
        for (int i = 0; i < n; i++) {
            b.put(i, pattern(from, seq, i));
        }
        return b;
    }

    private static void check(ByteBuffer b, int offset, int n, int from, int seq) {
        for (int i = 0; i < n; i++) {
            if (b.get(offset + i) != pattern(from, seq, i)) {
                throw new AssertionError("byte " + i + " of message " + seq + " from rank " + from + " is wrong");
            }
        }
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, jvmArgs = "-Djmpi.transport=tcp", timeoutSeconds = 120)
    void largeMessagesBetweenDirectBuffersAndArraysArriveExactly() throws MPIException {
        exchangeLargeMessages();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, timeoutSeconds = 120, jvmArgs = {"-Djmpi.transport=tcp",
        "-Djmpi.tcp.socket.send.buffer=8k", "-Djmpi.tcp.socket.receive.buffer=8k", "-Djmpi.tcp.chunk.bytes=64k",
        "-Djmpi.tcp.write.buffer=16k"})
    void largeMessagesArriveExactlyThroughTinySocketBuffersInSmallFrames() throws MPIException {
        exchangeLargeMessages();
    }

    private static void exchangeLargeMessages() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        int[] sizes = {(64 << 10) + 1, 200_003, 1 << 20, (3 << 20) + 17};
        for (int seq = 0; seq < sizes.length; seq++) {
            int n = sizes[seq];
            // an exchange around the ring into a direct buffer at an offset (a slice: position 5)
            ByteBuffer in = MPI.newByteBuffer(n + 5);
            in.position(5);
            ByteBuffer slice = in.slice();
            MPI.COMM_WORLD.sendRecv(filled(n, rank, seq), n, MPI.BYTE, right, seq, slice, n, MPI.BYTE, left, seq);
            check(in, 5, n, left, seq);
            // the same message into a byte[] (no placement: through the read buffer)
            byte[] arr = new byte[n];
            MPI.COMM_WORLD.sendRecv(filled(n, rank, seq), n, MPI.BYTE, right, 100 + seq, arr, n, MPI.BYTE, left,
                    100 + seq);
            check(ByteBuffer.wrap(arr), 0, n, left, seq);
            // from an array into an array of another element type
            int doubles = n / 8 + 1;
            double[] out = new double[doubles];
            for (int i = 0; i < doubles; i++) {
                out[i] = rank * 1e9 + seq * 1e6 + i;
            }
            double[] back = new double[doubles];
            MPI.COMM_WORLD.sendRecv(out, doubles, MPI.DOUBLE, right, 300 + seq, back, doubles, MPI.DOUBLE, left,
                    300 + seq);
            for (int i = 0; i < doubles; i++) {
                if (back[i] != left * 1e9 + seq * 1e6 + i) {
                    throw new AssertionError("double " + i + " of message " + seq + " from rank " + left + " is "
                            + back[i]);
                }
            }
        }
        // several in flight at once, received out of order
        int k = 4;
        int n = 700_001;
        ByteBuffer[] got = new ByteBuffer[k];
        Request[] reqs = new Request[2 * k];
        for (int j = k - 1; j >= 0; j--) {
            got[j] = MPI.newByteBuffer(n);
            reqs[j] = MPI.COMM_WORLD.iRecv(got[j], n, MPI.BYTE, left, 200 + j);
        }
        for (int j = 0; j < k; j++) {
            reqs[k + j] = MPI.COMM_WORLD.iSend(filled(n, rank, 200 + j), n, MPI.BYTE, right, 200 + j);
        }
        Request.waitAll(reqs);
        for (int j = 0; j < k; j++) {
            check(got[j], 0, n, left, 200 + j);
        }
    }

    /**
     * Eager messages (up to 512 KiB over TCP) matched when their header comes and read into the posted receive: a
     * wildcard receive, two messages with one envelope taking the receives in the order posted, a receive posted after
     * the message came (unexpected), a strided datatype (not one run of memory: the message goes whole, as usual), an
     * array, and a receive too small (truncated, keeps what fits, nothing past it).
     */
    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, jvmArgs = "-Djmpi.transport=tcp", timeoutSeconds = 120)
    void largeEagerMessagesMatchTheirReceivesInOrder() throws MPIException {
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int rank = MPI.COMM_WORLD.getRank();
        int last = MPI.COMM_WORLD.getSize() - 1;
        int n = 300_007;
        if (rank == 0) {
            ByteBuffer any = MPI.newByteBuffer(n);
            ByteBuffer first = MPI.newByteBuffer(n);
            ByteBuffer second = MPI.newByteBuffer(n);
            Request r1 = MPI.COMM_WORLD.iRecv(any, n, MPI.BYTE, MPI.ANY_SOURCE, MPI.ANY_TAG);
            Request r2 = MPI.COMM_WORLD.iRecv(first, n, MPI.BYTE, last, 2);
            Request r3 = MPI.COMM_WORLD.iRecv(second, n, MPI.BYTE, last, 2);
            MPI.COMM_WORLD.send(new int[] {1}, 1, MPI.INT, last, 0); // the receives are posted
            Status s = r1.waitStatus();
            assertThat(s.getSource()).isEqualTo(last);
            assertThat(s.getTag()).isEqualTo(1);
            assertThat(s.getCount(MPI.BYTE)).isEqualTo(n);
            check(any, 0, n, last, 1);
            r2.waitFor();
            r3.waitFor();
            check(first, 0, n, last, 2);
            check(second, 0, n, last, 3);
            MPI.COMM_WORLD.barrier(); // the next ones are sent before their receives are posted
            ByteBuffer late = MPI.newByteBuffer(n);
            MPI.COMM_WORLD.recv(late, n, MPI.BYTE, last, 4);
            check(late, 0, n, last, 4);
            // every other int of 2n ints: a strided receive, not one run of memory
            int ints = n / 4;
            mpi.Datatype everyOther = mpi.Datatype.createVector(ints, 1, 2, MPI.INT);
            everyOther.commit();
            int[] strided = new int[2 * ints];
            java.util.Arrays.fill(strided, -1);
            MPI.COMM_WORLD.recv(strided, 1, everyOther, last, 5);
            for (int i = 0; i < ints; i++) {
                assertThat(strided[2 * i]).isEqualTo(i * 3);
                assertThat(strided[2 * i + 1]).isEqualTo(-1);
            }
            everyOther.free();
            double[] arr = new double[n / 8];
            MPI.COMM_WORLD.recv(arr, arr.length, MPI.DOUBLE, last, 6);
            for (int i = 0; i < arr.length; i++) {
                assertThat(arr[i]).isEqualTo(i * 0.5);
            }
            int room = 200_000;
            ByteBuffer small = MPI.newByteBuffer(room + 8);
            assertThatThrownBy(() -> MPI.COMM_WORLD.recv(small, room, MPI.BYTE, last, 7))
                    .isInstanceOfSatisfying(MPIException.class,
                            e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_TRUNCATE));
            check(small, 0, room, last, 7);
            for (int i = room; i < room + 8; i++) {
                assertThat(small.get(i)).as("byte %d past the receive", i).isZero();
            }
        } else if (rank == last) {
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 0);
            MPI.COMM_WORLD.send(filled(n, rank, 1), n, MPI.BYTE, 0, 1);
            MPI.COMM_WORLD.send(filled(n, rank, 2), n, MPI.BYTE, 0, 2);
            MPI.COMM_WORLD.send(filled(n, rank, 3), n, MPI.BYTE, 0, 2);
            MPI.COMM_WORLD.send(filled(n, rank, 4), n, MPI.BYTE, 0, 4);
            MPI.COMM_WORLD.barrier();
            int[] ints = new int[n / 4];
            for (int i = 0; i < ints.length; i++) {
                ints[i] = i * 3;
            }
            MPI.COMM_WORLD.send(ints, ints.length, MPI.INT, 0, 5);
            double[] arr = new double[n / 8];
            for (int i = 0; i < arr.length; i++) {
                arr[i] = i * 0.5;
            }
            MPI.COMM_WORLD.send(arr, arr.length, MPI.DOUBLE, 0, 6);
            MPI.COMM_WORLD.send(filled(n, rank, 7), n, MPI.BYTE, 0, 7);
        } else {
            MPI.COMM_WORLD.barrier();
        }
        MPI.COMM_WORLD.barrier();
    }

    @MpiTest(ranks = {2}, modes = Mode.PROCESSES, jvmArgs = "-Djmpi.transport=tcp", timeoutSeconds = 120)
    void aReceiveTooSmallForALargeMessageIsTruncatedAndKeepsWhatFits() throws MPIException {
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int rank = MPI.COMM_WORLD.getRank();
        int n = 1 << 20;
        int room = 300_000;
        if (rank == 0) {
            MPI.COMM_WORLD.send(filled(n, 0, 7), n, MPI.BYTE, 1, 7);
        } else {
            ByteBuffer small = MPI.newByteBuffer(room + 8);
            assertThatThrownBy(() -> MPI.COMM_WORLD.recv(small, room, MPI.BYTE, 0, 7))
                    .isInstanceOfSatisfying(MPIException.class,
                            e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_TRUNCATE));
            check(small, 0, room, 0, 7);
            for (int i = room; i < room + 8; i++) {
                assertThat(small.get(i)).as("byte %d past the receive", i).isZero();
            }
        }
        // the connection still works
        int[] x = {rank};
        MPI.COMM_WORLD.allReduce(x, 1, MPI.INT, MPI.SUM);
        assertThat(x[0]).isEqualTo(1);
        Status s = null;
        if (rank == 1) {
            ByteBuffer b = MPI.newByteBuffer(n);
            s = MPI.COMM_WORLD.recv(b, n, MPI.BYTE, 0, 8);
            check(b, 0, n, 0, 8);
            assertThat(s.getCount(MPI.BYTE)).isEqualTo(n);
        } else {
            MPI.COMM_WORLD.send(filled(n, 0, 8), n, MPI.BYTE, 1, 8);
        }
    }
}
