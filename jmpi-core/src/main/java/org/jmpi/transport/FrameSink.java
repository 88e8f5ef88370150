package org.jmpi.transport;

import java.lang.foreign.MemorySegment;

/**
 * Receives the frames a transport reads. Implemented once, by the point-to-point layer.
 *
 * <p>Threading: called by the thread that is inside {@link Transport#poll()}; the header and payload segments
 * are valid only for the duration of the call (the transport reuses them). The sink may call
 * {@link Transport#send} from inside {@code onFrame}.
 */
public interface FrameSink {
    /**
     * A complete frame arrived from {@code peer} (a world rank).
     *
     * @param header {@link FrameLayout#HEADER_BYTES} bytes, laid out as {@link FrameLayout} says
     * @param payload the payload of {@link FrameLayout#payloadLength(MemorySegment)} bytes (empty if none)
     */
    void onFrame(int peer, MemorySegment header, MemorySegment payload);

    /**
     * A complete frame whose payload is bytes {@code [offset, offset + length)} of {@code memory} (for a transport
     * that holds the payload in a larger segment, such as a shared-memory ring): a sink that can read the payload
     * in place overrides this to spare the slice object; by default it is sliced and handed to
     * {@link #onFrame(int, MemorySegment, MemorySegment)}.
     */
    default void onFrame(int peer, MemorySegment header, MemorySegment memory, long offset, long length) {
        onFrame(peer, header, memory.asSlice(offset, length));
    }

    /**
     * A SHORT frame ({@link Lane#sendShort}: an eager message without ids, its total its payload's length) whose
     * header fields the transport hands over as values, with the payload at bytes {@code [offset, offset + length)}
     * of {@code memory}: a sink that takes it from these returns true and spares the transport filling a header for
     * {@link #onFrame(int, MemorySegment, MemorySegment, long, long)}, which follows when it returns false (the
     * default).
     */
    default boolean onShort(int peer, int kind, int context, int source, int tag, MemorySegment memory, long offset,
            int length) {
        return false;
    }

    /**
     * Where the payload of the frame whose {@code header} came from {@code peer} may be read straight to, by a
     * transport that reads payloads in pieces (TCP): the memory the sink would copy it into, of exactly the payload's
     * length, or null when there is none (the frame is then handed over whole, as usual). When the transport takes it,
     * it reads the payload there and calls {@link #onPlaced} instead of {@link #onFrame}. By default null.
     */
    default MemorySegment placement(int peer, MemorySegment header) {
        return null;
    }

    /**
     * The frame {@code header} from {@code peer} whose payload the transport read into the memory that
     * {@link #placement} gave for it. Only called after {@link #placement} answered non-null for this frame.
     */
    default void onPlaced(int peer, MemorySegment header) {
        throw new UnsupportedOperationException("onPlaced without placement");
    }

    /**
     * Whether a frame handed over since the last call completed a receive that the polling thread waits for (or any
     * receive, when it waits for none in particular), and forgets it. A transport that reads several frames per poll
     * stops reading after such a frame, so that the caller that waits for the receive sees it done one read earlier:
     * on shared memory the next read would miss in the cache, since the producer has just written that line. By
     * default never.
     */
    default boolean takeCompletion() {
        return false;
    }

    /** The connection to {@code peer} broke or could not be made; pending traffic to it is lost. */
    void onPeerFailure(int peer, Throwable cause);
}
