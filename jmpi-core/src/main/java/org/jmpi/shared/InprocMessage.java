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
    /** The message bytes (the sender's buffer or a packed copy); read-only for the receiver. */
    public MemorySegment data;
    /** True for synchronous-mode sends: the receiver must not buffer the message eagerly. */
    public boolean synchronous;
    /**
     * Runs once the receiver no longer needs {@link #data}: argument {@code true} when the message was received,
     * {@code false} when it was withdrawn.
     */
    public java.util.function.Consumer<Boolean> onConsumed;
}
