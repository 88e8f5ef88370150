package org.jmpi.transport;

import java.lang.foreign.MemorySegment;

/**
 * Moves frames (a fixed header plus an optional payload) between ranks of one job. A transport knows nothing of
 * MPI: no tags, no matching, no datatypes. The point-to-point layer builds its protocols on top of it.
 *
 * <p>Ordering: every frame sent from rank A to rank B arrives at B in the order A's {@link #send} calls were
 * made (for calls made by one thread, and for calls ordered by a happens-before edge).
 *
 * <p>Threading: {@link #send} and {@link #wakeup()} may be called by any thread at any time, including from
 * inside {@link FrameSink#onFrame}. {@link #poll()} and {@link #await(long)} are called by at most one thread at a
 * time (the runtime's progress owner). No method blocks for longer than the call needs, except {@code await}.
 */
public interface Transport extends AutoCloseable {
    /** Short name for logs and {@code --verbose}: "tcp", "shm", ... */
    String name();

    /**
     * Queues a frame for {@code peer} (a world rank). The header ({@link FrameLayout#HEADER_BYTES} bytes) is
     * copied before this method returns. The payload, if not {@code null}, is read later: it must stay
     * unchanged until {@code onWritten} has run. {@code onWritten} runs exactly once, in some thread that is
     * inside {@code send} or {@code poll}, possibly before {@code send} returns. Its length must equal the
     * header's payload length.
     */
    void send(int peer, MemorySegment header, MemorySegment payload, Runnable onWritten);

    /**
     * Does whatever I/O is possible now without blocking: writes queued frames, reads arrived ones and hands
     * each complete frame to the sink. Returns {@code true} when it did anything.
     */
    boolean poll();

    /**
     * Whether a {@link #poll()} now might find something to do: a look at memory, no system call, no bookkeeping,
     * so that a thread waiting for a completion can spin on it alone. True when the transport cannot tell cheaply
     * (the default): the caller then polls.
     */
    default boolean mayHaveWork() {
        return true;
    }

    /**
     * Blocks until there may be I/O to do, {@link #wakeup()} is called, or {@code nanos} elapse. Spurious returns
     * are allowed.
     */
    void await(long nanos);

    /** Makes a concurrent or the next {@link #await(long)} return promptly. */
    void wakeup();

    /** Closes every connection and listener; idempotent. */
    @Override
    void close();

    /**
     * Called once by the runtime after the start-up fence, when every rank has published its business cards. The
     * shared-memory transport maps its peers' segments here (so that their files can be removed); the default does
     * nothing.
     */
    default void afterStartFence() {
    }

    /** The {@link Lane} that reaches {@code peer} (a world rank), or null when frames to it take {@link #send} only. */
    default Lane lane(int peer) {
        return null;
    }
}
