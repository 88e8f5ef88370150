package org.jmpi.tests.datatype;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jmpi.junit.MpiTest;

/**
 * Bad datatype input under MPI.ERRORS_RETURN: an MPIException of the right class, never an exception from inside the
 * library, and the communicator keeps working.
 */
class DatatypeErrorsTest {

    private static void expect(int errorClass, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(MPIException.class, e -> {
            assertThat(e.getErrorClass()).as(e.getMessage()).isEqualTo(errorClass);
            assertThat(e.getMessage()).isNotBlank();
        });
    }

    @MpiTest(ranks = {1, 2}, timeoutSeconds = 30)
    void badDatatypesRaiseTheRightClass() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int rank = w.getRank();
        int[] buf = new int[16];
        byte[] packed = new byte[64];

        // an uncommitted type: ERR_TYPE wherever it is used for data
        Datatype loose = Datatype.createVector(2, 1, 3, MPI.INT);
        expect(MPI.ERR_TYPE, () -> w.send(buf, 1, loose, rank, 0));
        expect(MPI.ERR_TYPE, () -> w.recv(buf, 1, loose, rank, 0));
        expect(MPI.ERR_TYPE, () -> w.iSend(IntBuffer.wrap(buf), 1, loose, rank, 0));
        expect(MPI.ERR_TYPE, () -> w.sendInit(MPI.newIntBuffer(16), 1, loose, rank, 0));
        expect(MPI.ERR_TYPE, () -> w.pack(buf, 1, loose, packed, 0));
        expect(MPI.ERR_TYPE, () -> w.unpack(packed, 0, buf, 1, loose));
        expect(MPI.ERR_TYPE, () -> w.packSize(1, loose));
        // ... but it may build other types, and its queries work
        assertThat(loose.getExtent()).isEqualTo(4);
        Datatype outer = Datatype.createContiguous(2, loose);
        outer.commit();
        loose.commit();

        // a freed type: ERR_TYPE everywhere, including queries and building on it
        Datatype gone = Datatype.createContiguous(3, MPI.INT);
        gone.commit();
        gone.free();
        assertThat(gone.isNull()).isTrue();
        expect(MPI.ERR_TYPE, () -> w.send(buf, 1, gone, rank, 0));
        expect(MPI.ERR_TYPE, () -> w.recv(buf, 1, gone, rank, 0));
        expect(MPI.ERR_TYPE, () -> w.pack(buf, 1, gone, packed, 0));
        expect(MPI.ERR_TYPE, gone::getExtent);
        expect(MPI.ERR_TYPE, gone::getSize);
        expect(MPI.ERR_TYPE, gone::commit);
        expect(MPI.ERR_TYPE, gone::free);
        expect(MPI.ERR_TYPE, gone::dup);
        expect(MPI.ERR_TYPE, () -> Datatype.createVector(2, 1, 2, gone));
        expect(MPI.ERR_TYPE, () -> Datatype.createStruct(new int[] {1}, new int[] {0}, new Datatype[] {gone}));
        expect(MPI.ERR_TYPE, () -> Datatype.createContiguous(2, null));
        expect(MPI.ERR_TYPE, () -> Datatype.createContiguous(2, MPI.DATATYPE_NULL));
        expect(MPI.ERR_TYPE, MPI.INT::free);

