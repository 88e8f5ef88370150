package org.jmpi.pt2pt;

import org.jmpi.shared.InprocMessage;

/**
 * A message that arrived before a matching receive was posted. It holds either a copy of the data (small
 * messages), a reference to an in-JVM sender's message, or a rendezvous request from a peer over a transport.
 * Guarded by the engine's matching lock while queued (see {@link MatchingQueues}).
 */
final class Unexpected {
    final int context;
    final int source;
    final int tag;
    final long bytes;
    /** Copied data of an eager message, or null. */
    byte[] eager;
    /** An in-JVM message kept by reference, or null. */
    InprocMessage inproc;
    /** For messages that came over a transport: the sending world rank (else -1). */
    int peer = -1;
    /** Transport rendezvous: the sender's request id (0 for eager messages). */
    long sendId;
    /** Transport rendezvous offering single copy: the address of the sender's buffer, else 0. */
    long remoteAddress;
    /** Links in the arrival-order list of all unexpected messages. */
    Unexpected prev;
    Unexpected next;
    /** The queues of this message's exact envelope, and the links in its FIFO of unexpected messages. */
    MatchingQueues.Bucket bucket;
    Unexpected bucketPrev;
    Unexpected bucketNext;

    Unexpected(int context, int source, int tag, long bytes) {
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.bytes = bytes;
    }
}
