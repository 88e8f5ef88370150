package org.jmpi.shared;

/**
 * The receiving side of a rank in threads mode, as other ranks' threads see it. Implemented by the rank's
 * point-to-point engine (loaded by the rank's own class loader) and registered with its {@link ThreadsJob}.
 *
 * <p>Threading: every method may be called by any thread at any time.
 */
public interface InprocEndpoint {
    /**
     * Hands a message to this rank. Returns {@code true} when the message was consumed during the call (received
     * directly or buffered): {@code onConsumed} has then already run. Returns {@code false} when the receiver keeps
     * a reference to {@code m.data} or {@code m.layout}, whose memory must stay unchanged until {@code onConsumed} runs.
     */
    boolean deliver(InprocMessage m);

    /**
     * Takes back a message that {@link #deliver} kept and that no receive has matched yet (send cancel). Returns
     * {@code true} when it was withdrawn; {@code onConsumed} is not run in that case.
     */
    boolean withdraw(InprocMessage m);

    /**
     * The data of this rank's send {@code sendId} that waits for its receiver's rendezvous answer, when contiguous
     * (a receiver in the same JVM copies it straight out), or null.
     */
    java.lang.foreign.MemorySegment rendezvousData(long sendId);

    /** Wakes every thread of this rank that waits inside MPI (used when the job aborts). */
    void wakeAll();

    /**
     * This rank's job has aborted: messages from ranks of other jobs (dynamic processes, {@link
     * InprocMessage#crossJob}) that wait here unreceived, and those that come later, are refused, so that their
     * senders fail instead of waiting for a receive that will never be posted.
     */
    void refuseOtherJobs();
}
