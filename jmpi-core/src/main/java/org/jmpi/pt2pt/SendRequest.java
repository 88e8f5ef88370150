package org.jmpi.pt2pt;

import org.jmpi.datatype.MessageData;
import org.jmpi.runtime.Progress;
import org.jmpi.runtime.RequestImpl;
import org.jmpi.shared.InprocMessage;

/** A send in progress. Completes when the user's buffer may be reused (and, in synchronous mode, once matched). */
public final class SendRequest extends RequestImpl {
    final MessageData data;
    final int worldDest;
    final Engine engine;
    /** Set for sends handed to an in-JVM endpoint (threads mode or self), so cancel can withdraw them. */
    volatile InprocMessage inproc;
    long sendId;
    /**
     * Split single copy: parts still to finish (our write, the receiver's DONE); 0 when the send is not split.
     * Guarded by this request's monitor.
     */
    int splitParts;

    SendRequest(Engine engine, Progress progress, MessageData data, int worldDest, int tag) {
        super(progress);
        this.engine = engine;
        this.data = data;
        this.worldDest = worldDest;
        this.tag = tag;
        this.bytes = data.bytes();
    }

    void finish() {
        complete();
    }

    void fail(int errorClass, String message) {
        this.error = errorClass;
        this.errorMessage = message;
        complete();
    }

    @Override
    public boolean cancel() {
        return engine.cancelSend(this);
    }

    void markCancelled() {
        this.cancelled = true;
        complete();
    }
}
