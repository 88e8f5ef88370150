package org.jmpi.coll;

import java.lang.foreign.MemorySegment;
import org.jmpi.datatype.MessageData;
import org.jmpi.op.Reduction;

/**
 * The data of one rank in a reduction collective, and the working arrays its algorithm uses. Every working array is
 * laid out like the whole input (element {@code e} at entry {@code e * slotsPerElement}), so that a reduction of a
 * range always combines the same positions of two arrays, which the JIT vectorises (see
 * {@link org.jmpi.op.Reduction}).
 *
 * <p>The result goes straight into the user's output when that is a Java array of the reduction's array type starting
 * at element 0 (the common case of a plain array); otherwise it is computed in a temporary and copied out at the
 * end. The input is never written.
 *
 * <p>Threading: built and used by the thread building a schedule; the local steps it creates run in the thread
 * advancing the schedule.
 */
final class ReduceBuffers {
    final Schedule s;
    final Reduction red;
    /** Number of datatype elements. */
    final int count;
    /** This rank's contribution (packed), never written. */
    final MessageData input;
    /** Where this rank's result goes, or null when it gets none. */
    final MessageData output;
    /** {@code output} as an array laid out from element 0, or null. */
    final Object outArray;
    /** True when {@code input} is {@code output} (the in-place forms). */
    final boolean inPlace;
    private final long bytesPerElement;

    ReduceBuffers(Schedule s, Reduction red, int count, MessageData input, MessageData output) {
        this.s = s;
        this.red = red;
        this.count = count;
        this.input = input;
        this.output = output;
        this.inPlace = input == output;
        this.bytesPerElement = red.bytesPerElement();
        this.outArray = output == null ? null : directArray(output, red, count);
    }

    /** Total packed bytes of {@code count} elements. */
    long bytes() {
        return count * bytesPerElement;
    }

    long bytes(int elements) {
        return elements * bytesPerElement;
    }

    /** A temporary working array for all {@code count} elements. */
    Object temp() {
        return s.tempArray(red.arrayType(), count * red.slotsPerElement());
    }

    /**
     * An accumulator that holds this rank's input once round {@code r} has started: the output array itself when it
     * can be, else a temporary.
     */
    Object accumulator(Round r) {
        Object acc = outArray != null ? outArray : temp();
        if (!(inPlace && acc == outArray)) {
            r.local(load(input, acc));
        }
        return acc;
    }

    /** A temporary that holds this rank's input once round {@code r} has started. */
    Object loadedTemp(Round r) {
        Object t = temp();
        r.local(load(input, t));
        return t;
    }

    /** The array to receive a result into: the output array when there is one, else a temporary. */
    Object resultArray() {
        return outArray != null ? outArray : temp();
    }

    /**
     * Element boundaries of {@code blocks} nearly equal blocks of the {@code count} elements: block {@code i} is
     * {@code [starts[i], starts[i + 1])}, the first {@code count % blocks} blocks one element longer.
     */
    static int[] blockStarts(int count, int blocks) {
        int[] starts = new int[blocks + 1];
        int q = count / blocks;
        int extra = count % blocks;
        for (int i = 0; i < blocks; i++) {
            starts[i + 1] = starts[i] + q + (i < extra ? 1 : 0);
        }
        return starts;
    }

    /** Elements {@code [first, first + n)} of a working array, as message data. */
    MessageData data(Object array, int first, int n) {
        return Blocks.of(array, bytes(first), bytes(n));
    }

    /** All elements of a working array, as message data. */
    MessageData all(Object array) {
        return data(array, 0, count);
    }

    /** A local step: {@code inout = in op inout} on elements {@code [first, first + n)}. */
    Runnable reduce(Object in, Object inout, int first, int n) {
        return () -> red.apply(in, inout, first, n);
    }

    /** A local step: copies the packed bytes of {@code src} into working array {@code dst} from element 0. */
    Runnable load(MessageData src, Object dst) {
        long n = bytes();
        return () -> Blocks.copy(src, 0, Blocks.of(dst, 0, n), 0, n);
    }

    /** A local step: copies elements {@code [first, first + n)} of one working array into another. */
    Runnable copy(Object src, Object dst, int first, int n) {
        int slots = red.slotsPerElement();
        return () -> System.arraycopy(src, first * slots, dst, first * slots, n * slots);
    }

    /** Appends the last step: the result, held in {@code result}, goes to the output unless it is there already. */
    void finish(Object result) {
        if (output != null && result != outArray) {
            long n = bytes();
            s.round().local(() -> Blocks.copy(Blocks.of(result, 0, n), 0, output, 0, n));
        }
    }

    /**
     * The Java array behind {@code d} when it holds {@code count} elements of the reduction from the array's first
     * entry on, with the reduction's array type; else null.
     */
    static Object directArray(MessageData d, Reduction red, int count) {
        MemorySegment seg = d.contiguous();
        if (seg == null || seg.isNative() || seg.address() != 0) {
            return null;
        }
        Object base = seg.heapBase().orElse(null);
        if (base == null || base.getClass() != red.arrayType()) {
            return null;
        }
        return base;
    }
}
