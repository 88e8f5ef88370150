package org.jmpi.tests.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Arrays;
import java.util.function.IntToDoubleFunction;
import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.jmpi.junit.MpiTest;

/**
 * {@code MPI.slice} of every kind: the seven direct buffers of {@code MPI.newXxxBuffer} and the seven primitive
 * arrays. A slice at element 2 of six elements receives three elements from the left neighbour, which land at
 * elements 2 to 4 of the whole buffer or array, while elements 0, 1 and 5 keep their mark. (The corpus's
 * {@code Slices} program covers int and double slices only.)
 */
class SlicesOfEveryKindTest {
    private static final int OFFSET = 2;
    private static final int TAG = 40;

    @MpiTest(ranks = {1, 2, 3})
    void everySliceReceivesAtItsOffset() throws MPIException {
        int v = 10 * MPI.COMM_WORLD.getRank(); // each rank sends v + 1, v + 2, v + 3
        byte[] bytes = {(byte) (v + 1), (byte) (v + 2), (byte) (v + 3)};
        char[] chars = {(char) (v + 1), (char) (v + 2), (char) (v + 3)};
        short[] shorts = {(short) (v + 1), (short) (v + 2), (short) (v + 3)};
        int[] ints = {v + 1, v + 2, v + 3};
        long[] longs = {v + 1, v + 2, v + 3};
        float[] floats = {v + 1, v + 2, v + 3};
        double[] doubles = {v + 1, v + 2, v + 3};

        ByteBuffer b = MPI.newByteBuffer(6);
        CharBuffer c = MPI.newCharBuffer(6);
        ShortBuffer s = MPI.newShortBuffer(6);
        IntBuffer i = MPI.newIntBuffer(6);
        LongBuffer l = MPI.newLongBuffer(6);
        FloatBuffer f = MPI.newFloatBuffer(6);
        DoubleBuffer d = MPI.newDoubleBuffer(6);
        for (int k = 0; k < 6; k++) {
            b.put(k, (byte) -1);
            c.put(k, 'x');
            s.put(k, (short) -1);
            i.put(k, -1);
            l.put(k, -1);
            f.put(k, -1);
            d.put(k, -1);
        }
        check("ByteBuffer", MPI.BYTE, MPI.slice(b, OFFSET), bytes, b::get, -1);
        check("CharBuffer", MPI.CHAR, MPI.slice(c, OFFSET), chars, c::get, 'x');
        check("ShortBuffer", MPI.SHORT, MPI.slice(s, OFFSET), shorts, s::get, -1);
        check("IntBuffer", MPI.INT, MPI.slice(i, OFFSET), ints, i::get, -1);
        check("LongBuffer", MPI.LONG, MPI.slice(l, OFFSET), longs, l::get, -1);
        check("FloatBuffer", MPI.FLOAT, MPI.slice(f, OFFSET), floats, f::get, -1);
        check("DoubleBuffer", MPI.DOUBLE, MPI.slice(d, OFFSET), doubles, d::get, -1);

        byte[] ba = new byte[6];
        char[] ca = new char[6];
        short[] sa = new short[6];
        int[] ia = new int[6];
        long[] la = new long[6];
        float[] fa = new float[6];
        double[] da = new double[6];
        Arrays.fill(ba, (byte) -1);
        Arrays.fill(ca, 'x');
        Arrays.fill(sa, (short) -1);
        Arrays.fill(ia, -1);
        Arrays.fill(la, -1);
        Arrays.fill(fa, -1);
        Arrays.fill(da, -1);
        check("byte[]", MPI.BYTE, MPI.slice(ba, OFFSET), bytes, k -> ba[k], -1);
        check("char[]", MPI.CHAR, MPI.slice(ca, OFFSET), chars, k -> ca[k], 'x');
        check("short[]", MPI.SHORT, MPI.slice(sa, OFFSET), shorts, k -> sa[k], -1);
        check("int[]", MPI.INT, MPI.slice(ia, OFFSET), ints, k -> ia[k], -1);
        check("long[]", MPI.LONG, MPI.slice(la, OFFSET), longs, k -> la[k], -1);
        check("float[]", MPI.FLOAT, MPI.slice(fa, OFFSET), floats, k -> fa[k], -1);
        check("double[]", MPI.DOUBLE, MPI.slice(da, OFFSET), doubles, k -> da[k], -1);
    }

