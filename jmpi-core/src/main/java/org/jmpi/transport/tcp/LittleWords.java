package org.jmpi.transport.tcp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;

/**
 * Little-endian 8-byte words at any byte offset of a direct buffer (a connection's read or write buffer, whose frame
 * headers start wherever the previous frame's payload ended), read and written through eight long views of the
 * buffer, one per offset modulo 8: the word at byte {@code at} is element {@code at >>> 3} of the view that starts at
 * byte {@code at & 7}. A long view's {@code get} and {@code put} are the accesses the shared-memory rings make, which
 * C1 (jmpi's message path runs on C1, see {@code JitHints}) binds statically: one small JDK method each, compiled
 * once; a byte buffer's {@code getLong} and {@code putLong} at an offset are virtual calls into the JDK's unaligned
 * accessors. Where the processor does not allow unaligned accesses the JDK makes the views of
 * the other kind, which assemble each word from bytes (correct, slower).
 *
 * <p>Threading: the views share the buffer's memory and have positions of their own, which are never used (absolute
 * accesses only); whoever owns the buffer's side of the connection uses them.
 */
final class LittleWords {
    private final LongBuffer[] views = new LongBuffer[Long.BYTES];

    /** The words of {@code buffer} (its whole capacity; its position and limit are not touched). */
    LittleWords(ByteBuffer buffer) {
        int capacity = buffer.capacity();
        for (int k = 0; k < Long.BYTES; k++) {
            views[k] = buffer.duplicate().clear().position(Math.min(k, capacity)).slice()
                    .order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
        }
    }

    /** The word at byte {@code at} (at most the capacity minus 8). */
    long get(int at) {
        return views[at & (Long.BYTES - 1)].get(at >>> 3);
    }

    /** Stores {@code value} as the word at byte {@code at} (at most the capacity minus 8). */
    void put(int at, long value) {
        views[at & (Long.BYTES - 1)].put(at >>> 3, value);
    }
}
