package org.jmpi.datatype;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The copy loops themselves. {@link StridedCopy} runs a separate copy of this class for each pair of segment classes
 * (user memory, packed memory), so that every access in these loops sees one receiver class and the JIT compiles it
 * to a plain load or store.
 *
 * <h2>Idea</h2>
 * A bulk {@link MemorySegment#copy(MemorySegment, long, MemorySegment, long, long)} has a fixed cost per call that
 * dominates for runs of a few bytes, as in a matrix column of doubles. So runs of 1, 2, 4 and 8 bytes, and runs of 2
 * to 8 whole words, are copied with unaligned loads and stores in loops with fixed bodies; other runs under 16 bytes
 * word by word; longer ones with the bulk copy.
 *
 * <h2>Cost</h2>
 * One load and one store per word for small runs, a bulk copy per run for long ones. Strided access touches a cache
 * line per run once the stride exceeds a line, which bounds how close a column can get to a contiguous copy.
 *
 * <p>Threading: stateless.
 */
final class StridedKernel implements CopyKernel {
    /** Runs up to this many bytes are copied word by word. */
    static final long SMALL = 64;

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;

    @Override
    public void copy(MemorySegment src, long srcAt, MemorySegment dst, long dstAt, long n) {
        if (n > SMALL) {
            MemorySegment.copy(src, srcAt, dst, dstAt, n);
        } else {
            small(src, srcAt, dst, dstAt, n);
        }
    }

    private static void small(MemorySegment src, long srcAt, MemorySegment dst, long dstAt, long n) {
        long i = 0;
        for (; i + 8 <= n; i += 8) {
            dst.set(LONG, dstAt + i, src.get(LONG, srcAt + i));
        }
        if (i + 4 <= n) {
            dst.set(INT, dstAt + i, src.get(INT, srcAt + i));
            i += 4;
        }
        if (i + 2 <= n) {
            dst.set(SHORT, dstAt + i, src.get(SHORT, srcAt + i));
            i += 2;
        }
        if (i < n) {
            dst.set(BYTE, dstAt + i, src.get(BYTE, srcAt + i));
        }
    }

    @Override
    public void strided(MemorySegment src, long srcAt, long srcStride, MemorySegment dst, long dstAt, long dstStride,
            long runLength, long count) {
        if (runLength == 8) {
            for (long k = 0; k < count; k++) {
                dst.set(LONG, dstAt, src.get(LONG, srcAt));
                srcAt += srcStride;
                dstAt += dstStride;
            }
        } else if (runLength == 4) {
            for (long k = 0; k < count; k++) {
                dst.set(INT, dstAt, src.get(INT, srcAt));
                srcAt += srcStride;
                dstAt += dstStride;
            }
        } else if (runLength == 2) {
            for (long k = 0; k < count; k++) {
                dst.set(SHORT, dstAt, src.get(SHORT, srcAt));
                srcAt += srcStride;
                dstAt += dstStride;
            }
        } else if (runLength == 1) {
            for (long k = 0; k < count; k++) {
                dst.set(BYTE, dstAt, src.get(BYTE, srcAt));
                srcAt += srcStride;
                dstAt += dstStride;
            }
        } else if (runLength % 8 == 0 && runLength <= SMALL) {
            words(src, srcAt, srcStride, dst, dstAt, dstStride, (int) (runLength >>> 3), count);
        } else if (runLength < 16) {
            for (long k = 0; k < count; k++) {
                small(src, srcAt, dst, dstAt, runLength);
                srcAt += srcStride;
                dstAt += dstStride;
            }
        } else {
            for (long k = 0; k < count; k++) {
                MemorySegment.copy(src, srcAt, dst, dstAt, runLength);
                srcAt += srcStride;
                dstAt += dstStride;
            }
        }
    }

    /**
     * Runs of 2 to 8 whole words, one method with an unrolled body per length: a loop whose trip count varies inside
     * the outer loop compiles to much slower code (a 16-byte run costs 5 times as much), and one method holding all
     * seven loops grows past what the JIT inlines into.
     */
    private static void words(MemorySegment src, long a, long as, MemorySegment dst, long b, long bs, int words,
            long count) {
        switch (words) {
            case 2 -> words2(src, a, as, dst, b, bs, count);
            case 3 -> words3(src, a, as, dst, b, bs, count);
            case 4 -> words4(src, a, as, dst, b, bs, count);
            case 5 -> words5(src, a, as, dst, b, bs, count);
            case 6 -> words6(src, a, as, dst, b, bs, count);
            case 7 -> words7(src, a, as, dst, b, bs, count);
            default -> words8(src, a, as, dst, b, bs, count);
        }
    }

    private static void words2(MemorySegment src, long a, long as, MemorySegment dst, long b, long bs, long count) {
        for (long k = 0; k < count; k++, a += as, b += bs) {
            word(src, a, dst, b);
            word(src, a + 8, dst, b + 8);
        }
    }

    private static void words3(MemorySegment src, long a, long as, MemorySegment dst, long b, long bs, long count) {
        for (long k = 0; k < count; k++, a += as, b += bs) {
            word(src, a, dst, b);
            word(src, a + 8, dst, b + 8);
            word(src, a + 16, dst, b + 16);
        }
    }

    private static void words4(MemorySegment src, long a, long as, MemorySegment dst, long b, long bs, long count) {
        for (long k = 0; k < count; k++, a += as, b += bs) {
            word(src, a, dst, b);
            word(src, a + 8, dst, b + 8);
            word(src, a + 16, dst, b + 16);
            word(src, a + 24, dst, b + 24);
        }
    }

    private static void words5(MemorySegment src, long a, long as, MemorySegment dst, long b, long bs, long count) {
        for (long k = 0; k < count; k++, a += as, b += bs) {
            word(src, a, dst, b);
            word(src, a + 8, dst, b + 8);
            word(src, a + 16, dst, b + 16);
            word(src, a + 24, dst, b + 24);
            word(src, a + 32, dst, b + 32);
        }
    }

    private static void words6(MemorySegment src, long a, long as, MemorySegment dst, long b, long bs, long count) {
        for (long k = 0; k < count; k++, a += as, b += bs) {
            word(src, a, dst, b);
            word(src, a + 8, dst, b + 8);
            word(src, a + 16, dst, b + 16);
            word(src, a + 24, dst, b + 24);
            word(src, a + 32, dst, b + 32);
            word(src, a + 40, dst, b + 40);
        }
    }

    private static void words7(MemorySegment src, long a, long as, MemorySegment dst, long b, long bs, long count) {
        for (long k = 0; k < count; k++, a += as, b += bs) {
            word(src, a, dst, b);
            word(src, a + 8, dst, b + 8);
            word(src, a + 16, dst, b + 16);
            word(src, a + 24, dst, b + 24);
            word(src, a + 32, dst, b + 32);
            word(src, a + 40, dst, b + 40);
            word(src, a + 48, dst, b + 48);
        }
    }

    private static void words8(MemorySegment src, long a, long as, MemorySegment dst, long b, long bs, long count) {
        for (long k = 0; k < count; k++, a += as, b += bs) {
            word(src, a, dst, b);
            word(src, a + 8, dst, b + 8);
            word(src, a + 16, dst, b + 16);
            word(src, a + 24, dst, b + 24);
            word(src, a + 32, dst, b + 32);
            word(src, a + 40, dst, b + 40);
            word(src, a + 48, dst, b + 48);
            word(src, a + 56, dst, b + 56);
        }
    }

    private static void word(MemorySegment src, long a, MemorySegment dst, long b) {
        dst.set(LONG, b, src.get(LONG, a));
    }
}
