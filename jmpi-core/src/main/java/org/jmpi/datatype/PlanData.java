package org.jmpi.datatype;

import java.lang.foreign.MemorySegment;

/**
 * {@code count} elements of a datatype in one memory segment, packed and unpacked by walking the message's
 * {@link Plan}. Supports any byte range of the packed stream, so large messages can move in chunks; seeking to a
 * range start costs O(depth * log(width)) of the plan, not a walk from the start.
 *
 * <p>Threading: immutable; several threads may pack from one instance at once (they only read user memory), but
 * unpacking into the same memory from two threads is the caller's race.
 */
public final class PlanData implements MessageData {
    private final MemorySegment memory;
    private final Plan plan;

    /**
     * @param memory the whole user buffer
     * @param origin byte offset in {@code memory} of element 0's origin
     */
    public PlanData(MemorySegment memory, long origin, TypeDescriptor type, long count) {
        this(memory, Plan.repeat(origin, count, type.extent(), type.plan()));
    }

    private PlanData(MemorySegment memory, Plan plan) {
        this.memory = memory;
        this.plan = plan;
    }

    /**
     * {@code count} elements of {@code type} with element 0's origin at byte {@code origin} of {@code memory}: a
     * {@link MessageData.SegmentData} (no packing, zero copy) when they happen to be one contiguous run, else a
     * {@code PlanData}. No bounds check here: {@link BufferView} checks user buffers, and the segment itself refuses
     * out-of-range access.
     */
    public static MessageData over(MemorySegment memory, long origin, TypeDescriptor type, long count) {
        Plan p = Plan.repeat(origin, count, type.extent(), type.plan());
        if (p.size == 0) {
            return MessageData.EMPTY;
        }
        if (p instanceof Plan.Runs r && r.offsets.length == 1) {
            return new MessageData.SegmentData(memory.asSlice(r.offsets[0], r.lengths[0]));
        }
        return new PlanData(memory, p);
    }

    @Override
    public long bytes() {
        return plan.size;
    }

    @Override
    public MemorySegment contiguous() {
        if (plan instanceof Plan.Runs r && r.offsets.length == 1) {
            return memory.asSlice(r.offsets[0], r.lengths[0]);
        }
        return null;
    }

    @Override
    public void packTo(long offset, MemorySegment dst, long dstOffset, long length) {
        check(offset, length);
        if (length > 0 && !ArrayKernel.move(plan, memory, offset, length, dst, dstOffset, true)) {
            plan.move(memory, 0, offset, length, dst, dstOffset, true, ArrayKernel.RUNS);
        }
    }

    @Override
    public void unpackFrom(long offset, MemorySegment src, long srcOffset, long length) {
        check(offset, length);
        if (length > 0 && !ArrayKernel.move(plan, memory, offset, length, src, srcOffset, false)) {
            plan.move(memory, 0, offset, length, src, srcOffset, false, ArrayKernel.RUNS);
        }
    }

    /**
     * Calls {@code visitor} for each contiguous run of user memory behind packed bytes {@code [offset, offset +
     * length)}, in packed order (memory offsets are from the start of the segment this data was made over).
     */
    public void visitRuns(long offset, long length, RunVisitor visitor) {
        check(offset, length);
        if (length > 0) {
            plan.visit(0, offset, length, offset, visitor);
        }
    }

    /** The user memory this data reads and writes. */
    public MemorySegment memory() {
        return memory;
    }

    private void check(long offset, long length) {
        if (offset < 0 || length < 0 || offset > plan.size - length) {
            throw new IndexOutOfBoundsException(
                    "packed range " + offset + "+" + length + " outside a stream of " + plan.size + " bytes");
        }
    }
}
