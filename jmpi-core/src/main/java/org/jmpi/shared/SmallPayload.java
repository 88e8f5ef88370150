package org.jmpi.shared;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.LongBuffer;

/**
 * A small contiguous payload as the shared-memory lane and the collectives' copies move it, a long at a time: from and
 * to a {@code byte[]}, {@code double[]}, {@code long[]}, {@code int[]} or {@code float[]} by plain array reads and
 * writes, from and to whole words of native memory (a direct buffer) through a {@link LongBuffer} view, and on a
 * ring's side by the ring's {@link LongBuffer} words. {@link FastCopy}'s {@code MemorySegment.copy} is one
 * {@code Unsafe.copyMemory}, which C1 (jmpi's runtime runs on C1, see {@code JitHints}) compiles as a call into the
 * VM, and which the interpreter reaches through some 20 calls: copies of 8 bytes between a Java array or native memory
 * and native memory took 40-65 ns with C1 alone against 11-20 this way, 1.5-2.2 us interpreted against 0.47-0.75
 * (2026-12-02, loops of 8-byte copies; 1 B 6-8 ns against 40-50, 32 B 32-35 against 42-47, 64 B 95-110 against
 * 65-72, hence {@link #MAX_BYTES}).
 *
 * <p>Native memory only in whole words, through the view kind whose accesses C1 compiles for the rings anyway: a
 * direct {@code ByteBuffer}'s byte and long accesses are JDK methods that nothing else on the message path calls, and
 * a cold program compiled them (C1 with profiling, then C2) in its timed part: with them, a cold OMB-J allgather of 1
 * and 8 bytes on direct buffers took 1.5-2.3 us instead of 0.7-1.2 (4 gated rounds, 2026-12-02). Moving the bytes
 * after the last whole word through a {@code ByteBuffer} made C1's code faster (OMB-J's bcast of 1-4 bytes 0.16-0.19 us
 * a call instead of 0.21-0.24, 300,000 calls a size) but the cold runs slower: OMB-J latency and bcast of 1 byte, their
 * first size, 0.58 us against 0.35 (6 interleaved gated rounds, 2026-12-05).
 *
 * <p>Made once per buffer view (the views are cached, see {@code BufferView}); views of other memory (arrays of other
 * types, parts of an array that do not start and end on its elements, native memory but in whole words, read-only
 * heap buffers) have none and are copied by {@link FastCopy}. Little-endian machines only: words are put together and
 * taken apart in that order.
 *
 * <p>A view of a small array is itself one ({@code MessageData.SmallArrayData}).
 *
 * <p>Threading: immutable; absolute accesses only.
 */
public class SmallPayload {
    /** Largest payload that has one (above it one {@code copyMemory} costs less than the words). */
    public static final int MAX_BYTES = 32;

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final int BYTES = 0;
    private static final int DOUBLES = 1;
    private static final int LONGS = 2;
    private static final int INTS = 3;
    private static final int NATIVE = 4;
    private static final int FLOATS = 5;

    private final int kind;
    /** The payload's first byte in its array (a byte offset), or 0 for native memory. */
    private final int base;
    /**
     * The array ({@code byte[]}, {@code double[]}, ... as {@link #kind} says), or for native memory the payload's
     * words from index 0 in native order (a {@link LongBuffer}): one field, cast where used (24 bytes an object, not
     * 48 with a field per kind; a program that passes a new array to every call makes a view per call).
     */
    private final Object array;

    /** A payload of {@code kind} ({@link #kindOf}) from byte {@code base} of {@code array}. */
    protected SmallPayload(int kind, int base, Object array) {
        this.kind = kind;
        this.base = base;
        this.array = array;
    }

    /**
     * The payload {@code s} (at most {@link #MAX_BYTES}), or null when it is not whole words of native memory nor such
     * a part of an array as {@link #ofArray} takes, or the machine is not little-endian.
     */
    public static SmallPayload of(MemorySegment s) {
        long n = s.byteSize();
        if (!LITTLE_ENDIAN || n > MAX_BYTES) {
            return null;
        }
        if (s.isNative()) {
            return n % Long.BYTES != 0 ? null
                    : new SmallPayload(NATIVE, 0, s.asByteBuffer().order(ByteOrder.nativeOrder()).asLongBuffer());
        }
        return ofArray(s.heapBase().orElse(null), s.address(), n); // no base for read-only memory
    }

    /**
     * The {@code n} bytes (at most {@link #MAX_BYTES}) from byte {@code offset} of {@code array}, or null when it is
     * not a {@code byte[]}, {@code double[]}, {@code long[]}, {@code int[]} or {@code float[]}, the bytes do not start
     * and end on its elements, or the machine is not little-endian.
     */
    public static SmallPayload ofArray(Object array, long offset, long n) {
        int kind = kindOf(array, offset, n);
        return kind < 0 ? null : new SmallPayload(kind, (int) offset, array);
    }

    /**
     * The kind of payload that the {@code n} bytes from byte {@code offset} of {@code array} make (see
     * {@link #ofArray}), or -1 when they make none.
     */
    protected static int kindOf(Object array, long offset, long n) {
        if (!LITTLE_ENDIAN || n > MAX_BYTES) {
            return -1;
        }
        if (array instanceof byte[]) {
            return BYTES;
        }
        int element = array instanceof double[] || array instanceof long[] ? Long.BYTES
                : array instanceof int[] || array instanceof float[] ? Integer.BYTES : 0;
        if (element == 0 || offset % element != 0 || n % element != 0) {
            return -1;
        }
        return array instanceof double[] ? DOUBLES : array instanceof long[] ? LONGS
                : array instanceof int[] ? INTS : FLOATS;
    }

