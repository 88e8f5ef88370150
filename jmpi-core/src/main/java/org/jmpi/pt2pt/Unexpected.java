package org.jmpi.pt2pt;

import java.lang.foreign.MemorySegment;
import org.jmpi.shared.InprocMessage;
import org.jmpi.shared.FastCopy;

/**
 * A message that arrived before a matching receive was posted. It holds either a copy of the data (small
 * messages), a reference to an in-JVM sender's message, or a rendezvous request from a peer over a transport.
 * Guarded by the engine's matching lock while queued (see {@link MatchingQueues}).
 */
final class Unexpected {
    int context;
    int source;
    int tag;
    long bytes;
    /**
     * Copied data of an eager message (its first {@link #bytes} bytes), or null. A recycled entry keeps a small
     * buffer for the next message.
     */
    MemorySegment eager;
    /** Whether {@link #eager} holds this message's data. */
    boolean copied;
    /** An in-JVM message kept by reference, or null. */
    InprocMessage inproc;
    /** For messages that came over a transport: the sending world rank (else -1). */
    int peer = -1;
    /** Transport rendezvous: the sender's request id (0 for eager messages). */
    long sendId;
    /** The send id of an eager synchronous message (answered with DONE once matched), else 0. */
    long syncId;
    /** Transport rendezvous offering single copy: the address of the sender's buffer, else 0. */
    long remoteAddress;
    /** Whether the message came streamed (STREAM frames): a receive must check {@link #stream} under the lock. */
    boolean streamed;
    /** A streamed message whose pieces are still coming into {@link #eager}, else null (guarded by the lock). */
    IncomingStream stream;
    /** Links in the arrival-order list of all unexpected messages. */
    Unexpected prev;
    Unexpected next;
    /** The queues of this message's exact envelope, and the links in its FIFO of unexpected messages. */
    MatchingQueues.Bucket bucket;
    Unexpected bucketPrev;
    Unexpected bucketNext;

    /** Copy buffers up to this size are always kept by a recycled entry; larger ones within the engine's budget. */
    static final int KEPT_BUFFER_BYTES = 1024;

    /** Sets the envelope of a fresh or recycled entry. */
    Unexpected set(int context, int source, int tag, long bytes) {
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.bytes = bytes;
        return this;
    }

    /** Copies the message's data out of {@code from} (at {@code offset}) into this entry's own buffer. */
    void copyFrom(MemorySegment from, long offset) {
        if (eager == null || eager.byteSize() < bytes) {
            eager = MemorySegment.ofArray(new byte[(int) bytes]);
        }
        FastCopy.copy(from, offset, eager, 0, bytes);
        copied = true;
    }

    /** The size of {@link #eager} when over {@link #KEPT_BUFFER_BYTES} (what keeping it costs the engine), else 0. */
    long largeBuffer() {
        return eager != null && eager.byteSize() > KEPT_BUFFER_BYTES ? eager.byteSize() : 0;
    }

    /** Clears the entry for reuse; its copy buffer stays (the engine drops it when over budget). */
    void clear() {
        copied = false;
        inproc = null;
        peer = -1;
        sendId = 0;
        syncId = 0;
        remoteAddress = 0;
        streamed = false;
        stream = null;
    }

    /** Makes sure {@link #eager} holds {@link #bytes} bytes (for a streamed message, whose pieces are copied in). */
    void reserve() {
        if (eager == null || eager.byteSize() < bytes) {
            eager = MemorySegment.ofArray(new byte[(int) bytes]);
        }
    }
}
