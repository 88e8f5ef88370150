package org.jmpi.datatype;

import java.lang.foreign.MemorySegment;

/**
 * {@code count} elements of a non-contiguous datatype in one memory segment, packed and unpacked by walking the
 * type's runs. Supports any byte range of the packed stream, so large messages can move in chunks.
 *
 * <p>Threading: not thread-safe.
 */
public final class PlanData implements MessageData {
    private final MemorySegment memory;
    private final long origin;
    private final TypeDescriptor type;
    private final long count;

    /**
     * @param memory the whole user buffer
     * @param origin byte offset in {@code memory} of element 0's origin
     */
    public PlanData(MemorySegment memory, long origin, TypeDescriptor type, long count) {
        this.memory = memory;
        this.origin = origin;
        this.type = type;
        this.count = count;
    }

    @Override
    public long bytes() {
        return type.size() * count;
    }

    @Override
    public MemorySegment contiguous() {
        return null;
    }

    @Override
    public void packTo(long offset, MemorySegment dst, long dstOffset, long length) {
        walk(offset, length, dst, dstOffset, true);
    }

    @Override
    public void unpackFrom(long offset, MemorySegment src, long srcOffset, long length) {
        walk(offset, length, src, srcOffset, false);
    }

    private void walk(long offset, long length, MemorySegment other, long otherOffset, boolean pack) {
        long size = type.size();
        if (length == 0 || size == 0) {
            return;
        }
        long element = offset / size;
        long within = offset % size;
        int run = 0;
        while (within >= type.runLength(run)) {
            within -= type.runLength(run);
            run++;
        }
        long done = 0;
        while (done < length) {
            long runLen = type.runLength(run) - within;
            long n = Math.min(runLen, length - done);
            long at = origin + element * type.extent() + type.runOffset(run) + within;
            if (pack) {
                MemorySegment.copy(memory, at, other, otherOffset + done, n);
            } else {
                MemorySegment.copy(other, otherOffset + done, memory, at, n);
            }
            done += n;
            within = 0;
            if (++run == type.runCount()) {
                run = 0;
                element++;
            }
        }
    }
}
