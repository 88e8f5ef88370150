package org.jmpi.datatype;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Elements of any datatype in a Java {@code boolean[]}, any layout (the array is raw memory of one byte per
 * boolean, as in the Open MPI bindings). A boolean travels as
 * one byte (1 for true, 0 for false); a received byte is true when it is not 0. Byte offsets of the plan are indices
 * into the array (a boolean's size is 1).
 *
 * <p>Threading: not thread-safe; one operation uses it at a time.
 */
public final class BooleanPlanData implements MessageData {
    private final boolean[] array;
    private final Plan plan;

    /** {@code count} elements of {@code type} with element 0's origin at {@code array[0]}. */
    public BooleanPlanData(boolean[] array, TypeDescriptor type, long count) {
        this(array, 0, type, count);
    }

    /**
     * {@code count} elements of {@code type} with element 0's origin at {@code array[origin]} (an alltoallw block at
     * its byte displacement). No bounds check here: the caller checks the span, and the array refuses the rest.
     */
    public BooleanPlanData(boolean[] array, long origin, TypeDescriptor type, long count) {
        this.array = array;
        this.plan = Plan.repeat(origin, count, type.extent(), type.plan());
    }

    @Override
    public long bytes() {
        return plan.size;
    }

    @Override
    public MemorySegment contiguous() {
        return null;
    }

    @Override
    public void packTo(long offset, MemorySegment dst, long dstOffset, long length) {
        check(offset, length);
        if (length == 0) {
            return;
        }
        plan.visit(0, offset, length, dstOffset, (mem, at, n) -> {
            int from = Math.toIntExact(mem);
            for (int i = 0; i < n; i++) {
                dst.set(ValueLayout.JAVA_BYTE, at + i, array[from + i] ? (byte) 1 : (byte) 0);
            }
        });
    }

    @Override
    public void unpackFrom(long offset, MemorySegment src, long srcOffset, long length) {
        check(offset, length);
        if (length == 0) {
            return;
        }
        plan.visit(0, offset, length, srcOffset, (mem, at, n) -> {
            int to = Math.toIntExact(mem);
            for (int i = 0; i < n; i++) {
                array[to + i] = src.get(ValueLayout.JAVA_BYTE, at + i) != 0;
            }
        });
    }

    private void check(long offset, long length) {
        if (offset < 0 || length < 0 || offset > plan.size - length) {
            throw new IndexOutOfBoundsException(
                    "packed range " + offset + "+" + length + " outside a stream of " + plan.size + " bytes");
        }
    }
}
