package org.jmpi.datatype;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import org.jmpi.shared.FastCopy;
import org.jmpi.shared.FirstThreadLocal;

/**
 * The copy loops of packing and unpacking: the runs of a plan go between the user's memory, seen as a Java primitive
 * array (or a view of native memory), and a staging array of the same element type ({@code System.arraycopy}, or one
 * assignment per element for runs of one element), and the staging array goes to or from the packed side in one bulk
 * copy per chunk.
 *
 * <h2>Why</h2>
 * jmpi's runtime runs on C1 (see {@code JitHints}), where a {@code MemorySegment.get} or {@code set} is a chain of
 * calls and checks: the segment loops this replaced took some 16 ns an element, a matrix column of 64 doubles about
 * 1 us to pack, where an array loop and one bulk copy take 0.1 us (C1, one JVM, ungated, 2026-12-06; with C2 both
 * are 20 ns).
 * In the cold suite's Jacobi split by columns (halo columns as vector types of 256 doubles), 5 interleaved gated
 * rounds, 2026-12-06: 0.339 s against 0.622 with those loops (Open MPI Java 0.249, MPICH's C twin 0.144); the other
 * cases within 0.96-1.04 of the build before.
 *
 * <h2>When</h2>
 * The user memory is a heap segment over a {@code byte[]}, {@code short[]}, {@code char[]}, {@code int[]}, {@code
 * float[]}, {@code long[]} or {@code double[]} (not read-only), and every run offset, run length, stride, the
 * segment's place in its array and the packed range are whole elements of that array; or it is native memory (a
 * direct buffer), read and written through a {@code LongBuffer}, {@code IntBuffer} or {@code ByteBuffer} view of it
 * (longs where the runs are whole longs, ints where they are whole ints, else bytes; a call per element into a small
 * JDK method, about 3 times faster than the segment access). Otherwise (a read-only heap buffer, byte displacements
 * that split the elements of an array) {@link #RUNS} copies run by run.
 *
 * <p>Threading: one instance per call; each thread has its own staging arrays ({@link #CHUNK_BYTES} for each element
 * type it has used).
 */
final class ArrayKernel implements CopyKernel {
    /** Bytes of packed stream staged at a time: the size of each staging array. */
    static final int CHUNK_BYTES = 32 << 10;

    /** Element types by index: byte, short, char, int, float, long, double. */
    private static final int LONG = 5;
    private static final int INT = 3;
    private static final int[] SHIFT = {0, 1, 1, 2, 2, 3, 3};

    /** Any memory and any runs, a bulk copy per run: for what {@link #move} does not take. */
    static final CopyKernel RUNS = new CopyKernel() {
        @Override
        public void copy(MemorySegment src, long srcAt, MemorySegment dst, long dstAt, long n) {
            MemorySegment.copy(src, srcAt, dst, dstAt, n);
        }

        @Override
        public void strided(MemorySegment src, long srcAt, long srcStride, MemorySegment dst, long dstAt,
                long dstStride, long runLength, long count) {
            for (long k = 0; k < count; k++, srcAt += srcStride, dstAt += dstStride) {
                MemorySegment.copy(src, srcAt, dst, dstAt, runLength);
            }
        }
    };

    /** Per thread: the staging array of each element type (index as above), then its segment (index + 7). */
    private static final FirstThreadLocal<Object[]> STAGING = new FirstThreadLocal<>(() -> new Object[14]);

    /** The arrays data goes from and to: the user's and the staging array, or the other way round. */
    private final Object from;
    private final Object to;
    /** Elements from the start of {@link #from} and {@link #to} to where the offsets the plan gives count from. */
    private final long fromBase;
    private final long toBase;
    private final int shift;

    private ArrayKernel(Object user, Object staging, int shift, long userIndex, boolean pack) {
        this.from = pack ? user : staging;
        this.to = pack ? staging : user;
        this.fromBase = pack ? userIndex : 0;
        this.toBase = pack ? 0 : userIndex;
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
        Object user;
        int kind;
        long userIndex = 0;
        long bits = plan.lowBits() | offset | length;
        if (memory.isNative()) {
            // native memory (a direct buffer) through a view of it as longs, ints or bytes
            if (memory.byteSize() > Integer.MAX_VALUE || !pack && memory.isReadOnly()) {
                return false;
            }
            ByteBuffer bytes = memory.asByteBuffer().order(ByteOrder.nativeOrder());
            kind = (bits & 7) == 0 ? LONG : (bits & 3) == 0 ? INT : 0;
            user = kind == LONG ? bytes.asLongBuffer() : kind == INT ? bytes.asIntBuffer() : bytes;
        } else {
            user = memory.heapBase().orElse(null); // none for a read-only segment
            kind = kind(user);
            if (kind < 0 || ((bits | memory.address()) & ((1 << SHIFT[kind]) - 1)) != 0) {
                return false;
            }
            userIndex = memory.address() >> SHIFT[kind];
        }
        int shift = SHIFT[kind];
        Object[] staged = STAGING.get();
        if (staged[kind] == null) {
            staged[kind] = newArray(kind, CHUNK_BYTES >> shift);
            staged[kind + 7] = FastCopy.arraySegment(staged[kind]);
        }
        MemorySegment staging = (MemorySegment) staged[kind + 7];
        ArrayKernel k = new ArrayKernel(user, staged[kind], shift, userIndex, pack);
        for (long done = 0; done < length; ) {
            long n = Math.min(length - done, CHUNK_BYTES);
            if (pack) {
                plan.move(memory, 0, offset + done, n, MemorySegment.NULL, 0, true, k);
                FastCopy.copy(staging, 0, other, otherOffset + done, n);
            } else {
                FastCopy.copy(other, otherOffset + done, staging, 0, n);
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
            run(from, i, to, j, (int) (n >> s));
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
                run(from, i, to, j, n);
            }
        }
    }

