package org.jmpi.datatype;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Packs from and unpacks into a Java primitive array with plain array accesses: the runs of the plan go between the
 * user's array and a staging array of the same type ({@code System.arraycopy}, or one assignment per element for
 * runs of one element), and the staging array goes to or from the packed side in one bulk copy per chunk.
 *
 * <h2>Why</h2>
 * jmpi's runtime runs on C1 (see {@code JitHints}), where a {@code MemorySegment.get} or {@code set} is a chain of
 * calls and checks: {@link StridedKernel}'s loops took some 16 ns an element, a matrix column of 64 doubles about 1
 * us to pack, where an array loop and one bulk copy take 0.1 us (C1, one JVM, 2026-12-06; with C2 both are 20 ns).
 *
 * <h2>When</h2>
 * The user memory is a heap segment over a {@code byte[]}, {@code short[]}, {@code char[]}, {@code int[]}, {@code
 * float[]}, {@code long[]} or {@code double[]} (not read-only), and every run offset, run length, stride, the
 * segment's place in its array and the packed range are whole elements of that array. Otherwise (direct buffers,
 * byte displacements that split elements) {@link StridedKernel} moves the data as before.
 *
 * <p>Threading: one instance per call; the staging array is the call's own.
 */
final class ArrayKernel implements CopyKernel {
    /** Bytes of packed stream staged at a time. */
    static final int CHUNK_BYTES = 32 << 10;

    private final Object staging;
    /** The arrays data goes from and to: the user's and the staging array, or the other way round. */
    private final Object from;
    private final Object to;
    /** Elements from the start of {@link #from} and {@link #to} to where the offsets the plan gives count from. */
    private final long fromBase;
    private final long toBase;
    private final int shift;

    private ArrayKernel(Object array, Object staging, int shift, long memIndex, boolean pack) {
        this.staging = staging;
        this.from = pack ? array : staging;
        this.to = pack ? staging : array;
        this.fromBase = pack ? memIndex : 0;
        this.toBase = pack ? 0 : memIndex;
        this.shift = shift;
    }

    /**
     * Moves bytes {@code [offset, offset + length)} of {@code plan}'s packed stream between {@code memory} (the
     * plan's origin at its byte 0) and {@code other} at {@code otherOffset}; false, having moved nothing, when this
     * class does not apply (see "When" above).
     *
     * @param pack true: memory to {@code other}; false: {@code other} to memory
     */
    static boolean move(Plan plan, MemorySegment memory, long offset, long length, MemorySegment other,
            long otherOffset, boolean pack) {
        if (memory.isNative()) {
            return false;
        }
        Object array = memory.heapBase().orElse(null); // none for a read-only segment
        int shift = shift(array);
        if (shift < 0 || ((plan.lowBits() | memory.address() | offset | length) & ((1 << shift) - 1)) != 0) {
            return false;
        }
        ValueLayout layout = layout(array);
        int chunk = (int) (Math.min(length, CHUNK_BYTES) >> shift);
        ArrayKernel k = new ArrayKernel(array, newArray(array, chunk), shift, memory.address() >> shift, pack);
        for (long done = 0; done < length; ) {
            long n = Math.min(length - done, (long) chunk << shift);
            int elements = (int) (n >> shift);
            if (pack) {
                plan.move(memory, 0, offset + done, n, MemorySegment.NULL, 0, true, k);
                MemorySegment.copy(k.staging, 0, other, layout, otherOffset + done, elements);
            } else {
                MemorySegment.copy(other, layout, otherOffset + done, k.staging, 0, elements);
                plan.move(memory, 0, offset + done, n, MemorySegment.NULL, 0, false, k);
            }
            done += n;
        }
        return true;
    }

    @Override
    public void copy(MemorySegment src, long srcAt, MemorySegment dst, long dstAt, long n) {
        int s = shift;
        int i = (int) ((srcAt >> s) + fromBase);
        int j = (int) ((dstAt >> s) + toBase);
        if (n >> s == 1) {
            elements(from, i, 0, to, j, 0, 1);
        } else {
            System.arraycopy(from, i, to, j, (int) (n >> s));
        }
    }

