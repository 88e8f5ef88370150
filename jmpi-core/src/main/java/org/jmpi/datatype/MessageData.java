package org.jmpi.datatype;

import java.lang.foreign.MemorySegment;
import org.jmpi.shared.FastCopy;
import org.jmpi.shared.SmallPayload;

/**
 * User memory taking part in one send or receive, seen as a stream of packed bytes. The point-to-point layer moves
 * bytes through this view only, so it never needs to know about arrays, buffers or datatype layouts.
 *
 * <p>Threading: not thread-safe; one operation uses it at a time.
 */
public interface MessageData {
    /** Length of the packed byte stream (count times the datatype's size). */
    long bytes();

    /**
     * The bytes as one segment of exactly {@link #bytes()} bytes when the layout is contiguous in memory (so a
     * peer may copy straight from or into it), else {@code null}.
     */
    MemorySegment contiguous();

    /** Copies packed bytes {@code [offset, offset + length)} into {@code dst} at {@code dstOffset}. */
    void packTo(long offset, MemorySegment dst, long dstOffset, long length);

    /** Writes packed bytes {@code [offset, offset + length)}, taken from {@code src} at {@code srcOffset}. */
    void unpackFrom(long offset, MemorySegment src, long srcOffset, long length);

    /**
     * {@link #contiguous()} as the lane copies a small payload ({@link SmallPayload}), or null; when there is one, it
     * covers all {@link #bytes()} ({@link SmallPayload#fits} that length).
     */
    default SmallPayload small() {
        return null;
    }

    /** The empty message (count 0 or a null buffer with count 0). */
    MessageData EMPTY = new SegmentData(MemorySegment.NULL);

    /**
     * A contiguous piece of memory. Its length is kept in a field: {@code segment.byteSize()} is an interface call,
     * which the JIT compiles for the segment classes it has seen so far, and every new kind of buffer (a double[]
     * after a byte[], a direct buffer) then threw away every compiled method that had inlined it.
     */
    final class SegmentData implements MessageData {
        private final MemorySegment segment;
        private final long bytes;
        private final SmallPayload small;

        public SegmentData(MemorySegment segment) {
            this(segment, null);
        }

        /** With {@link #small()} (the segment's {@link SmallPayload}, or null). */
        public SegmentData(MemorySegment segment, SmallPayload small) {
            this.segment = segment;
            this.bytes = segment.byteSize();
            this.small = small;
        }

        /** The memory. */
        public MemorySegment segment() {
            return segment;
        }

        @Override
        public long bytes() {
            return bytes;
        }

        @Override
        public MemorySegment contiguous() {
            return segment;
        }

        @Override
        public SmallPayload small() {
            return small;
        }

        @Override
        public void packTo(long offset, MemorySegment dst, long dstOffset, long length) {
            FastCopy.copy(segment, offset, dst, dstOffset, length);
        }

        @Override
        public void unpackFrom(long offset, MemorySegment src, long srcOffset, long length) {
            FastCopy.copy(src, srcOffset, segment, offset, length);
        }

        @Override
        public String toString() {
            return "SegmentData[" + segment + "]";
        }
    }

    /**
     * The first {@code bytes} bytes (whole elements, at most {@link SmallPayload#MAX_BYTES}) of a {@code byte[]},
     * {@code double[]}, {@code long[]}, {@code int[]} or {@code float[]}: its own {@link SmallPayload}, which the
     * shared-memory lane and the collectives copy a word at a time, and its memory segment made only when something
     * asks for it (the usual way, TCP), then kept. One object of 32 bytes where a view with its segment took about
     * 140: a program that passes a new array to every call (a dot product into {@code new double[1]}) makes one per
     * call, and in a fresh JVM every new page of the young generation it fills costs a page fault.
     */
    final class SmallArrayData extends SmallPayload implements MessageData {
        private final int bytes;
        /** Made on first use; a race makes an equal one (segments are immutable). */
        private MemorySegment segment;

        private SmallArrayData(int kind, Object array, int bytes) {
            super(kind, 0, array);
            this.bytes = bytes;
        }

        /** The first {@code bytes} bytes of {@code array} as such, or null when they make no small payload. */
        static SmallArrayData of(Object array, int bytes) {
            int kind = kindOf(array, 0, bytes);
            return kind < 0 ? null : new SmallArrayData(kind, array, bytes);
        }

        @Override
        public long bytes() {
            return bytes;
        }

        @Override
        public MemorySegment contiguous() {
            MemorySegment s = segment;
            if (s == null) {
                s = FastCopy.arraySegment(array());
                if (s.byteSize() != bytes) {
                    s = s.asSlice(0, bytes);
                }
                segment = s;
            }
            return s;
        }

        @Override
        public SmallPayload small() {
            return this;
        }

        @Override
        public void packTo(long offset, MemorySegment dst, long dstOffset, long length) {
            FastCopy.copy(contiguous(), offset, dst, dstOffset, length);
        }

        @Override
        public void unpackFrom(long offset, MemorySegment src, long srcOffset, long length) {
            FastCopy.copy(src, srcOffset, contiguous(), offset, length);
        }

        @Override
        public String toString() {
            return "SmallArrayData[" + array().getClass().getSimpleName() + ", " + bytes + " bytes]";
        }
    }
}