    /** {@code n} elements from {@code a[i]} on to {@code b[j]} on: arrays of one type, or a view and a staging array. */
    private static void run(Object a, int i, Object b, int j, int n) {
        if (a instanceof LongBuffer x) {
            x.get(i, (long[]) b, j, n);
        } else if (b instanceof LongBuffer y) {
            y.put(j, (long[]) a, i, n);
        } else if (a instanceof IntBuffer x) {
            x.get(i, (int[]) b, j, n);
        } else if (b instanceof IntBuffer y) {
            y.put(j, (int[]) a, i, n);
        } else if (a instanceof ByteBuffer x) {
            x.get(i, (byte[]) b, j, n);
        } else if (b instanceof ByteBuffer y) {
            y.put(j, (byte[]) a, i, n);
        } else {
            System.arraycopy(a, i, b, j, n);
        }
    }

    /**
     * {@code count} single elements from {@code a[i + k * is]} to {@code b[j + k * js]}: arrays of one type, or a view
     * of native memory and a staging array of its element type.
     */
    private static void elements(Object a, int i, int is, Object b, int j, int js, int count) {
        if (a instanceof double[] x) {
            double[] y = (double[]) b;
            for (int k = 0; k < count; k++, i += is, j += js) {
                y[j] = x[i];
            }
        } else if (a instanceof long[] x && b instanceof long[] y) {
            for (int k = 0; k < count; k++, i += is, j += js) {
                y[j] = x[i];
            }
        } else if (a instanceof int[] x && b instanceof int[] y) {
            for (int k = 0; k < count; k++, i += is, j += js) {
                y[j] = x[i];
            }
        } else if (a instanceof LongBuffer x) {
            long[] y = (long[]) b;
            for (int k = 0; k < count; k++, i += is, j += js) {
                y[j] = x.get(i);
            }
        } else if (b instanceof LongBuffer y) {
            long[] x = (long[]) a;
            for (int k = 0; k < count; k++, i += is, j += js) {
                y.put(j, x[i]);
            }
        } else if (a instanceof IntBuffer x) {
            int[] y = (int[]) b;
            for (int k = 0; k < count; k++, i += is, j += js) {
                y[j] = x.get(i);
            }
        } else if (b instanceof IntBuffer y) {
            int[] x = (int[]) a;
            for (int k = 0; k < count; k++, i += is, j += js) {
                y.put(j, x[i]);
            }
        } else if (a instanceof ByteBuffer x) {
            byte[] y = (byte[]) b;
            for (int k = 0; k < count; k++, i += is, j += js) {
                y[j] = x.get(i);
            }
        } else if (b instanceof ByteBuffer y) {
            byte[] x = (byte[]) a;
            for (int k = 0; k < count; k++, i += is, j += js) {
                y.put(j, x[i]);
            }
        } else if (a instanceof float[] x) {
            float[] y = (float[]) b;
            for (int k = 0; k < count; k++, i += is, j += js) {
                y[j] = x[i];
            }
        } else if (a instanceof byte[] x && b instanceof byte[] y) {
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

    /** The element type's index of a primitive array this class handles, else -1. Type tests, not a switch. */
    private static int kind(Object array) {
        if (array instanceof double[]) {
            return 6;
        }
        if (array instanceof long[]) {
            return LONG;
        }
        if (array instanceof int[]) {
            return INT;
        }
        if (array instanceof float[]) {
            return 4;
        }
        if (array instanceof short[]) {
            return 1;
        }
        if (array instanceof char[]) {
            return 2;
        }
        return array instanceof byte[] ? 0 : -1;
    }

    private static Object newArray(int kind, int n) {
        return switch (kind) {
            case 0 -> new byte[n];
            case 1 -> new short[n];
            case 2 -> new char[n];
            case INT -> new int[n];
            case 4 -> new float[n];
            case LONG -> new long[n];
            default -> new double[n];
        };
    }
}
