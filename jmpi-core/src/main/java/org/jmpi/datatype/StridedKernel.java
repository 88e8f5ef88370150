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
 * dominates for runs of a few bytes, as in a matrix column of doubles. So runs of up to {@link #SMALL} bytes are
 * copied with unaligned word loads and stores (8, then 4, 2, 1 bytes) in a loop; longer runs use the bulk copy.
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
        } else if (runLength <= SMALL) {
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
}
