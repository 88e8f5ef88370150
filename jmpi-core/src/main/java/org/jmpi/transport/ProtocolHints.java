package org.jmpi.transport;

/**
 * Optional capability of a {@link Transport}: the protocol sizes it suits best for a peer. The point-to-point layer
 * asks per message (cheaply: implementations answer from an array or a constant) and falls back to its configured
 * values when the transport has no opinion.
 *
 * <p>Shared memory, for example, wants a small eager limit (above it the receiver can copy straight out of the
 * sender's memory) and data chunks that fit its rings several times over, so that sender and receiver copy
 * different chunks at the same time; TCP a larger eager limit (its rendezvous handshake costs a round trip between
 * hosts).
 *
 * <p>Threading: called by any thread; implementations are immutable or answer from state published safely.
 */
public interface ProtocolHints {
    /** Messages to {@code peer} up to this many bytes should be sent eagerly; -1: no opinion. */
    long eagerLimit(int peer);

    /** Rendezvous data to {@code peer} should travel in frames of at most this many payload bytes; -1: no opinion. */
    long chunkBytes(int peer);

    /**
     * Whether data to {@code peer} that would fit in one or two frames should still travel as at least two, so that
     * the receiver copies the first out while the sender copies the second in: yes where both copy through a buffer
     * of the transport (shared memory's rings), no where the data is written from the sender's memory and read into
     * the receiver's without such a copy (TCP, which then sends a message of up to {@link #chunkBytes} as one frame).
     */
    default boolean splitsData(int peer) {
        return true;
    }

    /**
     * Messages to {@code peer} above the eager limit and up to this many bytes, when the peer cannot read the sender's
     * buffer itself (no single copy), should be streamed: sent at once, without a rendezvous handshake, in pieces of
     * {@link #chunkBytes} that the receiver copies into its buffer as they arrive (or gathers, when no receive is
     * posted yet). 0 or -1: never.
     */
    default long streamLimit(int peer) {
        return -1;
    }
}
