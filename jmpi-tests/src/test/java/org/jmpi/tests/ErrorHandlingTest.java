package org.jmpi.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jmpi.junit.MpiTest;

/**
 * Bad input under MPI.ERRORS_RETURN: each mistake gives an MPIException of the right class, and the
 * communicator keeps working afterwards.
 */
class ErrorHandlingTest {

    private static void expect(int errorClass, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(MPIException.class, e -> {
            assertThat(e.getErrorClass()).as(e.getMessage()).isEqualTo(errorClass);
            assertThat(e.getErrorCode()).isEqualTo(errorClass);
            assertThat(e.getMessage()).isNotBlank();
        });
    }

    /** A ring exchange that proves the communicator still works. */
    private static void ringStillWorks(Comm comm) throws MPIException {
        int rank = comm.getRank();
        int size = comm.getSize();
        int[] in = new int[1];
        comm.sendRecv(new int[] {rank}, 1, MPI.INT, (rank + 1) % size, 77, in, 1, MPI.INT, (rank + size - 1) % size,
                77);
        assertThat(in[0]).isEqualTo((rank + size - 1) % size);
    }

    @MpiTest(ranks = {1, 2, 3, 4})
    void badArgumentsRaiseTheRightClass() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        assertThat(w.getErrhandler()).isSameAs(MPI.ERRORS_ARE_FATAL);
        w.setErrhandler(MPI.ERRORS_RETURN);
        assertThat(w.getErrhandler()).isSameAs(MPI.ERRORS_RETURN);
        int size = w.getSize();
        int[] buf = new int[4];
        // rank out of range
        expect(MPI.ERR_RANK, () -> w.send(buf, 1, MPI.INT, size, 0));
        expect(MPI.ERR_RANK, () -> w.send(buf, 1, MPI.INT, -5, 0));
        expect(MPI.ERR_RANK, () -> w.recv(buf, 1, MPI.INT, size + 3, 0));
        expect(MPI.ERR_RANK, () -> w.iSend(IntBuffer.wrap(buf), 1, MPI.INT, size, 0));
        expect(MPI.ERR_RANK, () -> w.probe(size, 0));
        // negative count
        expect(MPI.ERR_COUNT, () -> w.send(buf, -1, MPI.INT, 0, 0));
        expect(MPI.ERR_COUNT, () -> w.recv(buf, -2, MPI.INT, 0, 0));
        expect(MPI.ERR_COUNT, () -> w.iRecv(IntBuffer.wrap(buf), -1, MPI.INT, 0, 0));
        // negative tag on a send, and on a receive (other than ANY_TAG)
        expect(MPI.ERR_TAG, () -> w.send(buf, 1, MPI.INT, 0, -1));
        expect(MPI.ERR_TAG, () -> w.send(buf, 1, MPI.INT, 0, -7));
        expect(MPI.ERR_TAG, () -> w.recv(buf, 1, MPI.INT, 0, -3));
        // count larger than the buffer, for arrays, heap, direct and sliced buffers
        expect(MPI.ERR_BUFFER, () -> w.send(buf, 5, MPI.INT, 0, 0));
        expect(MPI.ERR_BUFFER, () -> w.recv(buf, 5, MPI.INT, 0, 0));
        expect(MPI.ERR_BUFFER, () -> w.send(MPI.newIntBuffer(2), 3, MPI.INT, 0, 0));
        expect(MPI.ERR_BUFFER, () -> w.send(MPI.slice(buf, 2), 3, MPI.INT, 0, 0));
        expect(MPI.ERR_BUFFER, () -> w.iRecv(ByteBuffer.allocate(7), 2, MPI.INT, 0, 0));
        // null buffer with a positive count (a null buffer with count 0 is fine)
        expect(MPI.ERR_BUFFER, () -> w.send(null, 1, MPI.INT, 0, 0));
        expect(MPI.ERR_BUFFER, () -> w.recv(null, 3, MPI.INT, 0, 0));
        // a buffer whose Java type differs from the datatype is raw memory (as in Open MPI), checked in bytes
        expect(MPI.ERR_BUFFER, () -> w.send(new int[4], 3, MPI.DOUBLE, 0, 0));
        // an object that is no buffer at all
        expect(MPI.ERR_BUFFER, () -> w.send(new Object(), 1, MPI.INT, 0, 0));
        expect(MPI.ERR_BUFFER, () -> w.send("text", 1, MPI.CHAR, 0, 0));
        // invalid datatypes
        expect(MPI.ERR_TYPE, () -> w.send(buf, 1, null, 0, 0));
        expect(MPI.ERR_TYPE, () -> w.send(buf, 1, MPI.DATATYPE_NULL, 0, 0));
        // nothing above was sent: the communicator still works, and null/zero messages go through
        ringStillWorks(w);
        int rank = w.getRank();
        Status s = w.sendRecv(null, 0, MPI.INT, rank, 1, null, 0, MPI.INT, rank, 1);
        assertThat(s.getCount(MPI.INT)).isZero();
        assertThat(w.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG)).isNull();
    }

    @MpiTest(ranks = {2, 3})
    void truncationIsReportedAndTheNextMessageStillMatches() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int rank = w.getRank();
        if (rank == 1) {
            w.send(new int[] {1, 2, 3, 4, 5}, 5, MPI.INT, 0, 3);
            w.send(new int[200_000], 200_000, MPI.INT, 0, 3);
            w.send(new int[] {9}, 1, MPI.INT, 0, 3);
        } else if (rank == 0) {
            int[] small = new int[3];
            int[] guard = new int[8];
            expect(MPI.ERR_TRUNCATE, () -> w.recv(small, 3, MPI.INT, 1, 3));
            // the receive never writes past the buffer it was given
            expect(MPI.ERR_TRUNCATE, () -> w.recv(MPI.slice(guard, 0), 2, MPI.INT, 1, 3));
            assertThat(guard[2]).isZero();
            int[] one = new int[1];
            Status s = w.recv(one, 1, MPI.INT, 1, 3);
            assertThat(one[0]).isEqualTo(9);
            assertThat(s.getCount(MPI.INT)).isEqualTo(1);
            // the same through a non-blocking receive
            w.send(new int[] {7, 8}, 2, MPI.INT, 0, 4);
            mpi.Request r = w.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 0, 4);
            expect(MPI.ERR_TRUNCATE, r::waitFor);
        }
        ringStillWorks(w);
    }

    @MpiTest(ranks = {2})
    void errorsOnOneCommunicatorFollowItsOwnHandler() throws MPIException {
        MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
        expect(MPI.ERR_RANK, () -> MPI.COMM_SELF.send(new int[1], 1, MPI.INT, 1, 0));
        assertThat(MPI.COMM_WORLD.getErrhandler()).isSameAs(MPI.ERRORS_ARE_FATAL);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        // under ERRORS_RETURN the handler returns, so the call returns normally (issue 12, item 5)
        MPI.COMM_WORLD.callErrhandler(MPI.ERR_OTHER);
        MPI.COMM_WORLD.callErrhandler(MPI.ERR_ARG);
        ringStillWorks(MPI.COMM_WORLD);
        // the same for a window
        mpi.Win win = new mpi.Win(MPI.newByteBuffer(8), 8, 1, MPI.INFO_NULL, MPI.COMM_WORLD);
        win.setErrhandler(MPI.ERRORS_RETURN);
        win.callErrhandler(MPI.ERR_OTHER);
        win.free();
    }
}
