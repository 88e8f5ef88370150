package org.jmpi.runtime;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A request that completes when all of its parts have (the requests it {@link #add}s, plus the caller's own counts):
 * a neighbourhood exchange, an isendrecv, an activation of a partitioned operation. Its error is the first error of a
 * part. The count starts at 1, the creator's: the creator adds its parts, then calls {@link #partDone(RequestImpl)}
 * with null once, so that the request cannot complete while parts are still being added.
 *
 * <p>Threading: the count and the first error are updated by the parts' completion callbacks, which may run in any
 * thread; {@link #completing()} and {@code complete()} run once, in the thread that finishes the last part.
 */
public abstract class CompositeRequest extends RequestImpl {
    private final AtomicInteger pending = new AtomicInteger(1);
    private volatile int firstError;
    private volatile String firstMessage;

    protected CompositeRequest(Progress progress) {
        super(progress);
    }

    /** Adds {@code n} to the count of parts still to finish (parts not added by {@link #add}). */
    protected final void expect(int n) {
        pending.addAndGet(n);
    }

    /**
     * Adds a part: this request waits for it ({@code null}: nothing to wait for). Counted once, although a
     * completion callback may run twice (see {@link RequestImpl#whenDone}).
     */
    protected final void add(RequestImpl part) {
        if (part != null) {
            pending.incrementAndGet();
            java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
            part.whenDone(() -> {
                if (once.compareAndSet(false, true)) {
                    partDone(part);
                }
            });
        }
    }

    /**
     * One part finished ({@code null}: one of the counts of {@link #expect} or the creator's); each exactly once
     * (parts added by {@link #add} are guarded already).
     */
    protected final void partDone(RequestImpl part) {
        if (part != null && part.error() != 0) {
            fail(part.error(), part.errorMessage(), false);
        }
        if (pending.decrementAndGet() == 0) {
            completing();
            error = firstError;
            errorMessage = firstMessage;
            complete();
        }
    }

    /** Records an error (the first one wins) and, with {@code count}, finishes one counted part. */
    protected final void fail(int errorClass, String message, boolean count) {
        if (firstError == 0) {
            firstMessage = message;
            firstError = errorClass;
        }
        if (count) {
            partDone(null);
        }
    }

    /** Runs once, just before completion: set the status here. */
    protected void completing() {}

    @Override
    public boolean cancel() {
        return false;
    }
}
