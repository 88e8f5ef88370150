package org.jmpi.coll;

import java.lang.foreign.MemorySegment;
import org.jmpi.datatype.MessageData;
import org.jmpi.op.Reduction;

/**
 * The data of one rank in a reduction collective, and the working buffers its algorithm uses. Every working buffer is
 * laid out like the whole input (element {@code e} at the same position in each), so that a reduction of a range
 * always combines the same positions of two buffers, which the JIT vectorises for arrays (see
 * {@link org.jmpi.op.Reduction}).
 *
 * <p>Working buffers are Java arrays of the reduction's array type when the user's data is on the heap, and native
 * segments when it is in native memory (direct buffers): then nothing is copied between the two worlds, and messages
 * between processes can take the transport's single-copy path. Algorithms see buffers as opaque objects and go
 * through the methods here.
 *
 * <p>The result goes straight into the user's output when it can (a Java array starting at element 0 in heap mode, a
 * contiguous native buffer in native mode); otherwise it is computed in a temporary and copied out at the end. The
 * input is never written.
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
    /** {@code output} itself as a working buffer, or null. */
    final Object outBuffer;
    /** True when {@code input} is {@code output} (the in-place forms). */
    final boolean inPlace;
    /** True for native working buffers. */
    final boolean nativeMode;
    private final long bytesPerElement;

    ReduceBuffers(Schedule s, Reduction red, int count, MessageData input, MessageData output) {
        this.s = s;
        this.red = red;
        this.count = count;
        this.input = input;
        this.output = output;
        this.inPlace = input == output;
        this.bytesPerElement = red.bytesPerElement();
        this.nativeMode = isNative(output != null ? output : input);
        this.outBuffer = output == null ? null : direct(output, red, count, nativeMode);
    }

    /** Total packed bytes of {@code count} elements. */
    long bytes() {
        return count * bytesPerElement;
    }

    long bytes(int elements) {
        return elements * bytesPerElement;
    }

    /** A temporary working buffer for all {@code count} elements, returned to the pool with the schedule. */
    Object temp() {
        return nativeMode ? s.tempNative(bytes()) : s.tempArray(red.arrayType(), count * red.slotsPerElement());
    }

    /**
     * An accumulator that holds this rank's input once round {@code r} has started: the output itself when it can
     * be, else a temporary.
     */
    Object accumulator(Round r) {
        Object acc = outBuffer != null ? outBuffer : temp();
        if (!(inPlace && acc == outBuffer)) {
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

    /**
     * The input as a buffer that blocks can be cut from ({@link #data}): its segment in native mode, its array on
     * the heap (a whole array of the reduction's type); null in place, or for any other view. A reduce-scatter whose
     * first step sends the other half of the vector straight from it copies only the half it keeps
     * ({@link AllreduceRabenseifner#reduceScatter}).
     */
    Object inputBuffer() {
        if (inPlace) {
            return null;
        }
        MemorySegment seg = input.contiguous();
        // as the output's (direct), except that a read-only input serves too: it is only read
        return nativeMode && seg != null && seg.isNative() ? seg : direct(input, red, count, nativeMode);
    }

    /** The buffer to receive a result into: the output when it can be, else a temporary. */
    Object resultArray() {
        return outBuffer != null ? outBuffer : temp();
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

    /** Elements {@code [first, first + n)} of a working buffer, as message data. */
    MessageData data(Object buffer, int first, int n) {
        if (buffer instanceof MemorySegment m) {
            return n == 0 ? MessageData.EMPTY : new MessageData.SegmentData(m.asSlice(bytes(first), bytes(n)));
        }
        return Blocks.of(buffer, bytes(first), bytes(n));
    }

    /** All elements of a working buffer, as message data. */
    MessageData all(Object buffer) {
        return data(buffer, 0, count);
    }

    /** A local step: {@code inout = in op inout} on elements {@code [first, first + n)}. */
    Runnable reduce(Object in, Object inout, int first, int n) {
        if (in instanceof MemorySegment a) {
            MemorySegment b = (MemorySegment) inout;
            return () -> red.applyNative(a, b, first, n);
        }
        return () -> red.apply(in, inout, first, n);
    }

    /** A local step: copies the packed bytes of {@code src} into working buffer {@code dst} from element 0. */
    Runnable load(MessageData src, Object dst) {
        long n = bytes();
        MessageData to = all(dst);
        return () -> Blocks.copy(src, 0, to, 0, n);
    }

    /** A local step: copies elements {@code [first, first + n)} of one working buffer into another. */
    Runnable copy(Object src, Object dst, int first, int n) {
        MessageData from = data(src, first, n);
        MessageData to = data(dst, first, n);
        return () -> Blocks.copy(from, to);
    }

    /** Appends the last step: the result, held in {@code result}, goes to the output unless it is there already. */
    void finish(Object result) {
        if (output != null && result != outBuffer) {
            long n = bytes();
            MessageData from = all(result);
            s.round().local(() -> Blocks.copy(from, 0, output, 0, n));
        }
    }

    /** True when {@code d} is one run of native memory. */
    static boolean isNative(MessageData d) {
        MemorySegment c = d.contiguous();
        return c != null && c.isNative();
    }

    /**
     * {@code d} as a working buffer of the given mode, when it can serve as one: in native mode a contiguous native
     * run; in heap mode the Java array behind it, of the reduction's array type, holding the elements from its first
     * entry on. Else null.
     */
    static Object direct(MessageData d, Reduction red, int count, boolean nativeMode) {
        MemorySegment seg = d.contiguous();
        if (seg == null) {
            return null;
        }
        if (nativeMode) {
            return seg.isNative() && !seg.isReadOnly() ? seg : null;
        }
        if (seg.isNative() || seg.address() != 0) {
            return null;
        }
        Object base = seg.heapBase().orElse(null);
        if (base == null || base.getClass() != red.arrayType()) {
            return null;
        }
        return base;
    }
}
