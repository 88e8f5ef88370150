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
     * Bytes of a short header: the first three words (payload length, kind, context, source, tag, flags), what a frame
     * that {@link #travelsShort} carries over a transport (a shared-memory SHORT record, a TCP short frame).
     */
    public static final int SHORT_HEADER_BYTES = 24;

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
    private static final int GET_INT = 0;
    private static final int PUT_INT = 1;
    private static final int GET_LONG = 2;
    private static final int PUT_LONG = 3;

    /**
     * Whether the frame of {@code header} may travel with its first {@link #SHORT_HEADER_BYTES} only: no send or
     * receive id, its total its payload's length (an eager message's frame, the usual one). {@link #restoreShort} makes
     * the rest again.
     */
    public static boolean travelsShort(MemorySegment header) {
        return getLong(header, SEND_ID) == 0 && getLong(header, RECV_ID) == 0
                && getLong(header, TOTAL) == (payloadLength(header) & 0xffff_ffffL);
    }

    /** Fills in what a short header leaves out ({@link #travelsShort}), its first 24 bytes being in place. */
    public static void restoreShort(MemorySegment header) {
        putLong(header, TOTAL, payloadLength(header) & 0xffff_ffffL);
        putLong(header, SEND_ID, 0L);
        putLong(header, RECV_ID, 0L);
    }

    public static int payloadLength(MemorySegment header) {
        return (int) access(header, PAYLOAD, GET_INT, 0);
    }

    public static int getInt(MemorySegment header, long field) {
        return (int) access(header, field, GET_INT, 0);
    }

    public static void putInt(MemorySegment header, long field, int value) {
        access(header, field, PUT_INT, value);
    }

    public static long getLong(MemorySegment header, long field) {
        return access(header, field, GET_LONG, 0);
    }

    public static void putLong(MemorySegment header, long field, long value) {
        access(header, field, PUT_LONG, value);
    }

    /**
     * Every field's read and write, in one method that is larger than what C1 inlines (35 bytes of bytecode), so that
     * the foreign-memory accesses are compiled once, here, and a caller's compiled code holds a call per field. C1,
     * which compiles jmpi's runtime, inlines the JDK's whole chain behind each access (some 25 methods, 1.1-1.5 KB
     * of code) wherever the access is inlined: with the accessors inlined, the engine's usual send
     * ({@code Engine.isend}, nine fields) was 13.7 KB of C1 code that took 14 ms to compile, in the middle of a cold
     * OMB-J bcast at the size whose message first waited for credit. A call costs nanoseconds.
     */
    private static long access(MemorySegment header, long field, int op, long value) {
        switch (op) {
            case GET_INT:
                return header.get(INT, field);
            case PUT_INT:
                header.set(INT, field, (int) value);
                return 0;
            case GET_LONG:
                return header.get(LONG, field);
            default:
                header.set(LONG, field, value);
                return 0;
        }
    }
}
