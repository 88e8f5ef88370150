package org.jmpi.op;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Array;
import java.util.Random;
import org.jmpi.runtime.MpiError;
import org.junit.jupiter.api.Test;

/**
 * Every predefined operation on every element kind it applies to: the array loops and the native-memory loops agree
 * with each other and with a scalar reference written here, over ranges that start and end at odd positions (so that
 * vectorised loops run their pre- and post-loops), and leave the elements outside the range alone.
 */
class KernelsTest {
    /**
     * Elements per test array: more than two chunks of the native loops' staging (2048 elements) with a remainder,
     * so the staged float and double loops are checked across chunk boundaries.
     */
    private static final int N = 5003;

    @Test
    void arrayAndNativeLoopsMatchTheReference() {
        Random rnd = new Random(42);
        int checked = 0;
        for (PredefinedOp op : PredefinedOp.values()) {
            for (ElementKind kind : ElementKind.values()) {
                if (!op.appliesTo(kind)) {
                    continue;
                }
                Object a = randomArray(kind, rnd);
                Object b = randomArray(kind, rnd);
                Object expected = copy(b);
                int first = 3;
                int n = N - 10;
                reference(op, kind, a, expected, first, n);
                // arrays
                Object got = copy(b);
                PredefinedReduction.of(op, kind, 1, kind.mpiName).apply(a, got, first, n);
                assertSameContents(kind, got, expected, op + " on " + kind + " (arrays)");
                // native memory
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment na = arena.allocate(bytes(kind, a));
                    MemorySegment nb = arena.allocate(bytes(kind, b));
                    MemorySegment.copy(segment(a), 0, na, 0, na.byteSize());
                    MemorySegment.copy(segment(b), 0, nb, 0, nb.byteSize());
                    PredefinedReduction.of(op, kind, 1, kind.mpiName).applyNative(na, nb, first, n);
                    Object back = copy(b);
                    MemorySegment.copy(nb, 0, segment(back), 0, nb.byteSize());
                    assertSameContents(kind, back, expected, op + " on " + kind + " (native)");
                }
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(60);
    }

    @Test
    void operationsThatDoNotApplyAreRefused() {
        assertThatThrownBy(() -> PredefinedReduction.of(PredefinedOp.BAND, ElementKind.DOUBLE, 1, "MPI.DOUBLE"))
                .isInstanceOfSatisfying(MpiError.class, e -> assertThat(e.errorClass()).isEqualTo(10));
        assertThat(PredefinedOp.SUM.appliesTo(ElementKind.BOOLEAN)).isFalse();
        assertThat(PredefinedOp.MINLOC.appliesTo(ElementKind.INT)).isFalse();
        assertThat(PredefinedOp.MAXLOC.appliesTo(ElementKind.DOUBLE_INT)).isTrue();
        assertThat(PredefinedOp.LAND.appliesTo(ElementKind.FLOAT)).isFalse();
        assertThat(PredefinedOp.PROD.appliesTo(ElementKind.DOUBLE_COMPLEX)).isTrue();
        assertThat(PredefinedOp.MAX.appliesTo(ElementKind.FLOAT_COMPLEX)).isFalse();
    }

    // ------------------------------------------------------------------ the reference, one element at a time

    /** {@code b[e] = a[e] op b[e]} for elements {@code [first, first + n)}, by the definitions of MPI. */
    static void reference(PredefinedOp op, ElementKind kind, Object a, Object b, int first, int n) {
        MemorySegment sa = segment(a);
        MemorySegment sb = segment(b);
        for (int e = first; e < first + n; e++) {
            switch (kind) {
                case INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT -> loc(op, kind, sa, sb, e);
                case FLOAT_COMPLEX, DOUBLE_COMPLEX -> complex(op, kind, sa, sb, e);
                default -> {
                    long off = (long) e * kind.packedBytes;
                    double x = read(kind, sa, off);
                    double y = read(kind, sb, off);
                    write(kind, sb, off, combine(op, kind, x, y));
                }
            }
        }
    }

    static double combine(PredefinedOp op, ElementKind kind, double x, double y) {
        boolean bx = x != 0;
        boolean by = y != 0;
        return switch (op) {
            case SUM -> x + y;
            case PROD -> x * y;
            case MIN -> x < y || Double.isNaN(x) ? x : y;
            case MAX -> x > y || Double.isNaN(x) ? x : y;
            case LAND -> bx && by ? 1 : 0;
            case LOR -> bx || by ? 1 : 0;
            case LXOR -> bx != by ? 1 : 0;
            case BAND -> (long) x & (long) y;
            case BOR -> (long) x | (long) y;
            case BXOR -> (long) x ^ (long) y;
            case REPLACE -> x;
            case NO_OP -> y;
            default -> throw new IllegalArgumentException(op + " on " + kind);
        };
    }

    static void complex(PredefinedOp op, ElementKind kind, MemorySegment a, MemorySegment b, int e) {
        ElementKind part = kind == ElementKind.FLOAT_COMPLEX ? ElementKind.FLOAT : ElementKind.DOUBLE;
        long off = (long) e * kind.packedBytes;
        long im = part.packedBytes;
        double ar = read(part, a, off);
        double ai = read(part, a, off + im);
        double br = read(part, b, off);
        double bi = read(part, b, off + im);
        switch (op) {
            case SUM -> {
                write(part, b, off, ar + br);
                write(part, b, off + im, ai + bi);
            }
            case PROD -> {
                write(part, b, off, ar * br - ai * bi);
                write(part, b, off + im, ar * bi + ai * br);
            }
            case REPLACE -> {
                write(part, b, off, ar);
                write(part, b, off + im, ai);
            }
            case NO_OP -> {
                // b stays
            }
            default -> throw new IllegalArgumentException(op + " on " + kind);
        }
    }

    static void loc(PredefinedOp op, ElementKind kind, MemorySegment a, MemorySegment b, int e) {
        ElementKind value = switch (kind) {
            case INT2 -> ElementKind.INT;
            case SHORT_INT -> ElementKind.SHORT;
            case LONG_INT -> ElementKind.LONG;
            case FLOAT_INT -> ElementKind.FLOAT;
            default -> ElementKind.DOUBLE;
        };
        long off = (long) e * kind.packedBytes;
        long at = kind.packedBytes - 4;
        if (op == PredefinedOp.NO_OP) {
            return;
        }
        if (op == PredefinedOp.REPLACE) {
            MemorySegment.copy(a, off, b, off, kind.packedBytes);
            return;
        }
        if (kind == ElementKind.INT2 && op != PredefinedOp.MINLOC && op != PredefinedOp.MAXLOC) {
            throw new IllegalArgumentException(op + " on " + kind);
        }
        double va = read(value, a, off);
        double vb = read(value, b, off);
        int ia = a.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, off + at);
        int ib = b.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, off + at);
        boolean take = op == PredefinedOp.MINLOC ? va < vb : va > vb;
        if (take) {
            MemorySegment.copy(a, off, b, off, kind.packedBytes);
        } else if (va == vb && ia < ib) {
            b.set(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, off + at, ia);
        }
    }

    static double read(ElementKind k, MemorySegment s, long off) {
        return switch (k) {
            case BYTE, BOOLEAN -> s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, off);
            case CHAR -> s.get(java.lang.foreign.ValueLayout.JAVA_CHAR_UNALIGNED, off);
            case SHORT -> s.get(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, off);
            case INT -> s.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, off);
            case LONG -> s.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, off);
            case FLOAT -> s.get(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, off);
            case DOUBLE -> s.get(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, off);
            default -> throw new IllegalArgumentException(k.toString());
        };
    }

    /** Stores {@code v} with the kind's wrap-around (integers are small enough here for exact doubles). */
    static void write(ElementKind k, MemorySegment s, long off, double v) {
        switch (k) {
            case BYTE, BOOLEAN -> s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, off, (byte) (long) v);
            case CHAR -> s.set(java.lang.foreign.ValueLayout.JAVA_CHAR_UNALIGNED, off, (char) (long) v);
            case SHORT -> s.set(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, off, (short) (long) v);
            case INT -> s.set(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, off, (int) (long) v);
            case LONG -> s.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, off, (long) v);
            case FLOAT -> s.set(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, off, (float) v);
            case DOUBLE -> s.set(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, off, v);
            default -> throw new IllegalArgumentException(k.toString());
        }
    }

    // ------------------------------------------------------------------ data

    /** N random elements of {@code kind}: small values (exact products), zeros now and then, repeated values. */
    static Object randomArray(ElementKind kind, Random rnd) {
        Object a = Array.newInstance(kind.arrayType.componentType(), N * kind.slots);
        MemorySegment s = segment(a);
        for (int e = 0; e < N; e++) {
            long off = (long) e * kind.packedBytes;
            switch (kind) {
                case INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT -> {
                    ElementKind v = kind == ElementKind.INT2 ? ElementKind.INT : kind == ElementKind.SHORT_INT
                            ? ElementKind.SHORT : kind == ElementKind.LONG_INT ? ElementKind.LONG
                            : kind == ElementKind.FLOAT_INT ? ElementKind.FLOAT : ElementKind.DOUBLE;
                    write(v, s, off, rnd.nextInt(5) - 2);
                    s.set(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, off + kind.packedBytes - 4, rnd.nextInt(9));
                }
                case FLOAT_COMPLEX, DOUBLE_COMPLEX -> {
                    ElementKind part = kind == ElementKind.FLOAT_COMPLEX ? ElementKind.FLOAT : ElementKind.DOUBLE;
                    write(part, s, off, rnd.nextInt(7) - 3);
                    write(part, s, off + part.packedBytes, rnd.nextInt(7) - 3);
                }
                case BOOLEAN -> write(kind, s, off, rnd.nextInt(3) == 0 ? 0 : 1);
                case FLOAT, DOUBLE -> write(kind, s, off, (rnd.nextInt(41) - 20) * 0.5);
                default -> write(kind, s, off, rnd.nextInt(5) == 0 ? 0 : rnd.nextInt(200) - 100);
            }
        }
        return a;
    }

    static MemorySegment segment(Object a) {
        return switch (a) {
            case byte[] x -> MemorySegment.ofArray(x);
            case char[] x -> MemorySegment.ofArray(x);
            case short[] x -> MemorySegment.ofArray(x);
            case int[] x -> MemorySegment.ofArray(x);
            case long[] x -> MemorySegment.ofArray(x);
            case float[] x -> MemorySegment.ofArray(x);
            case double[] x -> MemorySegment.ofArray(x);
            default -> throw new IllegalArgumentException();
        };
    }

    static long bytes(ElementKind k, Object a) {
        return segment(a).byteSize();
    }

    static Object copy(Object a) {
        int n = Array.getLength(a);
        Object c = Array.newInstance(a.getClass().componentType(), n);
        System.arraycopy(a, 0, c, 0, n);
        return c;
    }

    static void assertSameContents(ElementKind kind, Object got, Object expected, String what) {
        MemorySegment g = segment(got);
        MemorySegment e = segment(expected);
        long mismatch = g.mismatch(e);
        assertThat(mismatch).as(what + ": first differing byte (element " + (mismatch / Math.max(1, kind.packedBytes))
                + ")").isEqualTo(-1L);
    }
}
