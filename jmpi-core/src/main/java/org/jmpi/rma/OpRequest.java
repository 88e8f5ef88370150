package org.jmpi.rma;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jmpi.runtime.Progress;
import org.jmpi.runtime.RequestImpl;

/**
 * The origin's request of one one-sided operation or synchronisation message: complete when every answer it waits for
 * (a status, the data of a get, or both) has arrived, which for every operation means it is complete at the target as
 * well as at the origin. The request forms ({@code rPut}, ...) hand it to the user.
 *
 * <p>Threading: parts are counted down by whichever thread completes an answer's receive; the first error wins
 * (written before the count reaches zero, published by the volatile write in {@code complete()}).
 */
final class OpRequest extends RequestImpl {
    private final AtomicInteger parts;
    private final AtomicBoolean failed = new AtomicBoolean();
    /** Receives to withdraw when the operation fails before all its answers came (a get whose status says no). */
    private volatile RequestImpl dataReceive;

    OpRequest(Progress progress, int parts) {
        super(progress);
        this.parts = new AtomicInteger(parts);
    }

    /** Set when the error (if any) has already been raised to the user, so that a flush does not raise it again. */
    volatile boolean reported;

    void setDataReceive(RequestImpl r) {
        dataReceive = r;
    }

    /** One answer arrived; {@code errorClass} 0 when it reports success. */
    void partDone(int errorClass, String message) {
        if (errorClass != 0 && failed.compareAndSet(false, true)) {
            this.error = errorClass;
            this.errorMessage = message;
            RequestImpl d = dataReceive;
            if (d != null && !d.isDone()) {
                d.cancel(); // no data will come; the cancelled receive counts its own part down
            }
        }
        if (parts.decrementAndGet() == 0) {
            complete();
        }
    }

    /** Completes a request that needs no answer (an operation on MPI.PROC_NULL, NOCHECK lock). */
    static OpRequest done(Progress progress) {
        OpRequest r = new OpRequest(progress, 1);
        r.partDone(0, null);
        return r;
    }

    /** Runs {@code action} once when {@code r} completes (tolerating the second call {@code whenDone} may make). */
    static void onDone(RequestImpl r, Runnable action) {
        AtomicBoolean once = new AtomicBoolean();
        r.whenDone(() -> {
            if (once.compareAndSet(false, true)) {
                action.run();
            }
        });
    }
}