        // a type whose extent runs past the end of the buffer: ERR_BUFFER, for every buffer kind
        Datatype wide = Datatype.createVector(4, 2, 5, MPI.INT); // spans 17 ints
        wide.commit();
        expect(MPI.ERR_BUFFER, () -> w.send(buf, 1, wide, rank, 0));
        expect(MPI.ERR_BUFFER, () -> w.recv(buf, 1, wide, rank, 0));
        expect(MPI.ERR_BUFFER, () -> w.send(new int[40], 3, wide, rank, 0));
        expect(MPI.ERR_BUFFER, () -> w.send(MPI.slice(new int[20], 4), 1, wide, rank, 0));
        expect(MPI.ERR_BUFFER, () -> w.iRecv(MPI.newIntBuffer(16), 1, wide, rank, 0));
        expect(MPI.ERR_BUFFER, () -> w.send(ByteBuffer.allocate(67), 1, wide, rank, 0));
        expect(MPI.ERR_BUFFER, () -> w.pack(buf, 1, wide, packed, 0));
        expect(MPI.ERR_BUFFER, () -> w.unpack(packed, 0, buf, 1, wide));
        Datatype before = Datatype.createHVector(2, 1, -8, MPI.INT); // reaches 8 bytes before the buffer start
        before.commit();
        expect(MPI.ERR_BUFFER, () -> w.send(buf, 1, before, rank, 0));
        expect(MPI.ERR_BUFFER, () -> w.send(new boolean[4], 2, booleanPairs(), rank, 0));
        // a struct type is byte-based; an int[] is raw memory for it (issue 12), but only as far as its bytes go
        Datatype struct = Datatype.createStruct(new int[] {1}, new int[] {60}, new Datatype[] {MPI.INT});
        struct.commit();
        w.sendRecv(buf, 1, struct, rank, 0, new int[1], 1, MPI.INT, rank, 0);
        expect(MPI.ERR_BUFFER, () -> w.send(new int[15], 1, struct, rank, 0));

        // packing into too small a buffer, or at a bad position
        expect(MPI.ERR_TRUNCATE, () -> w.pack(buf, 16, MPI.INT, packed, 8));
        expect(MPI.ERR_TRUNCATE, () -> w.unpack(packed, 60, buf, 2, MPI.INT));
        expect(MPI.ERR_ARG, () -> w.pack(buf, 1, MPI.INT, packed, -1));
        expect(MPI.ERR_ARG, () -> w.pack(buf, 1, MPI.INT, packed, 65));
        expect(MPI.ERR_COUNT, () -> w.pack(buf, -1, MPI.INT, packed, 0));

        // bad constructor arguments
        expect(MPI.ERR_COUNT, () -> Datatype.createVector(-1, 1, 1, MPI.INT));
        expect(MPI.ERR_COUNT, () -> Datatype.createContiguous(-3, MPI.INT));
        expect(MPI.ERR_ARG, () -> Datatype.createVector(2, -1, 1, MPI.INT));
        expect(MPI.ERR_ARG, () -> Datatype.createIndexed(new int[] {1, 2}, new int[] {0}, MPI.INT));
        expect(MPI.ERR_ARG, () -> Datatype.createIndexed(null, new int[] {0}, MPI.INT));
        expect(MPI.ERR_ARG, () -> Datatype.createStruct(new int[] {1}, new int[] {0}, null));
        expect(MPI.ERR_ARG, () -> Datatype.createResized(MPI.INT, 0, -1));

        // keyvals
        expect(MPI.ERR_KEYVAL, () -> wide.setAttr(123_456, "x"));
        expect(MPI.ERR_KEYVAL, () -> Datatype.freeKeyval(123_456));
        int key = Datatype.createKeyval();
        expect(MPI.ERR_ARG, () -> wide.setAttr(key, new Object()));
        Datatype.freeKeyval(key);

        // nothing above was sent: the communicator still works with derived types
        int[] in = new int[17];
        int[] out = new int[17];
        for (int i = 0; i < 17; i++) {
            out[i] = i + 1;
        }
        w.sendRecv(out, 1, wide, rank, 5, in, 1, wide, rank, 5);
        assertThat(in).containsExactly(1, 2, 0, 0, 0, 6, 7, 0, 0, 0, 11, 12, 0, 0, 0, 16, 17);
        outer.free();
        loose.free();
        wide.free();
        before.free();
        struct.free();
    }

    private static Datatype booleanPairs() throws MPIException {
        Datatype t = Datatype.createVector(2, 1, 2, MPI.BOOLEAN);
        t.commit();
        return t;
    }
}
