package org.jmpi.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The internal side of a request: completion flag, status fields and the thread to wake on completion. Subclasses
 * (send and receive requests of the point-to-point layer, collective schedules) set the status fields and then
 * call {@link #complete()}.
 *
 * <p>Threading: the status fields are written by the completing thread before {@code done}, which it stores with
 * release semantics; readers check {@link #isDone()} (an acquire load) first, which orders the reads after the writes.
 * {@code waiter} is written by a waiting thread before it checks {@code done}, read by the completer after it sets
 * {@code done} and a full fence, so a waiter never misses its wake-up (and parks with a timeout anyway).
 *
 * <p>{@code done} and {@code settled} are plain fields with explicit fences ({@link VarHandle#releaseFence()},
 * {@link VarHandle#acquireFence()}, {@link VarHandle#fullFence()}) rather than volatile fields written through var
 * handles: jmpi's runtime runs on C1 (see {@code JitHints}), which compiles a var handle's release store as a volatile
 * one (a locked instruction on x86) after the handle's checks, where a release fence before a plain store compiles to
 * nothing on x86 (C1 alone, a loop on one core, JDK 25: 7.4 ns a store against 0.35). A request completed and recycled
 * per message went through four var handle stores per activation, two of them release stores. Cold, 6 interleaved
 * gated rounds against the same build without this (2026-12-05): OMB-J window bandwidth 1.03 of the rate, allgather
 * 0.95 of the time, latency and allreduce within 2 %.
 */
public abstract class RequestImpl {
    /** Written with release semantics (or before a full fence), read with acquire semantics ({@link #isDone()}). */
    private boolean done;
    /**
     * Set by the completing thread once it is done with this object in {@link #complete()} (after the callback if
     * there is one, else before the waiter's wake-up, which uses only values read earlier): from then on no other
     * thread touches this object for the activation that ended, so the owner may recycle it ({@link #recycle()}).
     * Stored with release semantics (no field of this object is read after it, so it needs no full fence: on x86 a
     * plain store instead of a locked instruction per completion); read with acquire semantics.
     */
    private boolean settled;
    private static final VarHandle WAITER;
    private static final VarHandle WHEN_DONE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            WAITER = l.findVarHandle(RequestImpl.class, "waiter", Thread.class);
            WHEN_DONE = l.findVarHandle(RequestImpl.class, "whenDone", Runnable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    private volatile Thread waiter;
    private volatile Runnable whenDone;
    private final Progress progress;

    /** Source rank in the communicator (receives), or the peer. */
    protected int source = -1;
    /** Tag of the matched message. */
    protected int tag = -1;
    /** Bytes received (or sent). */
    protected long bytes;
    /** MPI error class, 0 when the operation succeeded. */
    protected int error;
    /** Human-readable detail of {@link #error}. */
    protected String errorMessage;
    protected boolean cancelled;
    /** The flight recorder's event of the API call waiting on this request, between its wait and its release. */
    private Object apiEvent;
    /** See {@link #shared()}; set once, before the request is published. */
    private boolean shared;

    protected RequestImpl(Progress progress) {
        this.progress = progress;
    }

    /** The flight recorder's event of the blocking API call that owns this request (owner thread only). */
    public final Object apiEvent() {
        return apiEvent;
    }

    /** Keeps {@code event} (null: none) until the owner releases the request (owner thread only). */
    public final void apiEvent(Object event) {
        apiEvent = event;
    }

    public final boolean isDone() {
        boolean d = done;
        VarHandle.acquireFence();
        return d;
    }

    /**
     * Marks the request complete, wakes its waiter and runs its completion callback. Once per activation.
     *
     * <p>Completion and registration (a waiter, a callback) are the two sides of a Dekker pattern: each side stores
     * its field, then loads the other's; a full fence (here) and the volatile store of {@code waiter} or
     * {@code whenDone} (there) order each side's store before its load.
     */
    protected final void complete() {
        VarHandle.releaseFence();
        done = true;
        VarHandle.fullFence();
        Thread w = waiter;
        Runnable cb = whenDone;
        Progress p = progress;
        if (cb == null) {
            // nothing left that reads this object: settle before the wake-up, whose unpark (a mutex, maybe a system
            // call) let the woken owner find the request done but not settled and drop it instead of reusing it
            // (threads-mode rendezvous allocated a send request per message that way); an unpark that reaches a
            // thread already gone on is a spurious wake-up, which every park loop tolerates
            VarHandle.releaseFence();
            settled = true;
        }
        if (w != null) {
            p.wake(w);
        }
        if (cb != null) {
            cb.run();
            VarHandle.releaseFence();
            settled = true;
        }
    }

    /**
     * {@link #complete()} for a request that no other thread can know yet: its owner completes it inside the call that
     * started it, before that call returns it. No thread waits for it, so {@code done} is stored with release semantics
     * and no fence orders it before a look at the waiter: on x86 a plain store instead of a locked instruction, which
     * right after a send's record (a cache line the receiver polls) would wait for that line once per message. The
     * request is handed to other threads only through the caller (and whatever synchronisation the program uses),
     * which orders these stores before their reads. With a waiter or a callback present, as {@link #complete()}.
     */
    protected final void completeUnseen() {
        if (waiter != null || whenDone != null) {
            complete();
            return;
        }
        VarHandle.releaseFence();
        done = true;
        VarHandle.releaseFence();
        settled = true;
    }

    /**
     * Whether the activation that completed is over for every thread: the completer has left {@link #complete()}. A
     * request that is done but not settled may still be read by the completing thread and must not be recycled.
     */
    public final boolean settled() {
        boolean s = settled;
        VarHandle.acquireFence();
        return s;
    }

    /**
     * Re-arms a settled request for reuse as a new operation (pooling of requests the user cannot see any more):
     * clears completion, waiter, callback and status.
     */
    protected final void recycle() {
        recycle(true);
    }

    /**
     * {@link #recycle()}; with {@code tagAndBytes} false the status's tag and byte count are left as they are, for a
     * request whose next start sets them in any case (a send).
     */
    protected final void recycle(boolean tagAndBytes) {
        // Plain stores: the owner holds the only reference and the completer is settled (no thread reads this object
        // until the owner starts it again and hands it over, through a lock or a queue, which orders these stores
        // first). Volatile ones would each be a locked instruction on x86, five per message. And a field that holds
        // its reset value already is not stored again: a sender's stores wait in order behind its last record's,
        // whose cache line the receiver polls, and a load takes no place in that queue (2026-11-25: with the old
        // stores, a window of 64 eager 8 B messages took 1.03-1.16 times as long).
        if (waiter != null) {
            WAITER.set(this, null);
        }
        if (whenDone != null) {
            WHEN_DONE.set(this, null);
        }
        settled = false;
        done = false;
        clearStatus(tagAndBytes);
    }

    /**
     * Sets a callback run once the request completes (for example the next step of a collective schedule). It
     * runs in the completing thread, which may be another rank's thread in threads mode or the progress owner,
     * so it must be short, must not block, and must be thread-safe. If the request is already complete it runs
     * at once, in the caller. Set it at most once per activation.
     */
    public final void whenDone(Runnable callback) {
        if (!isDone()) {
            whenDone = callback;
            VarHandle.fullFence(); // the other side of complete()'s: the store before the second look at done
            if (!isDone()) {
                return;
            }
            // completion may have raced with the registration: make sure the callback runs (callbacks must
            // tolerate a second call, e.g. by testing a flag with compareAndSet)
        }
        callback.run(); // complete already: not stored, so a request complete from the start can be shared
    }

    /** Re-arms a persistent request before it starts again. */
    protected final void reset() {
        done = false;
        settled = false;
        VarHandle.fullFence();
        clearStatus(true);
    }

    /** Resets the status fields, storing only those that differ from their reset value (see {@link #recycle}). */
    private void clearStatus(boolean tagAndBytes) {
        if (source != -1) {
            source = -1;
        }
        if (tagAndBytes) {
            if (tag != -1) {
                tag = -1;
            }
            if (bytes != 0) {
                bytes = 0;
            }
        }
        if (error != 0) {
            error = 0;
        }
        if (errorMessage != null) {
            errorMessage = null;
        }
        if (cancelled) {
            cancelled = false;
        }
    }

    /** Makes {@code t} the thread to wake at completion; the caller looks at {@link #isDone()} afterwards. */
    final void setWaiter(Thread t) {
        waiter = t;
        VarHandle.fullFence(); // before the caller's next look at done: a plain load may move above a volatile store
    }

    /** Attempts to cancel; returns true when the request will complete as cancelled. */
    public boolean cancel() {
        return false;
    }

    public int source() {
        return source;
    }

    public int tag() {
        return tag;
    }

    public long bytes() {
        return bytes;
    }

    public int error() {
        return error;
    }

    public String errorMessage() {
        return errorMessage;
    }

    public boolean cancelled() {
        return cancelled;
    }

    public Progress progress() {
        return progress;
    }

    /**
     * Whether this request is complete from the start and shared by many operations ({@link #sharedCompleted}): never
     * recycled, never changed.
     */
    public final boolean shared() {
        return shared;
    }

    /**
     * A request complete from the start with an empty status (source and tag any, no bytes), which any number of
     * operations may share: the standard send that the lane wrote at once ({@code Engine.isendNow}), whose status
     * MPI leaves undefined but for its error (none) and its cancellation (not cancelled).
     */
    public static RequestImpl sharedCompleted(Progress progress) {
        RequestImpl r = completed(progress, -1, -1, 0);
        r.shared = true;
        return r;
    }

    /** A request that is complete from the start (operations on MPI.PROC_NULL, probe results). */
    public static RequestImpl completed(Progress progress, int source, int tag, long bytes) {
        RequestImpl r = new RequestImpl(progress) {};
        r.source = source;
        r.tag = tag;
        r.bytes = bytes;
        r.complete();
        return r;
    }

    /** Unparks the thread waiting for this request, if any (used when the job aborts). */
    public final void wakeWaiter() {
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }
}
