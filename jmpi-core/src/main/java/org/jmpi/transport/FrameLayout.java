package org.jmpi.transport;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The header every frame starts with. All fields little-endian, 48 bytes:
 *
 * <pre>
 *  0        4        8        12       16               24               32               40      44      48
 *  +--------+--------+--------+--------+----------------+----------------+----------------+-------+-------+
 *  | payload| kind   | context| source |  tag  | flags  |   total bytes  |   send id      | recv id/offset|
 *  | length | (u8+3) |  id    | rank   |       |        |                |                |               |
 *  +--------+--------+--------+--------+-------+--------+----------------+----------------+---------------+
 * </pre>
 *
 * <ul>
 *   <li>{@code PAYLOAD} (int): bytes that follow the header in this frame. The only field a transport reads.
 *   <li>{@code KIND} (int): the point-to-point protocol message (eager, rendezvous request, ...).
 *   <li>{@code CONTEXT} (int): communicator context id.
 *   <li>{@code SOURCE} (int): the sender's rank in that communicator.
 *   <li>{@code TAG} (int), {@code FLAGS} (int).
 *   <li>{@code TOTAL} (long): length of the whole message in bytes.
 *   <li>{@code SEND_ID} (long): the sender's request id; {@code RECV_ID} (long): the receiver's request id or a
 *       data offset, depending on the kind.
 * </ul>
 */
public final class FrameLayout {
    private FrameLayout() {}

    public static final int HEADER_BYTES = 48;

    /**
     * {@code KIND} values below zero are reserved for transports and never reach a {@link FrameSink}. This one
     * says goodbye: the sender closes the connection after it, having sent everything, so the end of the stream
     * that follows is not a failure.
     */
    public static final int KIND_TRANSPORT_BYE = -1;
    /**
     * Transport-reserved: the last frame on a connection its sender stops sending on; the rest of its frames follow
     * on another connection to the same peer, which starts with {@link #KIND_TRANSPORT_SWITCHED}.
     */
    public static final int KIND_TRANSPORT_SWITCH = -2;
    /**
     * Transport-reserved: the first frame on a connection that takes over from another one, whose frames up to its
     * {@link #KIND_TRANSPORT_SWITCH} come first.
     */
    public static final int KIND_TRANSPORT_SWITCHED = -3;

    public static final long PAYLOAD = 0;
    public static final long KIND = 4;
    public static final long CONTEXT = 8;
    public static final long SOURCE = 12;
    public static final long TAG = 16;
    public static final long FLAGS = 20;
    public static final long TOTAL = 24;
    public static final long SEND_ID = 32;
    public static final long RECV_ID = 40;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    public static int payloadLength(MemorySegment header) {
        return header.get(INT, PAYLOAD);
    }

    public static int getInt(MemorySegment header, long field) {
        return header.get(INT, field);
    }

    public static void putInt(MemorySegment header, long field, int value) {
        header.set(INT, field, value);
    }

    public static long getLong(MemorySegment header, long field) {
        return header.get(LONG, field);
    }

    public static void putLong(MemorySegment header, long field, long value) {
        header.set(LONG, field, value);
    }
}
