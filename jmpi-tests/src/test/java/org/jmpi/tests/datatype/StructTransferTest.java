package org.jmpi.tests.datatype;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.DoubleComplex;
import mpi.DoubleInt;
import mpi.FloatComplex;
import mpi.FloatInt;
import mpi.Int2;
import mpi.LongInt;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.ShortInt;
import mpi.Status;
import mpi.Struct;
import org.jmpi.junit.MpiTest;

/**
 * Arrays of {@link Struct}s (every field kind, nested structs, padding) over {@code byte[]} and direct buffers, the
 * pair types with their helper objects, and the complex types.
 */
class StructTransferTest {
    /** Every field kind, with explicit padding before the doubles. */
    static final class Particle extends Struct {
        final int id = addInt();
        final int flag = addBoolean();
        final int kind = addByte();
        final int letter = addChar();
        final int small = addShort();
        final int pos = setOffset(16).addDouble(3);
        final int mass = addFloat();
        final int stamp = setOffset(48).addLong();
        final int tags = addByte(3);

        Particle() throws MPIException {}

        private int addBoolean() throws MPIException {
            return addData(MPI.BOOLEAN);
        }

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            void fill(int seed) {
                putInt(id, seed);
                putByte(flag, (byte) (seed % 2));
                putByte(kind, (byte) (seed * 3));
                putChar(letter, (char) ('a' + seed % 26));
                putShort(small, (short) (seed - 7));
                for (int i = 0; i < 3; i++) {
                    putDouble(pos, i, seed + i / 4.0);
                }
                putFloat(mass, seed / 2f);
                putLong(stamp, seed * 1_000_000_007L);
                for (int i = 0; i < 3; i++) {
                    putByte(tags, i, (byte) (seed + i));
                }
            }