    /** The packed side's offsets count from the staging array's start, the memory side's from the user segment's. */
    @Override
    public void strided(MemorySegment src, long srcAt, long srcStride, MemorySegment dst, long dstAt, long dstStride,
            long runLength, long count) {
        int s = shift;
        int i = (int) ((srcAt >> s) + fromBase);
        int j = (int) ((dstAt >> s) + toBase);
        int is = (int) (srcStride >> s);
        int js = (int) (dstStride >> s);
        int n = (int) (runLength >> s);
        if (n == 1) {
            elements(from, i, is, to, j, js, (int) count);
        } else {
            for (long k = 0; k < count; k++, i += is, j += js) {
                System.arraycopy(from, i, to, j, n);
            }
        }
    }

    /** {@code count} single elements from {@code a[i + k * is]} to {@code b[j + k * js]}; both arrays of one type. */
    private static void elements(Object a, int i, int is, Object b, int j, int js, int count) {
        if (a instanceof double[] x) {
            double[] y = (double[]) b;
            for (int k = 0; k < count; k++, i += is, j += js) {
                y[j] = x[i];
            }
        } else if (a instanceof long[] x) {
            long[] y = (long[]) b;
            for (int k = 0; k < count; k++, i += is, j += js) {
                y[j] = x[i];
            }
        } else if (a instanceof int[] x) {
            int[] y = (int[]) b;
            for (int k = 0; k < count; k++, i += is, j += js) {
                y[j] = x[i];
            }
        } else if (a instanceof float[] x) {
            float[] y = (float[]) b;
            for (int k = 0; k < count; k++, i += is, j += js) {
                y[j] = x[i];
            }
        } else if (a instanceof byte[] x) {
            byte[] y = (byte[]) b;
            for (int k = 0; k < count; k++, i += is, j += js) {
                y[j] = x[i];
            }
        } else if (a instanceof short[] x) {
            short[] y = (short[]) b;
            for (int k = 0; k < count; k++, i += is, j += js) {
                y[j] = x[i];
            }
        } else {
            char[] x = (char[]) a;
            char[] y = (char[]) b;
            for (int k = 0; k < count; k++, i += is, j += js) {
                y[j] = x[i];
            }
        }
    }

    /** log2 of the element size of a primitive array this class handles, else -1. Type tests, not a switch. */
    private static int shift(Object array) {
        if (array instanceof double[] || array instanceof long[]) {
            return 3;
        }
        if (array instanceof int[] || array instanceof float[]) {
            return 2;
        }
        if (array instanceof short[] || array instanceof char[]) {
            return 1;
        }
        return array instanceof byte[] ? 0 : -1;
    }

    /** The layout of {@code array}'s elements in native order, unaligned (the packed side's offsets are any). */
    private static ValueLayout layout(Object array) {
        if (array instanceof double[]) {
            return ValueLayout.JAVA_DOUBLE_UNALIGNED;
        }
        if (array instanceof long[]) {
            return ValueLayout.JAVA_LONG_UNALIGNED;
        }
        if (array instanceof int[]) {
            return ValueLayout.JAVA_INT_UNALIGNED;
        }
        if (array instanceof float[]) {
            return ValueLayout.JAVA_FLOAT_UNALIGNED;
        }
        if (array instanceof short[]) {
            return ValueLayout.JAVA_SHORT_UNALIGNED;
        }
        return array instanceof char[] ? ValueLayout.JAVA_CHAR_UNALIGNED : ValueLayout.JAVA_BYTE;
    }

    private static Object newArray(Object array, int n) {
        if (array instanceof double[]) {
            return new double[n];
        }
        if (array instanceof long[]) {
            return new long[n];
        }
        if (array instanceof int[]) {
            return new int[n];
        }
        if (array instanceof float[]) {
            return new float[n];
        }
        if (array instanceof short[]) {
            return new short[n];
        }
        return array instanceof char[] ? new char[n] : new byte[n];
    }
}
