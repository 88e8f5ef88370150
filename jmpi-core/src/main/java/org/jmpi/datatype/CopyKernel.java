package org.jmpi.datatype;

import java.lang.foreign.MemorySegment;

/** The copy loops packing and unpacking run on ({@link ArrayKernel}). */
interface CopyKernel {
    /** Copies one run of {@code n} bytes. */
    void copy(MemorySegment src, long srcAt, MemorySegment dst, long dstAt, long n);

    /**
     * Copies {@code count} runs of {@code runLength} bytes; run {@code k} goes from {@code srcAt + k * srcStride} to
     * {@code dstAt + k * dstStride}.
     */
    void strided(MemorySegment src, long srcAt, long srcStride, MemorySegment dst, long dstAt, long dstStride,
            long runLength, long count);
}
