package org.jmpi.tests.coll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * Every predefined operation on every type it applies to, through allreduce (all ranks) and reduceLocal, against a
 * sequential reference; the combinations MPI does not define give MPI_ERR_OP; user-defined operations in their array
 * and ByteBuffer forms, on booleans and on pairs.
 */
class OpsTest {

    @MpiTest(ranks = {1, 2, 3, 4, 5, 7, 9}, modes = Mode.THREADS, timeoutSeconds = 120)
    void threads() throws MPIException {
        all();
    }

    @MpiTest(ranks = {2, 3, 4}, modes = Mode.PROCESSES, timeoutSeconds = 120)
    void processes() throws MPIException {
        all();
    }

    static void all() throws MPIException {
        for (int n : new int[] {1, 37, 10_007}) {
            integers(n);
            floating(n);
            complex(n);
            booleans(n);
            pairs(n);
        }
        undefinedCombinations();
        userFunctions();
        structTypes();
    }

    /**
     * Predefined operations on struct types: a struct whose signature is all one primitive (here ints with a gap) is
     * reduced element by element and its gaps are left alone; a struct that mixes primitives gives MPI_ERR_OP.
     */
    static void structTypes() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        Datatype ints = Datatype.createStruct(new int[] {2, 1}, new int[] {0, 12}, new Datatype[] {MPI.INT, MPI.INT});
        ints.commit();
        int count = 5;
        int extent = 16;
        ByteBuffer b = ByteBuffer.allocateDirect(count * extent).order(ByteOrder.nativeOrder());
        for (int e = 0; e < count; e++) {
            b.putInt(e * extent, rank + e);
            b.putInt(e * extent + 4, rank * 2 + e);
            b.putInt(e * extent + 8, -7); // the gap
            b.putInt(e * extent + 12, rank * 3 + e);
        }
        w.allReduce(b, count, ints, MPI.SUM);
        int ranks = size * (size - 1) / 2;
        for (int e = 0; e < count; e++) {
            assertThat(b.getInt(e * extent)).isEqualTo(ranks + size * e);
            assertThat(b.getInt(e * extent + 4)).isEqualTo(2 * ranks + size * e);
            assertThat(b.getInt(e * extent + 8)).as("gap").isEqualTo(-7);
            assertThat(b.getInt(e * extent + 12)).isEqualTo(3 * ranks + size * e);
        }
        ints.free();

