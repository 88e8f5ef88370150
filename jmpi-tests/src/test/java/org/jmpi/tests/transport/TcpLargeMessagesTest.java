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
