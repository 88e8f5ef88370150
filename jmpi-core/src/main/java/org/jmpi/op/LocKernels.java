package org.jmpi.op;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * {@code MINLOC} and {@code MAXLOC} on value-index pairs: the result is the pair with the smaller (larger) value, and
 * on equal values the smaller index. {@code INT2} pairs are two {@code int} entries; the mixed pairs are packed in a
 * {@code byte[]} as the value followed by a 4-byte {@code int} index, in native byte order (see
 * {@link ElementKind}). Values compare with Java's {@code <} and {@code >}, so a NaN value never wins.
 */
final class LocKernels {
    private LocKernels() {}

    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ORDER);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ORDER);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ORDER);
    private static final VarHandle FLOAT = MethodHandles.byteArrayViewVarHandle(float[].class, ORDER);
    private static final VarHandle DOUBLE = MethodHandles.byteArrayViewVarHandle(double[].class, ORDER);

    /** {@code n} INT2 pairs starting at entry {@code from}. */
    static void int2(boolean max, int[] a, int[] b, int from, int n) {
        for (int i = from, end = from + 2 * n; i < end; i += 2) {
            int va = a[i];
            int vb = b[i];
            if (max ? va > vb : va < vb) {
                b[i] = va;
                b[i + 1] = a[i + 1];
            } else if (va == vb && a[i + 1] < b[i + 1]) {
                b[i + 1] = a[i + 1];
            }
        }
    }

    /** {@code n} packed pairs of {@code kind} starting at byte {@code from}. */
    static void packed(boolean max, ElementKind kind, byte[] a, byte[] b, int from, int n) {
        int size = kind.packedBytes;
        int valueBytes = size - 4;
        for (int p = from, end = from + n * size; p < end; p += size) {
            int c = compare(kind, a, b, p);
            if (c == UNORDERED) {
                continue;
            }
            int ia = (int) INT.get(a, p + valueBytes);
            int ib = (int) INT.get(b, p + valueBytes);
            if (max ? c > 0 : c < 0) {
                System.arraycopy(a, p, b, p, size);
            } else if (c == 0 && ia < ib) {
                INT.set(b, p + valueBytes, ia);
            }
        }
    }

    /**
     * Compares the values at byte {@code p} of {@code a} and {@code b}: -1, 0 or 1, or {@link #UNORDERED} when one is
     * a NaN (then neither MINLOC nor MAXLOC takes {@code a}).
     */
    private static int compare(ElementKind kind, byte[] a, byte[] b, int p) {
        return switch (kind) {
            case SHORT_INT -> Integer.compare((short) SHORT.get(a, p), (short) SHORT.get(b, p));
            case LONG_INT -> Long.compare((long) LONG.get(a, p), (long) LONG.get(b, p));
            case FLOAT_INT -> order((float) FLOAT.get(a, p), (float) FLOAT.get(b, p));
            case DOUBLE_INT -> order((double) DOUBLE.get(a, p), (double) DOUBLE.get(b, p));
            default -> throw new IllegalArgumentException(kind.toString());
        };
    }

    private static int order(double x, double y) {
        return x < y ? -1 : x > y ? 1 : x == y ? 0 : UNORDERED;
    }

    private static final int UNORDERED = 2;
}
