package org.jmpi.coll;

import java.lang.foreign.MemorySegment;
import org.jmpi.datatype.MessageData;
import org.jmpi.shared.FastCopy;
import org.jmpi.shared.SmallPayload;

/**
 * Views and copies of packed data: a byte range of a {@link MessageData}, a message over part of a Java array, and
 * copies between messages of any layout. Collectives address user buffers by packed bytes: block {@code i} of a
 * gather of {@code n} bytes per rank is packed bytes {@code [i * n, (i + 1) * n)} of the root's receive buffer,
 * whatever the datatype's layout in memory.
 */
public final class Blocks {
    private Blocks() {}

    /** Packed bytes {@code [offset, offset + length)} of {@code d}. */
    public static MessageData slice(MessageData d, long offset, long length) {
        if (offset == 0 && length == d.bytes()) {
            return d;
        }
        if (length == 0) {
            return MessageData.EMPTY;
        }
        if (offset < 0 || length < 0 || offset + length > d.bytes()) {
            throw new IndexOutOfBoundsException("slice [" + offset + ", " + (offset + length) + ") of a message of "
                    + d.bytes() + " bytes");
        }
        MemorySegment c = d.contiguous();
        if (c != null) {
            return new MessageData.SegmentData(c.asSlice(offset, length));
        }
        return new Slice(d, offset, length);
    }

    /** Bytes {@code [offset, offset + length)} of the memory of a Java primitive array, as a message. */
    public static MessageData of(Object array, long offset, long length) {
        if (length == 0) {
            return MessageData.EMPTY;
        }
        return new MessageData.SegmentData(FastCopy.arraySegment(array).asSlice(offset, length));
    }

    /** Copies {@code length} packed bytes from {@code src} at {@code srcOffset} to {@code dst} at {@code dstOffset}. */
    public static void copy(MessageData src, long srcOffset, MessageData dst, long dstOffset, long length) {
        if (length == 0) {
            return;
        }
        SmallPayload from = length <= SmallPayload.MAX_BYTES && srcOffset == 0 && dstOffset == 0 ? src.small() : null;
        SmallPayload to = from != null ? dst.small() : null;
        if (to != null && from.fits((int) length) && to.fits((int) length)) {
            SmallPayload.copy(from, to, (int) length); // a word at a time, see SmallPayload; no segment asked for
            return;
        }
        MemorySegment s = src.contiguous();
        MemorySegment d = dst.contiguous();
        if (s != null && d != null) {
            FastCopy.copy(s, srcOffset, d, dstOffset, length);
        } else if (s != null) {
            dst.unpackFrom(dstOffset, s, srcOffset, length);
        } else if (d != null) {
            src.packTo(srcOffset, d, dstOffset, length);
        } else {
            long chunk = Math.min(length, 1 << 16);
            MemorySegment tmp = MemorySegment.ofArray(new byte[(int) chunk]);
            for (long done = 0; done < length; done += chunk) {
                long n = Math.min(chunk, length - done);
                src.packTo(srcOffset + done, tmp, 0, n);
                dst.unpackFrom(dstOffset + done, tmp, 0, n);
            }
        }
    }

    /** Copies all of {@code src} into {@code dst} from its start. */
    public static void copy(MessageData src, MessageData dst) {
        copy(src, 0, dst, 0, src.bytes());
    }

    /** A byte range of a non-contiguous message. */
    private record Slice(MessageData base, long offset, long length) implements MessageData {
        @Override
        public long bytes() {
            return length;
        }

        @Override
        public MemorySegment contiguous() {
            return null;
        }

        @Override
        public void packTo(long off, MemorySegment dst, long dstOffset, long len) {
            base.packTo(offset + off, dst, dstOffset, len);
        }

        @Override
        public void unpackFrom(long off, MemorySegment src, long srcOffset, long len) {
            base.unpackFrom(offset + off, src, srcOffset, len);
        }
    }
}