        Datatype mixed = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.INT, MPI.DOUBLE});
        mixed.commit();
        w.setErrhandler(MPI.ERRORS_RETURN);
        try {
            ByteBuffer m = ByteBuffer.allocateDirect(32);
            assertThatThrownBy(() -> w.allReduce(m, 2, mixed, MPI.SUM)).isInstanceOfSatisfying(MPIException.class,
                    e -> assertThat(e.getErrorClass()).as(e.getMessage()).isEqualTo(MPI.ERR_OP));
            int[] one = {1};
            w.allReduce(one, 1, MPI.INT, MPI.SUM);
            assertThat(one[0]).isEqualTo(size);
        } finally {
            w.setErrhandler(MPI.ERRORS_ARE_FATAL);
            mixed.free();
        }
    }

    // ------------------------------------------------------------ data and reference

    static final Op[] INTEGER_OPS = {MPI.SUM, MPI.PROD, MPI.MIN, MPI.MAX, MPI.LAND, MPI.LOR, MPI.LXOR, MPI.BAND,
        MPI.BOR, MPI.BXOR};

    /** A small signed value of rank {@code r} at index {@code i}, zero now and then. */
    static long small(int r, int i) {
        long v = (r * 31L + i * 17L) % 23 - 11;
        return (i + r) % 5 == 0 ? 0 : v;
    }

    /** The reference: {@code a op b} on longs (narrowed by the caller for the wrapping types). */
    static long apply(Op op, long a, long b) {
        if (op == MPI.SUM) {
            return a + b;
        } else if (op == MPI.PROD) {
            return a * b;
        } else if (op == MPI.MIN) {
            return Math.min(a, b);
        } else if (op == MPI.MAX) {
            return Math.max(a, b);
        } else if (op == MPI.LAND) {
            return a != 0 && b != 0 ? 1 : 0;
        } else if (op == MPI.LOR) {
            return a != 0 || b != 0 ? 1 : 0;
        } else if (op == MPI.LXOR) {
            return (a != 0) != (b != 0) ? 1 : 0;
        } else if (op == MPI.BAND) {
            return a & b;
        } else if (op == MPI.BOR) {
            return a | b;
        } else if (op == MPI.BXOR) {
            return a ^ b;
        }
        throw new IllegalArgumentException(op.toString());
    }

    /** Value of rank r at index i for an integer kind of the given bits (char: unsigned). */
    static long intValue(int bits, boolean unsigned, Op op, int r, int i) {
        long v = small(r, i);
        if (op == MPI.PROD) {
            v = v % 3; // keeps products of up to 9 ranks small enough for the comparisons of MIN/MAX after wrapping
        }
        if (op == MPI.BAND || op == MPI.BOR || op == MPI.BXOR) {
            v = v * 0x0101_0101_0101_0101L + i; // spread bits over the whole word
        }
        if (unsigned) {
            v = v & 0xFFFF;
        }
        return v;
    }

    static long narrow(long v, int bits, boolean unsigned) {
        return switch (bits) {
            case 8 -> (byte) v;
            case 16 -> unsigned ? (char) v : (short) v;
            case 32 -> (int) v;
            default -> v;
        };
    }

    static long expected(int bits, boolean unsigned, Op op, int size, int i) {
        long acc = narrow(intValue(bits, unsigned, op, 0, i), bits, unsigned);
        for (int r = 1; r < size; r++) {
            acc = narrow(apply(op, acc, narrow(intValue(bits, unsigned, op, r, i), bits, unsigned)), bits, unsigned);
        }
        return acc;
    }

    // ------------------------------------------------------------ the kinds

    static void integers(int n) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        for (Op op : INTEGER_OPS) {
            byte[] b = new byte[n];
            short[] s = new short[n];
            char[] c = new char[n];
            int[] x = new int[n];
            long[] l = new long[n];
            for (int i = 0; i < n; i++) {
                b[i] = (byte) intValue(8, false, op, rank, i);
                s[i] = (short) intValue(16, false, op, rank, i);
                c[i] = (char) intValue(16, true, op, rank, i);
                x[i] = (int) intValue(32, false, op, rank, i);
                l[i] = intValue(64, false, op, rank, i);
            }
            byte[] b2 = new byte[n];
            short[] s2 = new short[n];
            char[] c2 = new char[n];
            int[] x2 = new int[n];
            long[] l2 = new long[n];
            w.allReduce(b, b2, n, MPI.BYTE, op);
            w.allReduce(s, s2, n, MPI.SHORT, op);
            w.allReduce(c, c2, n, MPI.CHAR, op);
            w.allReduce(x, x2, n, MPI.INT, op);
            w.allReduce(l, l2, n, MPI.LONG, op);
            long[] eb = new long[n];
            long[] es = new long[n];
            long[] ec = new long[n];
            long[] ex = new long[n];
            long[] el = new long[n];
            long[] gb = new long[n];
            long[] gs = new long[n];
            long[] gc = new long[n];
            long[] gx = new long[n];
            for (int i = 0; i < n; i++) {
                eb[i] = expected(8, false, op, size, i);
                es[i] = expected(16, false, op, size, i);
                ec[i] = expected(16, true, op, size, i);
                ex[i] = expected(32, false, op, size, i);
                el[i] = expected(64, false, op, size, i);
                gb[i] = b2[i];
                gs[i] = s2[i];
                gc[i] = c2[i];
                gx[i] = x2[i];
            }
            check("MPI.BYTE " + op, gb, eb);
            check("MPI.SHORT " + op, gs, es);
            check("MPI.CHAR " + op, gc, ec);
            check("MPI.INT " + op, gx, ex);
            check("MPI.LONG " + op, l2, el);
            // reduceLocal: inout = in op inout, on this rank's data and the next rank's
            long[] in = new long[n];
            long[] inout = new long[n];
            for (int i = 0; i < n; i++) {
                in[i] = intValue(64, false, op, rank, i);
                inout[i] = intValue(64, false, op, rank + 1, i);
            }
            long[] want = new long[n];
            for (int i = 0; i < n; i++) {
                want[i] = apply(op, in[i], inout[i]);
            }
            Comm.reduceLocal(in, inout, n, MPI.LONG, op);
            check("reduceLocal MPI.LONG " + op, inout, want);
        }
    }

    /** Fails with the first differing element. */
    static void check(String what, long[] actual, long[] expected) {
        for (int i = 0; i < expected.length; i++) {
            if (actual[i] != expected[i]) {
                throw new AssertionError(what + ": element " + i + " of " + expected.length + " is " + actual[i]
                        + ", expected " + expected[i]);
            }
        }
    }

    static void check(String what, double actual, double expected, int i) {
        if (Double.compare(actual, expected) != 0 && actual != expected) {
            throw new AssertionError(what + ": element " + i + " is " + actual + ", expected " + expected);
        }
    }

    /** Float values that sum and multiply exactly in any order. */
    static double floatValue(Op op, int r, int i) {
        if (op == MPI.PROD) {
            int k = (r + i) % 4;
            return k == 0 ? 1 : k == 1 ? -1 : k == 2 ? 2 : 0.5;
        }
        return small(r, i) + (op == MPI.SUM ? 0 : 0.25 * (i % 4));
    }

    static double floatExpected(Op op, int size, int i) {
        double acc = floatValue(op, 0, i);
        for (int r = 1; r < size; r++) {
            double v = floatValue(op, r, i);
            acc = op == MPI.SUM ? acc + v : op == MPI.PROD ? acc * v : op == MPI.MIN ? Math.min(acc, v) : Math.max(acc, v);
        }
        return acc;
    }

    static void floating(int n) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        for (Op op : new Op[] {MPI.SUM, MPI.PROD, MPI.MIN, MPI.MAX}) {
            float[] f = new float[n];
            double[] d = new double[n];
            for (int i = 0; i < n; i++) {
                f[i] = (float) floatValue(op, rank, i);
                d[i] = floatValue(op, rank, i);
            }
            float[] f2 = new float[n];
            w.allReduce(f, f2, n, MPI.FLOAT, op);
            w.allReduce(d, n, MPI.DOUBLE, op);
            for (int i = 0; i < n; i++) {
                double e = floatExpected(op, size, i);
                check("MPI.FLOAT " + op, f2[i], e, i);
                check("MPI.DOUBLE " + op, d[i], e, i);
            }
        }
    }

    static void complex(int n) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        for (Op op : new Op[] {MPI.SUM, MPI.PROD}) {
            float[] f = new float[2 * n];
            double[] d = new double[2 * n];
            for (int i = 0; i < n; i++) {
                // (1 + i) and (1 - i) and reals: products stay small Gaussian integers
                int k = (rank + i) % 3;
                double re = op == MPI.SUM ? small(rank, i) : 1;
                double im = op == MPI.SUM ? small(rank + 1, i) : k == 0 ? 1 : k == 1 ? -1 : 0;
                f[2 * i] = (float) re;
                f[2 * i + 1] = (float) im;
                d[2 * i] = re;
                d[2 * i + 1] = im;
            }
            w.allReduce(f, n, MPI.FLOAT_COMPLEX, op);
            double[] d2 = new double[2 * n];
            w.allReduce(d, d2, n, MPI.DOUBLE_COMPLEX, op);
            for (int i = 0; i < n; i++) {
                double re = 0;
                double im = 0;
                for (int r = 0; r < size; r++) {
                    int k = (r + i) % 3;
                    double xr = op == MPI.SUM ? small(r, i) : 1;
                    double xi = op == MPI.SUM ? small(r + 1, i) : k == 0 ? 1 : k == 1 ? -1 : 0;
                    if (r == 0) {
                        re = xr;
                        im = xi;
                    } else if (op == MPI.SUM) {
                        re += xr;
                        im += xi;
                    } else {
                        double nr = re * xr - im * xi;
                        im = re * xi + im * xr;
                        re = nr;
                    }
                }
                check("MPI.FLOAT_COMPLEX " + op + " real part", f[2 * i], re, i);
                check("MPI.FLOAT_COMPLEX " + op + " imaginary part", f[2 * i + 1], im, i);
                check("MPI.DOUBLE_COMPLEX " + op + " real part", d2[2 * i], re, i);
                check("MPI.DOUBLE_COMPLEX " + op + " imaginary part", d2[2 * i + 1], im, i);
            }
        }
    }

    static void booleans(int n) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        for (Op op : new Op[] {MPI.LAND, MPI.LOR, MPI.LXOR}) {
            boolean[] b = new boolean[n];
            for (int i = 0; i < n; i++) {
                b[i] = bit(op, rank, i);
            }
            boolean[] out = new boolean[n];
            w.allReduce(b, out, n, MPI.BOOLEAN, op);
            for (int i = 0; i < n; i++) {
                boolean e = bit(op, 0, i);
                for (int r = 1; r < size; r++) {
                    e = apply(op, e ? 1 : 0, bit(op, r, i) ? 1 : 0) != 0;
                }
                if (out[i] != e) {
                    throw new AssertionError("MPI.BOOLEAN " + op + ": element " + i + " is " + out[i]);
                }
            }
        }
    }

    /** Mostly true for LAND, mostly false for LOR, so that both outcomes occur. */
    static boolean bit(Op op, int r, int i) {
        int h = (r * 7 + i * 13) % 11;
        return op == MPI.LAND ? h != 0 : op == MPI.LOR ? h == 0 : h % 2 == 0;
    }

    /** MINLOC and MAXLOC on every pair type: values repeat across ranks, so ties pick the smaller index. */
    static void pairs(int n) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        for (Op op : new Op[] {MPI.MINLOC, MPI.MAXLOC}) {
            boolean max = op == MPI.MAXLOC;
            int[] int2 = new int[2 * n];
            for (int i = 0; i < n; i++) {
                int2[2 * i] = (int) (small(rank, i) % 4);
                int2[2 * i + 1] = rank * 10;
            }
            w.allReduce(int2, n, MPI.INT2, op);
            ByteBuffer si = pairBuffer(MPI.SHORT_INT, n, rank, 2, 4, 8);
            ByteBuffer li = pairBuffer(MPI.LONG_INT, n, rank, 8, 8, 16);
            ByteBuffer fi = pairBuffer(MPI.FLOAT_INT, n, rank, 4, 4, 8);
            ByteBuffer di = pairBuffer(MPI.DOUBLE_INT, n, rank, 8, 8, 16);
            w.allReduce(si, n, MPI.SHORT_INT, op);
            w.allReduce(li, n, MPI.LONG_INT, op);
            w.allReduce(fi, n, MPI.FLOAT_INT, op);
            w.allReduce(di, n, MPI.DOUBLE_INT, op);
            for (int i = 0; i < n; i++) {
                long best = small(0, i) % 4;
                int where = 0;
                for (int r = 1; r < size; r++) {
                    long v = small(r, i) % 4;
                    if (max ? v > best : v < best) {
                        best = v;
                        where = r;
                    }
                }
                String at = op + " element " + i;
                check("MPI.INT2 value " + at, int2[2 * i], best, i);
                check("MPI.INT2 index " + at, int2[2 * i + 1], where * 10, i);
                check("MPI.SHORT_INT value " + at, si.getShort(8 * i), best, i);
                check("MPI.SHORT_INT index " + at, si.getInt(8 * i + 4), where * 10, i);
                check("MPI.LONG_INT value " + at, li.getLong(16 * i), best, i);
                check("MPI.LONG_INT index " + at, li.getInt(16 * i + 8), where * 10, i);
                check("MPI.FLOAT_INT value " + at, fi.getFloat(8 * i), best, i);
                check("MPI.FLOAT_INT index " + at, fi.getInt(8 * i + 4), where * 10, i);
                check("MPI.DOUBLE_INT value " + at, di.getDouble(16 * i), best, i);
                check("MPI.DOUBLE_INT index " + at, di.getInt(16 * i + 8), where * 10, i);
            }
        }
    }

    /** Pairs in their C layout: value of {@code valueBytes} at 0, int index at {@code indexAt}, {@code extent} each. */
    static ByteBuffer pairBuffer(Datatype t, int n, int rank, int valueBytes, int indexAt, int extent) {
        ByteBuffer b = ByteBuffer.allocateDirect(n * extent).order(ByteOrder.nativeOrder());
        for (int i = 0; i < n; i++) {
            long v = small(rank, i) % 4;
            int at = i * extent;
            if (t == MPI.SHORT_INT) {
                b.putShort(at, (short) v);
            } else if (t == MPI.LONG_INT) {
                b.putLong(at, v);
            } else if (t == MPI.FLOAT_INT) {
                b.putFloat(at, v);
            } else {
                b.putDouble(at, v);
            }
            b.putInt(at + indexAt, rank * 10);
        }
        return b;
    }

    // ------------------------------------------------------------ errors

    /** Every (operation, type) pair MPI does not define gives MPI_ERR_OP, and nothing is sent. */
    static void undefinedCombinations() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        try {
            List<Object[]> bad = new ArrayList<>();
            for (Op op : new Op[] {MPI.LAND, MPI.LOR, MPI.LXOR, MPI.BAND, MPI.BOR, MPI.BXOR, MPI.MINLOC, MPI.MAXLOC}) {
                bad.add(new Object[] {op, MPI.DOUBLE, new double[2]});
                bad.add(new Object[] {op, MPI.FLOAT, new float[2]});
            }
            for (Op op : new Op[] {MPI.SUM, MPI.PROD, MPI.MIN, MPI.MAX, MPI.BAND, MPI.MINLOC}) {
                bad.add(new Object[] {op, MPI.BOOLEAN, new boolean[2]});
            }
            for (Op op : new Op[] {MPI.MIN, MPI.MAX, MPI.LAND, MPI.BAND, MPI.MAXLOC}) {
                bad.add(new Object[] {op, MPI.DOUBLE_COMPLEX, new double[4]});
            }
            for (Op op : new Op[] {MPI.SUM, MPI.PROD, MPI.MIN, MPI.MAX, MPI.LAND, MPI.BOR}) {
                bad.add(new Object[] {op, MPI.INT2, new int[4]});
            }
            bad.add(new Object[] {MPI.MINLOC, MPI.INT, new int[2]});
            bad.add(new Object[] {MPI.MAXLOC, MPI.LONG, new long[2]});
            bad.add(new Object[] {MPI.SUM, MPI.PACKED, new byte[2]});
            // MPI allows REPLACE and NO_OP in one-sided accumulate operations only
            bad.add(new Object[] {MPI.REPLACE, MPI.INT, new int[2]});
            bad.add(new Object[] {MPI.NO_OP, MPI.INT, new int[2]});
            for (Object[] b : bad) {
                Op op = (Op) b[0];
                Datatype t = (Datatype) b[1];
                Object buf = b[2];
                assertThatThrownBy(() -> w.allReduce(buf, 1, t, op)).as(op + " on " + t)
                        .isInstanceOfSatisfying(MPIException.class,
                                e -> assertThat(e.getErrorClass()).as(e.getMessage()).isEqualTo(MPI.ERR_OP));
                assertThatThrownBy(() -> Comm.reduceLocal(buf, buf.getClass().cast(copy(buf)), 1, t, op))
                        .as("reduceLocal " + op + " on " + t).isInstanceOfSatisfying(MPIException.class,
                                e -> assertThat(e.getErrorClass()).as(e.getMessage()).isEqualTo(MPI.ERR_OP));
            }
            // a freed user op, and a null op
            Op mine = new Op(new UserFunction() {
                @Override
                public void call(Object in, Object inOut, int count, Datatype type) {
                }
            }, true);
            mine.free();
            assertThat(mine.isNull()).isTrue();
            assertThatThrownBy(() -> w.allReduce(new int[1], 1, MPI.INT, mine)).isInstanceOfSatisfying(
                    MPIException.class, e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_OP));
            assertThatThrownBy(() -> w.allReduce(new int[1], 1, MPI.INT, null)).isInstanceOfSatisfying(
                    MPIException.class, e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_OP));
            assertThatThrownBy(MPI.SUM::free).isInstanceOfSatisfying(MPIException.class,
                    e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_OP));
            // the communicator still works
            int[] one = {1};
            w.allReduce(one, 1, MPI.INT, MPI.SUM);
            assertThat(one[0]).isEqualTo(w.getSize());
        } finally {
            w.setErrhandler(MPI.ERRORS_ARE_FATAL);
        }
    }

    static Object copy(Object a) {
        return switch (a) {
            case double[] d -> d.clone();
            case float[] f -> f.clone();
            case boolean[] b -> b.clone();
            case int[] i -> i.clone();
            case long[] l -> l.clone();
            case byte[] b -> b.clone();
            default -> throw new IllegalArgumentException();
        };
    }

    // ------------------------------------------------------------ user functions

    static void userFunctions() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        // array form on int[], commutative: a sum written by the user
        Op sum = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                int[] a = (int[]) in;
                int[] b = (int[]) inOut;
                for (int i = 0; i < count; i++) {
                    b[i] += a[i];
                }
            }
        }, true);
        for (int n : new int[] {1, 5, 70_001}) {
            int[] x = new int[n];
            for (int i = 0; i < n; i++) {
                x[i] = rank * n + i;
            }
            w.allReduce(x, n, MPI.INT, sum);
            for (int i = 0; i < n; i++) {
                assertThat(x[i]).isEqualTo(n * size * (size - 1) / 2 + size * i);
            }
        }
        // array form on double[], non-commutative: "keep the left operand" gives rank 0's values, in any algorithm
        Op first = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                System.arraycopy(in, 0, inOut, 0, count);
            }
        }, false);
        double[] d = {rank, rank + 0.5, 100 - rank};
        w.allReduce(d, 3, MPI.DOUBLE, first);
        assertThat(d).containsExactly(0, 0.5, 100);
        // booleans always come as boolean[]
        Op nand = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                boolean[] a = (boolean[]) in;
                boolean[] b = (boolean[]) inOut;
                for (int i = 0; i < count; i++) {
                    b[i] = a[i] && b[i];
                }
            }
        }, true);
        boolean[] all = {true, rank != size - 1 || size == 1};
        w.allReduce(all, 2, MPI.BOOLEAN, nand);
        assertThat(all).containsExactly(true, size == 1);
        // ByteBuffer form on MPI.DOUBLE_INT in its memory layout (value at 0, index at 8, 16 bytes apart)
        Op minloc = new Op(new UserFunction() {
            @Override
            public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
                assertThat(in.order()).isEqualTo(ByteOrder.nativeOrder());
                for (int i = 0; i < count; i++) {
                    double a = in.getDouble(16 * i);
                    double b = inOut.getDouble(16 * i);
                    if (a < b || (a == b && in.getInt(16 * i + 8) < inOut.getInt(16 * i + 8))) {
                        inOut.putDouble(16 * i, a);
                        inOut.putInt(16 * i + 8, in.getInt(16 * i + 8));
                    }
                }
            }
        }, true);
        ByteBuffer di = pairBuffer(MPI.DOUBLE_INT, 50, rank, 8, 8, 16);
        ByteBuffer ref = pairBuffer(MPI.DOUBLE_INT, 50, rank, 8, 8, 16);
        w.allReduce(di, 50, MPI.DOUBLE_INT, minloc);
        w.allReduce(ref, 50, MPI.DOUBLE_INT, MPI.MINLOC);
        for (int i = 0; i < 50; i++) {
            assertThat(di.getDouble(16 * i)).isEqualTo(ref.getDouble(16 * i));
            assertThat(di.getInt(16 * i + 8)).isEqualTo(ref.getInt(16 * i + 8));
        }
        // a user function that fails: the error reaches the caller as an MPIException
        Op failing = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                throw new IllegalStateException("user function refuses");
            }
        }, true);
        w.setErrhandler(MPI.ERRORS_RETURN);
        try {
            // the ranks that ran the function see its error (which ones depends on the algorithm)
            int[] threw = {0};
            try {
                w.allReduce(new int[] {1}, new int[1], 1, MPI.INT, failing);
            } catch (MPIException e) {
                assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_OTHER);
                assertThat(e.getMessage()).contains("user function refuses");
                threw[0] = 1;
            }
            w.allReduce(threw, 1, MPI.INT, MPI.SUM);
            assertThat(threw[0]).as("ranks that saw the user function's error").isEqualTo(size > 1 ? threw[0] : 0);
            if (size > 1) {
                assertThat(threw[0]).isPositive();
            }
            int[] one = {1};
            w.allReduce(one, 1, MPI.INT, MPI.SUM);
            assertThat(one[0]).isEqualTo(size);
        } finally {
            w.setErrhandler(MPI.ERRORS_ARE_FATAL);
        }
    }
}
