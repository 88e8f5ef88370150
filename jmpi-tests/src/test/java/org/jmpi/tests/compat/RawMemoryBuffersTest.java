package org.jmpi.tests.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import mpi.Comm;
import mpi.Datatype;
import mpi.DoubleInt;
import mpi.Int2;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jmpi.junit.MpiTest;

/**
 * Issue 12, item 1 (and 3): any primitive array or buffer is raw memory whatever the datatype, as in Open MPI's
 * Java bindings; counts and bounds are checked in bytes. Every call family that takes a buffer is tried: blocking,
 * non-blocking and persistent point-to-point, collectives (reductions on pair types over {@code byte[]} and direct
 * byte buffers), pack/unpack, and negative displacements over slices of direct buffers.
 */
class RawMemoryBuffersTest {

    private static void expect(int errorClass, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(MPIException.class,
                e -> assertThat(e.getErrorClass()).as(e.getMessage()).isEqualTo(errorClass));
    }

    private static int right(Comm w) throws MPIException {
        return (w.getRank() + 1) % w.getSize();
    }

    private static int left(Comm w) throws MPIException {
        return (w.getRank() + w.getSize() - 1) % w.getSize();
    }

    /** The bytes of {@code values} in native order. */
    private static byte[] nativeBytes(int... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.nativeOrder());
        for (int v : values) {
            b.putInt(v);
        }
        return b.array();
    }

    @MpiTest(ranks = {1, 2, 3, 4})
    void pointToPointTakesAnyArrayAsBytes() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int from = left(w);
        // an int[] sent as MPI.BYTE arrives as its native-order bytes
        int[] ints = {rank, rank * 1000 + 7, -rank, 0x01020304};
        byte[] bytes = new byte[16];
        w.sendRecv(ints, 16, MPI.BYTE, right(w), 1, bytes, 16, MPI.BYTE, from, 1);
        assertThat(bytes).containsExactly(nativeBytes(from, from * 1000 + 7, -from, 0x01020304));
        // ... and the bytes go back into a long[] read as MPI.INT (two ints per long)
        long[] longs = new long[3];
        Status s = w.sendRecv(bytes, 4, MPI.INT, right(w), 2, longs, 6, MPI.INT, left(w), 2);
        assertThat(s.getCount(MPI.INT)).isEqualTo(4);
        ByteBuffer lb = ByteBuffer.allocate(24).order(ByteOrder.nativeOrder());
        lb.asLongBuffer().put(longs);
        int twoBack = (rank + 2 * w.getSize() - 2) % w.getSize();
        assertThat(lb.getInt(0)).isEqualTo(twoBack);
        assertThat(lb.getInt(4)).isEqualTo(twoBack * 1000 + 7);
        assertThat(longs[2]).as("the receive never writes past the data received").isZero();
        // chars as MPI.SHORT, doubles as MPI.LONG: the bits travel unchanged
        char[] chars = {'j', 'm', 'p', 'i'};
        short[] shorts = new short[4];
        w.sendRecv(chars, 4, MPI.SHORT, right(w), 3, shorts, 4, MPI.SHORT, left(w), 3);
        assertThat(shorts).containsExactly((short) 'j', (short) 'm', (short) 'p', (short) 'i');
        double[] doubles = {Math.PI, -0.0, rank};
        long[] bits = new long[3];
        w.sendRecv(doubles, 3, MPI.LONG, right(w), 4, bits, 3, MPI.LONG, left(w), 4);
        assertThat(bits).containsExactly(Double.doubleToRawLongBits(Math.PI), Double.doubleToRawLongBits(-0.0),
                Double.doubleToRawLongBits(from));
        // booleans are one byte each
        boolean[] flags = {true, false, rank % 2 == 0};
        byte[] flagBytes = new byte[3];
        w.sendRecv(flags, 3, MPI.BYTE, right(w), 5, flagBytes, 3, MPI.BYTE, left(w), 5);
        assertThat(flagBytes).containsExactly(1, 0, from % 2 == 0 ? 1 : 0);
        boolean[] back = new boolean[3];
        w.sendRecv(new byte[] {0, 5, 1}, 3, MPI.BYTE, right(w), 6, back, 3, MPI.BOOLEAN, left(w), 6);
        assertThat(back).containsExactly(false, true, true);
    }

    @MpiTest(ranks = {1, 2, 3, 4})
    void nonBlockingAndPersistentCallsToo() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        float[] out = {rank + 0.5f, rank + 1.5f};
        int[] in = new int[2];
        Request r = w.iRecv(in, 8, MPI.BYTE, left(w), 10);
        Request sr = w.iSend(out, 2, MPI.INT, right(w), 10);
        sr.waitFor();
        r.waitFor();
        assertThat(Float.intBitsToFloat(in[1])).isEqualTo(left(w) + 1.5f);
        // a direct IntBuffer received as MPI.DOUBLE
        IntBuffer direct = MPI.newIntBuffer(4);
        Prequest recv = w.recvInit(direct, 2, MPI.DOUBLE, left(w), 11);
        Prequest send = w.sendInit(new double[] {rank, -rank}, 16, MPI.BYTE, right(w), 11);
        for (int round = 0; round < 3; round++) {
            recv.start();
            send.start();
            send.waitFor();
            recv.waitFor();
            ByteBuffer view = MPI.newByteBuffer(16);
            view.asIntBuffer().put(0, direct.get(0)).put(1, direct.get(1)).put(2, direct.get(2)).put(3,
                    direct.get(3));
            assertThat(view.getDouble(0)).isEqualTo(left(w));
            assertThat(view.getDouble(8)).isEqualTo(-left(w));
        }
        recv.free();
        send.free();
        // a direct CharBuffer (MPI.newCharBuffer, native order) receives MPI.CHAR from a char[]
        java.nio.CharBuffer chars = MPI.newCharBuffer(4);
        assertThat(chars.order()).isEqualTo(java.nio.ByteOrder.nativeOrder());
        w.sendRecv(("r" + rank % 10 + "ok").toCharArray(), 4, MPI.CHAR, right(w), 12, chars, 4, MPI.CHAR, left(w),
                12);
        assertThat(chars.duplicate().clear().toString()).isEqualTo("r" + left(w) % 10 + "ok");
        MPI.pControl(1, null); // MPI_Pcontrol, a hook for profiling tools: accepted, and nothing happens
    }

    @MpiTest(ranks = {1, 2, 3, 4})
    void collectivesAndPairReductionsOverBytes() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        // bcast of a double[] as bytes
        double[] d = rank == 0 ? new double[] {1.25, 2.5} : new double[2];
        w.bcast(d, 16, MPI.BYTE, 0);
        assertThat(d).containsExactly(1.25, 2.5);
        // MAXLOC on MPI.DOUBLE_INT pairs in a byte[] (the layout of the C struct: double, int, 4 bytes padding)
        int n = 3;
        byte[] pairs = new byte[n * MPI.DOUBLE_INT.getExtent()];
        ByteBuffer pv = ByteBuffer.wrap(pairs).order(ByteOrder.nativeOrder());
        for (int i = 0; i < n; i++) {
            pv.putDouble(i * 16, (rank * 7 + i * 3) % 5);
            pv.putInt(i * 16 + 8, rank);
        }
        byte[] best = new byte[pairs.length];
        w.allReduce(pairs, best, n, MPI.DOUBLE_INT, MPI.MAXLOC);
        ByteBuffer bv = ByteBuffer.wrap(best).order(ByteOrder.nativeOrder());
        for (int i = 0; i < n; i++) {
            double max = -1;
            int at = -1;
            for (int r = 0; r < size; r++) {
                double v = (r * 7 + i * 3) % 5;
                if (v > max) {
                    max = v;
                    at = r;
                }
            }
            assertThat(bv.getDouble(i * 16)).as("value %d", i).isEqualTo(max);
            assertThat(bv.getInt(i * 16 + 8)).as("index %d", i).isEqualTo(at);
        }
        // MINLOC on MPI.INT2 in a direct buffer sized by the type's extent, read through MPI.int2
        ByteBuffer int2 = MPI.newByteBuffer(MPI.INT2.getExtent());
        Int2.Data mine = MPI.int2.getData(int2);
        mine.putValue(100 - rank);
        mine.putIndex(rank);
        w.allReduce(int2, 1, MPI.INT2, MPI.MINLOC);
        Int2.Data min = MPI.int2.getData(int2);
        assertThat(min.getValue()).isEqualTo(100 - (size - 1));
        assertThat(min.getIndex()).isEqualTo(size - 1);
        // MPI.doubleInt pairs in a byte[] reduced in place
        byte[] di = new byte[MPI.doubleInt.getExtent()];
        DoubleInt.Data dd = MPI.doubleInt.getData(di);
        dd.putValue(rank == size - 1 ? -1.0 : rank);
        dd.putIndex(rank);
        w.allReduce(di, 1, MPI.DOUBLE_INT, MPI.MINLOC);
        assertThat(MPI.doubleInt.<DoubleInt.Data>getData(di).getIndex()).isEqualTo(size == 1 ? 0 : size - 1);
        // a sum over an int[] seen as MPI.LONG: the bytes are read as longs
        long[] expected = {(long) size * (size - 1) / 2};
        int[] asInts = new int[2];
        ByteBuffer tmp = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(0, rank);
        asInts[0] = tmp.getInt(0);
        asInts[1] = tmp.getInt(4);
        long[] sum = new long[1];
        w.allReduce(asInts, sum, 1, MPI.LONG, MPI.SUM);
        assertThat(sum).containsExactly(expected);
        // gather of shorts into an int[]
        short[] two = {(short) rank, (short) (rank + 100)};
        int[] all = new int[size];
        w.allGather(two, 2, MPI.SHORT, all, 2, MPI.SHORT);
        ByteBuffer av = ByteBuffer.allocate(size * 4).order(ByteOrder.nativeOrder());
        av.asIntBuffer().put(all);
        for (int r = 0; r < size; r++) {
            assertThat(av.getShort(r * 4)).isEqualTo((short) r);
            assertThat(av.getShort(r * 4 + 2)).isEqualTo((short) (r + 100));
        }
    }

    /** The boolean that rank {@code from} sends rank {@code to} as element {@code k}: a mix of both values. */
    private static boolean flag(int from, int to, int k) {
        return (from * 7 + to * 3 + k) % 3 != 0;
    }

    /**
     * Alltoallw over {@code boolean[]} with derived datatypes on both sides, as Open MPI's bindings allow: to peer j,
     * every other element of the 5 starting at byte displacement 5j (a vector of 2 blocks of 1, stride 2); from peer
     * i, every third element of the 6 starting at 6i. Elements between the blocks keep their marks. Then contiguous
     * blocks at displacements that are not multiples of their length.
     */
    @MpiTest(ranks = {1, 2, 3, 4})
    void alltoallwTakesDerivedTypesOverBooleanArrays() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        Datatype every2nd = Datatype.createVector(2, 1, 2, MPI.BOOLEAN);
        Datatype every3rd = Datatype.createVector(2, 1, 3, MPI.BOOLEAN);
        every2nd.commit();
        every3rd.commit();
        boolean[] send = new boolean[5 * size];
        boolean[] recv = new boolean[6 * size];
        int[] ones = new int[size];
        int[] sendAt = new int[size];
        int[] recvAt = new int[size];
        Datatype[] sendTypes = new Datatype[size];
        Datatype[] recvTypes = new Datatype[size];
        for (int j = 0; j < size; j++) {
            for (int k = 0; k < 5; k++) {
                send[5 * j + k] = !flag(rank, j, k / 2); // the gaps hold the opposite of what is sent
            }
            send[5 * j] = flag(rank, j, 0);
            send[5 * j + 2] = flag(rank, j, 1);
            java.util.Arrays.fill(recv, 6 * j, 6 * j + 6, true);
            ones[j] = 1;
            sendAt[j] = 5 * j;
            recvAt[j] = 6 * j;
            sendTypes[j] = every2nd;
            recvTypes[j] = every3rd;
        }
        for (int j = 0; j < size; j++) {
            recv[6 * j] = !flag(j, rank, 0); // so that a block not written shows
            recv[6 * j + 3] = !flag(j, rank, 1);
        }
        w.allToAllw(send, ones, sendAt, sendTypes, recv, ones, recvAt, recvTypes);
        for (int i = 0; i < size; i++) {
            for (int k = 0; k < 6; k++) {
                boolean want = k == 0 ? flag(i, rank, 0) : k == 3 ? flag(i, rank, 1) : true;
                assertThat(recv[6 * i + k]).as("element %d of the block from rank %d", k, i).isEqualTo(want);
            }
        }
        every2nd.free();
        every3rd.free();

        // and contiguous blocks: 2 booleans from 3j to 4i + 1
        boolean[] plain = new boolean[3 * size];
        boolean[] into = new boolean[4 * size];
        int[] twos = new int[size];
        Datatype[] bools = new Datatype[size];
        for (int j = 0; j < size; j++) {
            plain[3 * j] = flag(rank, j, 0);
            plain[3 * j + 1] = flag(rank, j, 1);
            plain[3 * j + 2] = !flag(rank, j, 2);
            sendAt[j] = 3 * j;
            recvAt[j] = 4 * j + 1;
            twos[j] = 2;
            bools[j] = MPI.BOOLEAN;
        }
        w.allToAllw(plain, twos, sendAt, bools, into, twos, recvAt, bools);
        for (int i = 0; i < size; i++) {
            boolean[] block = java.util.Arrays.copyOfRange(into, 4 * i, 4 * i + 4);
            assertThat(block).as("the block from rank %d", i).containsExactly(false, flag(i, rank, 0),
                    flag(i, rank, 1), false);
        }
    }

    @MpiTest(ranks = 1)
    void packAndUnpackAnyArray() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        // a struct over bytes: a short at 0 and an int at 4 (bytes 2-3 a gap), used on an int[]
        Datatype struct = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 4}, new Datatype[] {MPI.SHORT,
            MPI.INT});
        struct.commit();
        int[] data = new int[4];
        ByteBuffer view = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
        view.putShort(0, (short) 11).putInt(4, 22).putShort(8, (short) 33).putInt(12, 44);
        view.asIntBuffer().get(data);
        byte[] packed = new byte[w.packSize(2, struct)];
        assertThat(packed).hasSize(12);
        int pos = w.pack(data, 2, struct, packed, 0);
        assertThat(pos).isEqualTo(12);
        ByteBuffer pv = ByteBuffer.wrap(packed).order(ByteOrder.nativeOrder());
        assertThat(pv.getShort(0)).isEqualTo((short) 11);
        assertThat(pv.getInt(2)).isEqualTo(22);
        assertThat(pv.getShort(6)).isEqualTo((short) 33);
        assertThat(pv.getInt(8)).isEqualTo(44);
        long[] target = new long[2];
        w.unpack(packed, 0, target, 2, struct);
        ByteBuffer tv = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
        tv.asLongBuffer().put(target);
        assertThat(tv.getShort(0)).isEqualTo((short) 11);
        assertThat(tv.getShort(2)).as("the gap is not written").isZero();
        assertThat(tv.getInt(12)).isEqualTo(44);
        struct.free();
    }

    @MpiTest(ranks = {1, 2})
    void realMistakesAreStillErrors() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int rank = w.getRank();
        // counts are checked in bytes against the array's byte length
        expect(MPI.ERR_BUFFER, () -> w.send(new int[2], 9, MPI.BYTE, rank, 0));
        expect(MPI.ERR_BUFFER, () -> w.recv(new byte[7], 1, MPI.DOUBLE, rank, 0));
        expect(MPI.ERR_BUFFER, () -> w.iSend(MPI.newIntBuffer(1), 2, MPI.SHORT_INT, rank, 0));
        expect(MPI.ERR_BUFFER, () -> w.allReduce(new byte[11], new byte[16], 1, MPI.LONG_INT, MPI.MAXLOC));
        expect(MPI.ERR_BUFFER, () -> w.pack(new short[1], 1, MPI.INT, new byte[4], 0));
        expect(MPI.ERR_COUNT, () -> w.send(new int[2], -1, MPI.BYTE, rank, 0));
        // a receive of fewer bytes writes only those
        int[] target = {-1, -1};
        w.sendRecv(new byte[] {1, 2, 3}, 3, MPI.BYTE, rank, 1, target, 8, MPI.BYTE, rank, 1);
        assertThat(target[1]).isEqualTo(-1);
        assertThat(ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, target[0]).get(3))
                .isEqualTo((byte) -1);
        // a message longer than the receive buffer is a truncation and writes nothing past it
        long[] small = {-1L, -1L};
        expect(MPI.ERR_TRUNCATE,
                () -> w.sendRecv(new int[] {1, 2, 3}, 3, MPI.INT, rank, 2, MPI.slice(small, 0), 1, MPI.INT, rank,
                        2));
        assertThat(small[1]).isEqualTo(-1L);
        ringStillWorks(w);
    }

    /** MPI-IO takes buffers the same way: an int[] written as bytes reads back into a long[] as ints. */
    @MpiTest(ranks = {1, 2})
    void fileAccessTakesAnyArray() throws Exception {
        int rank = MPI.COMM_WORLD.getRank();
        Path dir = Files.createTempDirectory("jmpi-raw-memory");
        mpi.File f = new mpi.File(MPI.COMM_SELF, dir.resolve("rank" + rank + ".bin").toString(),
                MPI.MODE_CREATE | MPI.MODE_RDWR | MPI.MODE_DELETE_ON_CLOSE);
        try {
            f.writeAt(0, new int[] {rank, -1, 0x01020304, 7}, 16, MPI.BYTE);
            long[] back = new long[2];
            f.readAt(0, back, 4, MPI.INT);
            ByteBuffer v = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
            v.asLongBuffer().put(back);
            assertThat(new int[] {v.getInt(0), v.getInt(4), v.getInt(8), v.getInt(12)}).containsExactly(rank, -1,
                    0x01020304, 7);
            expect(MPI.ERR_BUFFER, () -> f.readAt(0, new short[1], 1, MPI.INT)); // 4 bytes into 2
        } finally {
            f.close();
            Files.deleteIfExists(dir);
        }
    }

    private static void ringStillWorks(Comm w) throws MPIException {
        int[] in = new int[1];
        w.sendRecv(new int[] {w.getRank()}, 1, MPI.INT, right(w), 77, in, 1, MPI.INT, left(w), 77);
        assertThat(in[0]).isEqualTo(left(w));
    }

    /** Item 3: negative displacements over a slice of a direct buffer reach the bytes before the slice. */
    @MpiTest(ranks = {1, 2})
    void negativeStrideOverDirectSlices() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int rank = w.getRank();
        Datatype backwards = Datatype.createVector(3, 1, -2, MPI.INT);
        backwards.commit();
        for (boolean direct : new boolean[] {true, false}) {
            IntBuffer base = direct ? MPI.newIntBuffer(8) : IntBuffer.allocate(8);
            for (int i = 0; i < 8; i++) {
                base.put(i, 10 * rank + i);
            }
            IntBuffer slice = MPI.slice(base, 5); // elements 5, 3 and 1 of base
            int[] got = new int[3];
            w.sendRecv(slice, 1, backwards, right(w), 20, got, 3, MPI.INT, left(w), 20);
            int l = left(w);
            assertThat(got).as(direct ? "direct" : "heap").containsExactly(10 * l + 5, 10 * l + 3, 10 * l + 1);
            // the same reach from a slice at 3 would start before the buffer
            expect(MPI.ERR_BUFFER, () -> w.send(MPI.slice(base, 3), 1, backwards, right(w), 21));
            // a byte slice of a direct ByteBuffer, received into with a negative stride
            ByteBuffer bytes = direct ? MPI.newByteBuffer(32) : ByteBuffer.allocate(32);
            ByteBuffer at = MPI.slice(bytes, 20);
            w.sendRecv(new int[] {7, 8, 9}, 3, MPI.INT, rank, 22, at, 1, backwards, rank, 22);
            IntBuffer check = bytes.order(ByteOrder.nativeOrder()).asIntBuffer();
            assertThat(new int[] {check.get(5), check.get(3), check.get(1), check.get(4)}).containsExactly(7, 8, 9,
                    0);
        }
        backwards.free();
    }
}
