package org.jmpi.shared;

import java.lang.foreign.MemorySegment;

/**
 * A point-to-point message handed from one rank's thread to another rank's endpoint in threads mode. The sender
 * fills it and calls {@link InprocEndpoint#deliver}; the receiver either copies the data at once or keeps the
 * message until a matching receive is posted, then copies and runs {@link #onConsumed}.
 *
 * <p>Threading: the sender writes every field before {@code deliver}; the receiver reads them after, under its
 * matching lock (the lock's release/acquire orders the writes). {@code onConsumed} runs exactly once, in
 * whichever thread copies the data out (or drops the message as cancelled).
 */
public final class InprocMessage {
    /** Communicator context id. */
    public int context;
    /** Sender's rank in that communicator. */
    public int source;
    /** Message tag. */
    public int tag;
    /** Length of the message in bytes. */
    public long bytes;
    /**
     * The message bytes when the sender's buffer is contiguous (that buffer itself), else null; read-only for the
     * receiver.
     */
    public MemorySegment data;
    /**
     * The sender's layout when its data is not contiguous (a derived datatype): the receiver packs the bytes straight
     * out of the sender's memory with it, into its own buffer or its copy, instead of the sender packing a copy first.
     * Null when {@link #data} is set. Valid, like {@code data}, until {@link #onConsumed} runs.
     */
    public Layout layout;
    /** True for synchronous-mode sends: the receiver must not buffer the message eagerly. */
    public boolean synchronous;
    /** True when the sender belongs to another job than the receiver (connected by dynamic process management). */
    public boolean crossJob;
    /**
     * Runs once the receiver no longer needs {@link #data}: argument {@code true} when the message was received,
     * {@code false} when the receiver refused it ({@link #refusal} then says why).
     */
    public java.util.function.Consumer<Boolean> onConsumed;
    /**
     * Set by a receiver that refuses the message before it runs {@code onConsumed(false)}: the MPI error class of
     * the refusal (the communicator was revoked, or its collectives failed with a failed process).
     */
    public int refusal;

    /** Packs bytes of a message from the sender's memory (the sender's {@code MessageData}). */
    @FunctionalInterface
    public interface Layout {
        /** Copies packed bytes {@code [offset, offset + length)} into {@code dst} at {@code dstOffset}. */
        void packTo(long offset, MemorySegment dst, long dstOffset, long length);
    }

    /** Copies packed bytes {@code [offset, offset + length)} of the message into {@code dst} at {@code dstOffset}. */
    public void packTo(long offset, MemorySegment dst, long dstOffset, long length) {
        if (data != null) {
            FastCopy.copy(data, offset, dst, dstOffset, length);
        } else {
            layout.packTo(offset, dst, dstOffset, length);
        }
    }
}
