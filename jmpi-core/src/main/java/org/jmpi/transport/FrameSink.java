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

    /** The connection to {@code peer} broke or could not be made; pending traffic to it is lost. */
    void onPeerFailure(int peer, Throwable cause);
}
