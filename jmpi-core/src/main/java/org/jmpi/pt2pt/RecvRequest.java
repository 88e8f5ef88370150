package org.jmpi.pt2pt;

import org.jmpi.datatype.MessageData;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.Progress;
import org.jmpi.runtime.RequestImpl;

/**
 * A posted receive. While unmatched it sits in the engine's posted queue (intrusive list, guarded by the engine's
 * matching lock); once matched, exactly one thread fills it and completes it. Recycled by the engine like a
 * {@link SendRequest} once its owner has observed completion and it is settled.
 */
public final class RecvRequest extends RequestImpl {
    int context;
    int sourceFilter;
    int tagFilter;
    MessageData data;
    long capacity;
    final Engine engine;
    /** Intrusive links in the posted queue; guarded by the engine lock. */
    RecvRequest prev;
    RecvRequest next;
    boolean queued;
    /** While queued: the bucket of its exact envelope, or null in the wildcard list; guarded by the engine lock. */
    MatchingQueues.Bucket bucket;
    /** Posting order, to choose between an exact and a wildcard receive; guarded by the engine lock. */
    long seq;
    /**
     * Posted by the application (package mpi), not by a layer inside: ULFM's rule for receives from ANY_SOURCE after
     * an unacknowledged failure applies to these only (the library's own services keep their wildcard receives).
     */
    boolean application;
    /** Rendezvous over a transport: id, bytes expected, bytes arrived (touched only by the progress owner). */
    long recvId;
    /** World rank the rendezvous data comes from (-1 before a rendezvous starts), to fail it if that rank dies. */
    int worldPeer = -1;
    long wanted;
    long arrived;
    long total;
    /**
     * Split single copy: the payload of our SPLIT frame (address and length of our buffer), kept here because the
     * transport may hold it until it is written, which is before this request completes. Native, as every other
     * segment the frame path writes words into: a heap one here was the first, and the JDK's compiled word stores,
     * made for native memory only, were thrown away in a program's first rendezvous. Made on the first split copy.
     */
    java.lang.foreign.MemorySegment splitOffer;

    RecvRequest(Engine engine, Progress progress) {
        super(progress);
        this.engine = engine;
    }

    /** Arms the request for a new receive (a fresh or recycled object). */
    RecvRequest start(MessageData data, int context, int source, int tag) {
        this.data = data;
        this.capacity = data.bytes();
        this.context = context;
        this.sourceFilter = source;
        this.tagFilter = tag;
        return this;
    }

    /** Clears what one activation left behind, before the request goes back to the pool. */
    void clear() {
        recycle();
        application = false;
        data = null;
        clearProgress();
    }

    /** Makes a completed, settled receive a fresh unmatched one again, same buffer and envelope (for a re-post). */
    void rearm() {
        reset();
        clearProgress();
    }

    /** Forgets the queue links and the rendezvous state of the activation that ended. */
    private void clearProgress() {
        prev = null;
        next = null;
        queued = false;
        bucket = null;
        recvId = 0;
        worldPeer = -1;
        wanted = 0;
        arrived = 0;
        total = 0;
    }

    boolean matches(int ctx, int src, int t) {
        return ctx == context && (sourceFilter == Engine.ANY || sourceFilter == src)
                && (tagFilter == Engine.ANY || tagFilter == t);
    }

    /** Records the envelope of the matched message; returns how many bytes to take (truncating if needed). */
    long accept(int src, int t, long messageBytes) {
        this.source = src;
        this.tag = t;
        this.total = messageBytes;
        long n = Math.min(messageBytes, capacity);
        this.bytes = n;
        if (messageBytes > capacity) {
            this.error = ErrorClass.ERR_TRUNCATE;
            this.errorMessage = "message of " + messageBytes + " bytes from rank " + src + " (tag " + t
                    + ") truncated: the receive buffer holds " + capacity + " bytes";
        }
        return n;
    }

    /**
     * Counts {@code n} more bytes of a rendezvous as arrived; true exactly once, when the last of {@link #wanted}
     * is in. Any thread: a split single copy reads its part in the receiving thread while the progress owner takes the
     * sender's part.
     */
    synchronized boolean addArrived(long n) {
        boolean before = arrived >= wanted;
        arrived += n;
        return !before && arrived >= wanted;
    }

    /**
     * Gives up on the rest of a transfer (its sender failed): true, and no later {@link #addArrived} completes the
     * request, unless it had already completed (false).
     */
    synchronized boolean abandon() {
        if (arrived >= wanted) {
            return false;
        }
        arrived = Long.MIN_VALUE / 4;
        return true;
    }

    void finish() {
        complete();
    }

    void fail(int errorClass, String message) {
        this.error = errorClass;
        this.errorMessage = message;
        complete();
    }

    void finishCancelled() {
        this.cancelled = true;
        complete();
    }

    @Override
    public boolean cancel() {
        return engine.cancelRecv(this);
    }
}
