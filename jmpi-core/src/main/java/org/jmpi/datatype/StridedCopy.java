package org.jmpi.datatype;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The copy loops under packing and unpacking.
 *
 * <h2>Idea</h2>
 * {@link MemorySegment#copy(MemorySegment, long, MemorySegment, long, long)} has a fixed cost per call (bounds and
 * liveness checks, dispatch on the segment kinds) that dominates when runs are a few bytes long, as in a matrix
 * column of doubles. So runs of 1, 2, 4 and 8 bytes, and runs of up to {@link #WORD_LOOP_LIMIT} bytes made of 8-byte
 * words, are copied with plain unaligned loads and stores in a loop the JIT compiles to straight-line code; longer
 * runs use the bulk copy.
 *
 * <h2>Cost</h2>
 * One load and one store per word for short runs, a bulk copy per run for long ones. Strided access costs a cache
 * line per run when the stride exceeds a line, which bounds how close a column can get to a contiguous copy.
 *
 * <p>Threading: stateless.
 */
final class StridedCopy {
    /** Runs of at most this many bytes that are a multiple of 8 are copied word by word. */
    static final long WORD_LOOP_LIMIT = 64;

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;

    private StridedCopy() {}

    /** Copies one run of {@code n} bytes. */
    static void copy(MemorySegment src, long srcAt, MemorySegment dst, long dstAt, long n) {
        if (n == 8) {
            dst.set(LONG, dstAt, src.get(LONG, srcAt));
        } else if (n == 4) {
            dst.set(INT, dstAt, src.get(INT, srcAt));
        } else if (n < 8) {
            for (long k = 0; k < n; k++) {
                dst.set(BYTE, dstAt + k, src.get(BYTE, srcAt + k));
            }
        } else {
            MemorySegment.copy(src, srcAt, dst, dstAt, n);
        }
    }

    /**
     * Copies {@code count} runs of {@code runLength} bytes; run {@code k} goes from {@code srcAt + k * srcStride} to
     * {@code dstAt + k * dstStride}.
     */
    static void strided(MemorySegment src, long srcAt, long srcStride, MemorySegment dst, long dstAt, long dstStride,
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
        } else if (runLength % 8 == 0 && runLength <= WORD_LOOP_LIMIT) {
            for (long k = 0; k < count; k++) {
                for (long w = 0; w < runLength; w += 8) {
                    dst.set(LONG, dstAt + w, src.get(LONG, srcAt + w));
                }
                srcAt += srcStride;
                dstAt += dstStride;
            }
        } else {
            for (long k = 0; k < count; k++) {
                copy(src, srcAt, dst, dstAt, runLength);
                srcAt += srcStride;
                dstAt += dstStride;
            }
        }
    }
}
