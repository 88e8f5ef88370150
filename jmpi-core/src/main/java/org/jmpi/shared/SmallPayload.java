package org.jmpi.shared;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;

/**
 * A small contiguous payload as the shared-memory lane copies it, a long at a time: from and to a {@code byte[]} by
 * plain array reads and writes, from and to native memory (a direct buffer) by a {@link ByteBuffer}'s absolute
 * accesses, and on the ring's side by its {@link LongBuffer} words. {@link FastCopy}'s {@code MemorySegment.copy} is
 * one {@code Unsafe.copyMemory}, which C1 (jmpi's runtime runs on C1, see {@code JitHints}) compiles as a call into the
 * VM, and which the interpreter reaches through some 20 calls: copies of 8 bytes between a Java array or native memory
 * and native memory took 40-65 ns with C1 alone against 11-20 this way, 1.5-2.2 us interpreted against 0.47-0.75
 * (2026-12-02, loops of 8-byte copies; 1 B 6-8 ns against 40-50, 32 B 32-35 against 42-47, 64 B 95-110 against
 * 65-72, hence {@link #MAX_BYTES}).
 *
 * <p>Made once per buffer view (the views are cached, see {@code BufferView}); views of other memory (arrays of other
 * types, read-only heap buffers) have none and are copied by {@link FastCopy}. Little-endian machines only: a
 * partial last word is put together byte by byte in that order.
 *
 * <p>Threading: immutable; absolute accesses only.
 */
public final class SmallPayload {
    /** Largest payload that has one (above it one {@code copyMemory} costs less than the words). */
    public static final int MAX_BYTES = 32;

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    /** The array holding the payload from {@link #base} on, or null for native memory. */
    private final byte[] array;
    private final int base;
    /** Native memory: the payload from index 0, in native order; null for an array. */
    private final ByteBuffer buffer;

    private SmallPayload(byte[] array, int base, ByteBuffer buffer) {
        this.array = array;
        this.base = base;
        this.buffer = buffer;
    }

    /**
     * The payload {@code s} (at most {@link #MAX_BYTES}), or null when it is neither a {@code byte[]}'s memory nor
     * native memory, or the machine is not little-endian.
     */
    public static SmallPayload of(MemorySegment s) {
        if (!LITTLE_ENDIAN || s.byteSize() > MAX_BYTES) {
            return null;
        }
        if (s.isNative()) {
            return new SmallPayload(null, 0, s.asByteBuffer().order(ByteOrder.nativeOrder()));
        }
        Object a = s.heapBase().orElse(null); // empty for read-only memory
        return a instanceof byte[] bytes ? new SmallPayload(bytes, (int) s.address(), null) : null;
    }

    /**
     * Copies the payload's first {@code n} bytes into {@code words} from word {@code w} on (native order); the bytes of
     * the last word past {@code n} are zero.
     */
    public void toWords(int n, LongBuffer words, int w) {
        if (buffer == null) {
            byte[] a = array;
            int k = base;
            int end = base + n;
            for (; k + Long.BYTES <= end; k += Long.BYTES) {
                words.put(w++, arrayLong(a, k));
            }
            if (k < end) {
                long v = 0;
                for (int i = end - 1; i >= k; i--) {
                    v = v << 8 | a[i] & 0xffL;
                }
                words.put(w, v);
            }
        } else {
            ByteBuffer b = buffer;
            int i = 0;
            for (; i + Long.BYTES <= n; i += Long.BYTES) {
                words.put(w++, b.getLong(i));
            }
            if (i < n) {
                long v = 0;
                for (int k = n - 1; k >= i; k--) {
                    v = v << 8 | b.get(k) & 0xffL;
                }
                words.put(w, v);
            }
        }
    }

    /** Copies {@code n} bytes from {@code words} from word {@code w} on (native order) to the payload's first bytes. */
    public void fromWords(LongBuffer words, int w, int n) {
        if (buffer == null) {
            byte[] a = array;
            int k = base;
            int end = base + n;
            for (; k + Long.BYTES <= end; k += Long.BYTES) {
                putArrayLong(a, k, words.get(w++));
            }
            if (k < end) {
                for (long v = words.get(w); k < end; k++, v >>>= 8) {
                    a[k] = (byte) v;
                }
            }
        } else {
            ByteBuffer b = buffer;
            int i = 0;
            for (; i + Long.BYTES <= n; i += Long.BYTES) {
                b.putLong(i, words.get(w++));
            }
            if (i < n) {
                for (long v = words.get(w); i < n; i++, v >>>= 8) {
                    b.put(i, (byte) v);
                }
            }
        }
    }

    private static long arrayLong(byte[] a, int k) {
        return a[k] & 0xffL | (a[k + 1] & 0xffL) << 8 | (a[k + 2] & 0xffL) << 16 | (a[k + 3] & 0xffL) << 24
                | (a[k + 4] & 0xffL) << 32 | (a[k + 5] & 0xffL) << 40 | (a[k + 6] & 0xffL) << 48
                | (long) a[k + 7] << 56;
    }

    private static void putArrayLong(byte[] a, int k, long v) {
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