    /** The array the payload is in (for native memory, the {@link LongBuffer} of its words). */
    protected final Object array() {
        return array;
    }

    /**
     * Whether {@link #toWords}, {@link #fromWords} and {@link #copy} may move {@code n} bytes of this payload (at most
     * its length): whole elements of its array.
     */
    public final boolean fits(int n) {
        return kind == BYTES || n % (kind == INTS || kind == FLOATS ? Integer.BYTES : Long.BYTES) == 0;
    }

    /**
     * Copies the payload's first {@code n} bytes ({@link #fits}) into {@code words} from word {@code w} on (native
     * order); the bytes of the last word past {@code n} are zero.
     */
    public final void toWords(int n, LongBuffer words, int w) {
        int i = 0;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            words.put(w++, longAt(i));
        }
        if (i < n) {
            words.put(w, tailAt(i, n));
        }
    }

    /**
     * Copies {@code n} bytes ({@link #fits}) from {@code words} from word {@code w} on (native order) to the payload's
     * first bytes.
     */
    public final void fromWords(LongBuffer words, int w, int n) {
        int i = 0;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            putLongAt(i, words.get(w++));
        }
        if (i < n) {
            putTail(i, n, words.get(w));
        }
    }

    /** Copies the first {@code n} bytes of {@code from} to the first bytes of {@code to} (both {@link #fits}). */
    public static void copy(SmallPayload from, SmallPayload to, int n) {
        int i = 0;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            to.putLongAt(i, from.longAt(i));
        }
        if (i < n) {
            to.putTail(i, n, from.tailAt(i, n));
        }
    }

    /** The 8 bytes at byte {@code i} of the payload. */
    private long longAt(int i) {
        int k = base + i;
        return switch (kind) {
            case BYTES -> bytesLong((byte[]) array, k);
            case DOUBLES -> Double.doubleToRawLongBits(((double[]) array)[k >>> 3]);
            case LONGS -> ((long[]) array)[k >>> 3];
            case INTS -> ((int[]) array)[k >>> 2] & 0xffff_ffffL | (long) ((int[]) array)[(k >>> 2) + 1] << 32;
            case FLOATS -> Float.floatToRawIntBits(((float[]) array)[k >>> 2]) & 0xffff_ffffL
                    | (long) Float.floatToRawIntBits(((float[]) array)[(k >>> 2) + 1]) << 32;
            default -> ((LongBuffer) array).get(i >>> 3);
        };
    }

    private void putLongAt(int i, long v) {
        int k = base + i;
        switch (kind) {
            case BYTES -> putBytesLong((byte[]) array, k, v);
            case DOUBLES -> ((double[]) array)[k >>> 3] = Double.longBitsToDouble(v);
            case LONGS -> ((long[]) array)[k >>> 3] = v;
            case INTS -> {
                int[] ints = (int[]) array;
                ints[k >>> 2] = (int) v;
                ints[(k >>> 2) + 1] = (int) (v >>> 32);
            }
            case FLOATS -> {
                float[] floats = (float[]) array;
                floats[k >>> 2] = Float.intBitsToFloat((int) v);
                floats[(k >>> 2) + 1] = Float.intBitsToFloat((int) (v >>> 32));
            }
            default -> ((LongBuffer) array).put(i >>> 3, v);
        }
    }

    /**
     * Bytes {@code i} to {@code n - 1} (fewer than 8: of a {@code byte[]}, or one element of an {@code int[]} or
     * {@code float[]}) as a long's low bytes.
     */
    private long tailAt(int i, int n) {
        if (kind == INTS) {
            return ((int[]) array)[(base + i) >>> 2] & 0xffff_ffffL;
        }
        if (kind == FLOATS) {
            return Float.floatToRawIntBits(((float[]) array)[(base + i) >>> 2]) & 0xffff_ffffL;
        }
        byte[] bytes = (byte[]) array;
        long v = 0;
        for (int k = base + n - 1; k >= base + i; k--) {
            v = v << 8 | bytes[k] & 0xffL;
        }
        return v;
    }

    private void putTail(int i, int n, long v) {
        if (kind == INTS) {
            ((int[]) array)[(base + i) >>> 2] = (int) v;
            return;
        }
        if (kind == FLOATS) {
            ((float[]) array)[(base + i) >>> 2] = Float.intBitsToFloat((int) v);
            return;
        }
        byte[] bytes = (byte[]) array;
        for (int k = base + i; k < base + n; k++, v >>>= 8) {
            bytes[k] = (byte) v;
        }
    }

    private static long bytesLong(byte[] a, int k) {
        return a[k] & 0xffL | (a[k + 1] & 0xffL) << 8 | (a[k + 2] & 0xffL) << 16 | (a[k + 3] & 0xffL) << 24
                | (a[k + 4] & 0xffL) << 32 | (a[k + 5] & 0xffL) << 40 | (a[k + 6] & 0xffL) << 48
                | (long) a[k + 7] << 56;
    }

    private static void putBytesLong(byte[] a, int k, long v) {
        a[k] = (byte) v;
        a[k + 1] = (byte) (v >>> 8);
        a[k + 2] = (byte) (v >>> 16);
        a[k + 3] = (byte) (v >>> 24);
        a[k + 4] = (byte) (v >>> 32);
        a[k + 5] = (byte) (v >>> 40);
        a[k + 6] = (byte) (v >>> 48);
        a[k + 7] = (byte) (v >>> 56);
    }
}