            void check(int seed) {
                assertThat(getInt(id)).isEqualTo(seed);
                assertThat(getByte(flag)).isEqualTo((byte) (seed % 2));
                assertThat(getByte(kind)).isEqualTo((byte) (seed * 3));
                assertThat(getChar(letter)).isEqualTo((char) ('a' + seed % 26));
                assertThat(getShort(small)).isEqualTo((short) (seed - 7));
                for (int i = 0; i < 3; i++) {
                    assertThat(getDouble(pos, i)).isEqualTo(seed + i / 4.0);
                }
                assertThat(getFloat(mass)).isEqualTo(seed / 2f);
                assertThat(getLong(stamp)).isEqualTo(seed * 1_000_000_007L);
                for (int i = 0; i < 3; i++) {
                    assertThat(getByte(tags, i)).isEqualTo((byte) (seed + i));
                }
            }
        }
    }

    /** A struct holding a header, an array of two nested particles and a trailing int. */
    static final class Cell extends Struct {
        private final Particle particle;
        final int count;
        final int particles;
        final int checksum;

        Cell(Particle p) throws MPIException {
            particle = p;
            count = addInt();
            particles = setOffset(8).addStruct(p, 2);
            checksum = addInt();
        }

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            Particle.Data particle(int i) {
                return getData(particle, particles, i);
            }

            void fill(int seed) {
                putInt(count, 2);
                particle(0).fill(seed);
                particle(1).fill(seed + 50);
                putInt(checksum, -seed);
            }

            void check(int seed) {
                assertThat(getInt(count)).isEqualTo(2);
                particle(0).check(seed);
                particle(1).check(seed + 50);
                assertThat(getInt(checksum)).isEqualTo(-seed);
            }
        }
    }

    private static int rank() throws MPIException {
        return MPI.COMM_WORLD.getRank();
    }

    private static int right() throws MPIException {
        return (rank() + 1) % MPI.COMM_WORLD.getSize();
    }

    private static int left() throws MPIException {
        int size = MPI.COMM_WORLD.getSize();
        return (rank() + size - 1) % size;
    }

    @MpiTest(ranks = {1, 2, 3}, timeoutSeconds = 30)
    void arraysOfStructsOverByteArraysAndDirectBuffers() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        Particle p = new Particle();
        assertThat(p.getExtent()).isEqualTo(59);
        Datatype type = p.getType();
        assertThat(type.getExtent()).isEqualTo(59);
        assertThat(type.getSize()).isEqualTo(4 + 1 + 1 + 2 + 2 + 24 + 4 + 8 + 3);
        int n = 40;
        byte[] out = new byte[n * p.getExtent()];
        for (int i = 0; i < n; i++) {
            ((Particle.Data) p.getData(out, i)).fill(rank() * 100 + i);
        }
        // byte[] to direct buffer
        ByteBuffer in = MPI.newByteBuffer(n * p.getExtent());
        Status s = w.sendRecv(out, n, type, right(), 1, in, n, type, left(), 1);
        assertThat(s.getCount(type)).isEqualTo(n);
        for (int i = 0; i < n; i++) {
            ((Particle.Data) p.getData(in, i)).check(left() * 100 + i);
        }
        // the gaps of the layout are not written by a receive
        assertThat(in.get(12)).isZero();
        // direct buffer to byte[], non-blocking
        byte[] back = new byte[n * p.getExtent()];
        Request r = w.iRecv(back, n, type, right(), 2);
        w.send(in, n, type, left(), 2);
        r.waitFor();
        for (int i = 0; i < n; i++) {
            ((Particle.Data) p.getData(back, i)).check(rank() * 100 + i);
        }
    }

    @MpiTest(ranks = {1, 2}, timeoutSeconds = 30)
    void nestedStructs() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        Particle p = new Particle();
        Cell c = new Cell(p);
        assertThat(c.getExtent()).isEqualTo(8 + 2 * 59 + 4);
        int n = 5;
        ByteBuffer out = MPI.newByteBuffer(n * c.getExtent());
        for (int i = 0; i < n; i++) {
            ((Cell.Data) c.getData(out, i)).fill(rank() * 10 + i);
        }
        byte[] in = new byte[n * c.getExtent()];
        w.sendRecv(out, n, c.getType(), right(), 3, in, n, c.getType(), left(), 3);
        for (int i = 0; i < n; i++) {
            ((Cell.Data) c.getData(in, i)).check(left() * 10 + i);
        }
        // a vector of every other cell, built on the struct type
        Datatype everyOther = Datatype.createVector(2, 1, 2, c.getType());
        everyOther.commit();
        assertThat(everyOther.getExtent()).isEqualTo(3 * c.getExtent());
        byte[] two = new byte[2 * c.getExtent()];
        w.sendRecv(out, 1, everyOther, right(), 4, two, 2, c.getType(), left(), 4);
        ((Cell.Data) c.getData(two, 0)).check(left() * 10);
        ((Cell.Data) c.getData(two, 1)).check(left() * 10 + 2);
        everyOther.free();
    }

    @MpiTest(ranks = {1, 3}, timeoutSeconds = 30)
    void pairTypesAndTheirHelpers() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        assertThat(MPI.doubleInt.getType()).isSameAs(MPI.DOUBLE_INT);
        assertThat(MPI.DOUBLE_INT.getSize()).isEqualTo(12);
        assertThat(MPI.DOUBLE_INT.getExtent()).isEqualTo(16);
        assertThat(MPI.SHORT_INT.getSize()).isEqualTo(6);
        int n = 4;
        ByteBuffer di = MPI.newByteBuffer(n * 16);
        ByteBuffer si = MPI.newByteBuffer(n * 8);
        ByteBuffer li = MPI.newByteBuffer(n * 16);
        int[] i2 = new int[2 * n];
        byte[] fi = new byte[n * 8];
        for (int k = 0; k < n; k++) {
            FloatInt.Data f = MPI.floatInt.getData(fi, k);
            f.putValue(rank() + 0.25f * k);
            f.putIndex(100 + k);
            DoubleInt.Data d = MPI.doubleInt.getData(di, k);
            d.putValue(rank() + k / 8.0);
            d.putIndex(k);
            ShortInt.Data s = MPI.shortInt.getData(si, k);
            s.putValue((short) (rank() - k));
            s.putIndex(10 + k);
            LongInt.Data l = MPI.longInt.getData(li, k);
            l.putValue(Long.MAX_VALUE - rank());
            l.putIndex(-k);
            i2[2 * k] = rank();
            i2[2 * k + 1] = k;
        }
        ByteBuffer di2 = MPI.newByteBuffer(n * 16);
        ByteBuffer si2 = MPI.newByteBuffer(n * 8);
        ByteBuffer li2 = MPI.newByteBuffer(n * 16);
        int[] i22 = new int[2 * n];
        w.sendRecv(di, n, MPI.DOUBLE_INT, right(), 5, di2, n, MPI.DOUBLE_INT, left(), 5);
        w.sendRecv(si, n, MPI.SHORT_INT, right(), 6, si2, n, MPI.SHORT_INT, left(), 6);
        w.sendRecv(li, n, MPI.LONG_INT, right(), 7, li2, n, MPI.LONG_INT, left(), 7);
        byte[] fi2 = new byte[n * 8];
        w.sendRecv(fi, n, MPI.FLOAT_INT, right(), 11, fi2, n, MPI.FLOAT_INT, left(), 11);
        Status st = w.sendRecv(i2, n, MPI.INT2, right(), 8, i22, n, MPI.INT2, left(), 8);
        assertThat(st.getElements(MPI.INT2)).isEqualTo(2 * n);
        for (int k = 0; k < n; k++) {
            DoubleInt.Data d = MPI.doubleInt.getData(di2, k);
            assertThat(d.getValue()).isEqualTo(left() + k / 8.0);
            assertThat(d.getIndex()).isEqualTo(k);
            ShortInt.Data s = MPI.shortInt.getData(si2, k);
            assertThat(s.getValue()).isEqualTo((short) (left() - k));
            assertThat(s.getIndex()).isEqualTo(10 + k);
            LongInt.Data l = MPI.longInt.getData(li2, k);
            assertThat(l.getValue()).isEqualTo(Long.MAX_VALUE - left());
            assertThat(l.getIndex()).isEqualTo(-k);
            FloatInt.Data f = MPI.floatInt.getData(fi2, k);
            assertThat(f.getValue()).isEqualTo(left() + 0.25f * k);
            assertThat(f.getIndex()).isEqualTo(100 + k);
            Int2.Data p = MPI.int2.getData(ByteBuffer.wrap(toBytes(i22)).order(java.nio.ByteOrder.nativeOrder()), k);
            assertThat(p.getValue()).isEqualTo(left());
            assertThat(p.getIndex()).isEqualTo(k);
        }
    }

    private static byte[] toBytes(int[] a) {
        ByteBuffer b = ByteBuffer.allocate(a.length * 4).order(java.nio.ByteOrder.nativeOrder());
        b.asIntBuffer().put(a);
        return b.array();
    }

    @MpiTest(ranks = {1, 2}, timeoutSeconds = 30)
    void complexNumbers() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        assertThat(MPI.DOUBLE_COMPLEX.getExtent()).isEqualTo(2);
        int n = 3;
        float[] f = new float[2 * n];
        for (int k = 0; k < n; k++) {
            FloatComplex z = FloatComplex.get(f, k);
            z.putReal(rank() + k);
            z.putImag(-k);
        }
        float[] fg = new float[2 * n];
        w.sendRecv(f, n, MPI.FLOAT_COMPLEX, right(), 9, fg, n, MPI.FLOAT_COMPLEX, left(), 9);
        DoubleBuffer d = MPI.newDoubleBuffer(2 * n);
        for (int k = 0; k < n; k++) {
            assertThat(FloatComplex.get(fg, k).getReal()).isEqualTo(left() + k);
            assertThat(FloatComplex.get(fg, k).getImag()).isEqualTo(-k);
            DoubleComplex.get(d, k).putReal(k * 1.5);
            DoubleComplex.get(d, k).putImag(rank());
        }
        // every other complex number, through a vector of the complex type
        Datatype alt = Datatype.createVector(2, 1, 2, MPI.DOUBLE_COMPLEX);
        alt.commit();
        assertThat(alt.getExtent()).isEqualTo(6);
        double[] dg = new double[4];
        w.sendRecv(d, 1, alt, right(), 10, dg, 2, MPI.DOUBLE_COMPLEX, left(), 10);
        assertThat(DoubleComplex.get(dg, 0).getReal()).isEqualTo(0.0);
        assertThat(DoubleComplex.get(dg, 1).getReal()).isEqualTo(3.0);
        assertThat(DoubleComplex.get(dg, 1).getImag()).isEqualTo(left());
        alt.free();
    }
}
