package org.jmpi.pt2pt;

import org.jmpi.datatype.MessageData;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.Progress;
import org.jmpi.runtime.RequestImpl;
import org.jmpi.shared.InprocMessage;

/**
 * A send in progress. Completes when the user's buffer may be reused (and, in synchronous mode, once matched).
 *
 * <p>Reuse: the engine recycles a send request once its owner has observed completion and the request is
 * {@link #settled()} (see {@link Engine#release}); {@link #start} re-arms it. The completion callbacks handed to
 * transports and in-JVM receivers ({@link #written}, {@link #consumed}) and the in-JVM message ({@link #message}) are
 * made once per object, so a recycled request sends without allocating.
 */
public final class SendRequest extends RequestImpl {
    MessageData data;
    int worldDest;
    final Engine engine;
    /** Set for sends handed to an in-JVM endpoint (threads mode or self), so cancel can withdraw them. */
    volatile InprocMessage inproc;
    long sendId;
    /**
     * The thread inside {@link Engine#isend} for this request, null once that call has returned. A completion in
     * that thread during the call ({@link #finish()}) comes before any other thread can know the request. Plain:
     * another thread reads null or a thread that is not its own, either way not itself.
     */
    Thread initiator;
    /**
     * Split single copy: parts still to finish (our write, the receiver's DONE); 0 when the send is not split.
     * Guarded by this request's monitor.
     */
    int splitParts;
    /** The in-JVM message of this request, reused by every activation (one message in flight at a time). */
    final InprocMessage message = new InprocMessage();
    /** Completion as a transport callback: the data has left the user's buffer. */
    final Runnable written = this::finish;
    /** Completion as an in-JVM receiver's callback. */
    final java.util.function.Consumer<Boolean> consumed = received -> {
        if (received) {
            finish();
        } else {
            fail(message.refusal, "the receiver refused the message: " + ErrorClass.name(message.refusal));
        }
    };
    /** Split single copy: one of the two parts is finished. */
    final Runnable splitPartWritten = () -> engine().splitPartDone(this);

    SendRequest(Engine engine, Progress progress) {
        super(progress);
        this.engine = engine;
    }

    /** Arms the request for a new send (a fresh or recycled object). */
    SendRequest start(MessageData data, int worldDest, int tag) {
        // a value already in place is not stored again (see RequestImpl.recycle)
        if (this.data != data) {
            this.data = data;
        }
        if (this.worldDest != worldDest) {
            this.worldDest = worldDest;
        }
        if (this.tag != tag) {
            this.tag = tag;
        }
        long b = data.bytes();
        if (this.bytes != b) {
            this.bytes = b;
        }
        return this;
    }

    /** Clears what one activation left behind, before the request goes back to the pool. */
    void clear() {
        recycle(false); // start() sets the tag and the byte count again
        data = null;
        if (inproc != null) {
            inproc = null; // a volatile store only where there is something to clear (threads mode, self)
        }
        if (sendId != 0) {
            sendId = 0;
        }
        if (splitParts != 0) {
            splitParts = 0;
        }
        InprocMessage m = message;
        if (m.data != null) {
            m.data = null;
        }
        if (m.layout != null) {
            m.layout = null;
        }
    }

    private Engine engine() {
        return engine;
    }

    void finish() {
        if (initiator == Thread.currentThread()) {
            completeUnseen(); // written at once: nobody can wait for this request yet
        } else {
            complete();
        }
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