    /**
     * A new {@code MPI.slice} per call, as programs of the Open MPI API start at an offset of a direct buffer: slices
     * at offsets that change from call to call and come back to places used before carry each call's own bytes (jmpi
     * finds the view of a slice just made by where its memory starts); a slice that the count does not fit, or a
     * read-only one to receive into, is refused although a view of that place was made before.
     */
    @MpiTest(ranks = {1, 2, 3})
    void newSlicePerCallAtChangingOffsets() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int size = w.getSize();
        int rank = w.getRank();
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        ByteBuffer out = MPI.newByteBuffer(32);
        ByteBuffer in = MPI.newByteBuffer(32);
        DoubleBuffer dout = MPI.newDoubleBuffer(8);
        DoubleBuffer din = MPI.newDoubleBuffer(8);
        for (int call = 0; call < 60; call++) {
            int off = call * 5 % 24; // 0, 5, 10, 15, 20, 1, 6, ...: every place comes back
            int inOff = call * 7 % 24;
            for (int k = 0; k < 8; k++) {
                out.put(off + k, (byte) (rank * 64 + call + k));
            }
            Request r = w.iRecv(MPI.slice(in, inOff), 8, MPI.BYTE, left, call);
            w.send(MPI.slice(out, off), 8, MPI.BYTE, right, call);
            r.waitFor();
            for (int k = 0; k < 8; k++) {
                assertThat(in.get(inOff + k)).as("call %d, byte %d", call, k).isEqualTo((byte) (left * 64 + call + k));
            }
            int dOff = call % 5;
            int dInOff = call * 3 % 5;
            for (int k = 0; k < 3; k++) {
                dout.put(dOff + k, rank * 1000 + call * 10 + k);
            }
            r = w.iRecv(MPI.slice(din, dInOff), 3, MPI.DOUBLE, left, 200 + call);
            w.send(MPI.slice(dout, dOff), 3, MPI.DOUBLE, right, 200 + call);
            r.waitFor();
            for (int k = 0; k < 3; k++) {
                assertThat(din.get(dInOff + k)).as("call %d, double %d", call, k)
                        .isEqualTo(left * 1000 + call * 10 + k);
            }
        }

        w.setErrhandler(MPI.ERRORS_RETURN);
        ByteBuffer whole = MPI.newByteBuffer(32);
        byte[] into = new byte[16];
        w.sendRecv(MPI.slice(whole, 0), 16, MPI.BYTE, rank, 1, into, 16, MPI.BYTE, rank, 1); // a view of 16 bytes there
        ByteBuffer half = whole.slice(0, 8); // the same place, 8 bytes
        assertThatThrownBy(() -> w.send(MPI.slice(half, 0), 16, MPI.BYTE, rank, 2))
                .isInstanceOfSatisfying(MPIException.class,
                        e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_BUFFER));
        ByteBuffer readOnly = whole.asReadOnlyBuffer();
        w.sendRecv(MPI.slice(readOnly, 0), 8, MPI.BYTE, rank, 3, into, 8, MPI.BYTE, rank, 3); // a read-only view there
        assertThatThrownBy(() -> w.iRecv(MPI.slice(readOnly, 0), 8, MPI.BYTE, rank, 4))
                .isInstanceOfSatisfying(MPIException.class,
                        e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_BUFFER));
    }

    /** Sends {@code send} right and receives into {@code slice} from the left; checks all six elements. */
    private static void check(String what, Datatype type, Object slice, Object send, IntToDoubleFunction whole,
            double mark) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int size = w.getSize();
        int rank = w.getRank();
        int left = (rank + size - 1) % size;
        w.sendRecv(send, 3, type, (rank + 1) % size, TAG, slice, 3, type, left, TAG);
        for (int k = 0; k < 6; k++) {
            double expected = k >= OFFSET && k < OFFSET + 3 ? 10 * left + k - OFFSET + 1 : mark;
            assertThat(whole.applyAsDouble(k)).as("%s, element %d", what, k).isEqualTo(expected);
        }
    }
}
