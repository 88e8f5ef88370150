package org.jmpi.op;

/**
 * A reduction operation bound to a datatype: what collectives call to combine data. It works on packed elements held
 * in Java arrays of {@link #arrayType()}; one datatype element (one unit of an MPI count) takes
 * {@link #slotsPerElement()} array entries.
 *
 * <p>{@link #apply} combines two arrays at the <em>same</em> position. Collectives lay out all their buffers alike
 * (element {@code e} at entry {@code e * slotsPerElement()} of every buffer), which lets the JIT vectorise the
 * predefined operations: with one index for both arrays it can prove that iterations are independent.
 *
 * <p>Working buffers are Java arrays when the user's data lives on the heap, and native memory when it lives there
 * (direct buffers): {@link #apply} and {@link #applyNative} serve the two. The predefined operations combine native
 * memory in cache-sized chunks copied through Java arrays, so the same array loop serves both.
 *
 * <p>Threading: implementations are immutable; {@code apply} may run in any thread (a user function runs in the
 * thread that advances the collective).
 */
public interface Reduction {
    /** The Java array type of the working buffers, e.g. {@code float[].class}. */
    Class<?> arrayType();

    /** Array entries per datatype element. */
    int slotsPerElement();

    /** Bytes of one array entry. */
    int slotBytes();

    /** Whether {@code a op b == b op a}. Algorithms that reorder operands need it. */
    boolean commutative();

    /**
     * {@code inout[e] = in[e] op inout[e]} for the elements {@code e} in {@code [first, first + count)}; both arrays
     * are laid out alike.
     */
    void apply(Object in, Object inout, int first, int count);

    /**
     * The same on native memory: {@code inout = in op inout} for the elements {@code [first, first + count)} of two
     * native segments laid out alike (element {@code e} at byte {@code e * bytesPerElement()}).
     */
    void applyNative(java.lang.foreign.MemorySegment in, java.lang.foreign.MemorySegment inout, long first,
            long count);

    /** Name for messages, e.g. {@code MPI_SUM on MPI.FLOAT}. */
    String describe();

    /** Packed bytes of one datatype element. */
    default long bytesPerElement() {
        return (long) slotsPerElement() * slotBytes();
    }
}
