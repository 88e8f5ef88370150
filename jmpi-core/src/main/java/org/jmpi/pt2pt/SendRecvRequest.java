package org.jmpi.pt2pt;

import java.util.concurrent.atomic.AtomicInteger;
import org.jmpi.runtime.Progress;
import org.jmpi.runtime.RequestImpl;

/**
 * MPI_Isendrecv and MPI_Isendrecv_replace (MPI 4.0): one request for a send and a receive started together. It
 * completes when both have; its status is the receive's (source, tag, count), its error the first of either.
 *
 * <p>Threading: each part's completion callback may run in any thread; the count of parts left is atomic, and the
 * last part to finish copies the status and completes this request.
 */
public final class SendRecvRequest extends RequestImpl {
    private final AtomicInteger pending = new AtomicInteger(1);
    private final RequestImpl recv;
    private volatile int firstError;
    private volatile String firstMessage;

    /**
     * @param send the send, or null (PROC_NULL, or done already through the lane)
     * @param recv the receive, or null (PROC_NULL: the status is then PROC_NULL's)
     */
    public SendRecvRequest(Progress progress, RequestImpl send, RequestImpl recv) {
        super(progress);
        this.recv = recv;
        if (recv == null) {
            source = -2; // MPI.PROC_NULL
            tag = -1; // MPI.ANY_TAG
            bytes = 0;
        }
        add(send);
        add(recv);
        partDone(null);
    }

    private void add(RequestImpl part) {
        if (part != null) {
            pending.incrementAndGet();
            part.whenDone(() -> partDone(part));
        }
    }

    private void partDone(RequestImpl part) {
        if (part != null && part.error() != 0 && firstError == 0) {
            firstMessage = part.errorMessage();
            firstError = part.error();
        }
        if (pending.decrementAndGet() == 0) {
            if (recv != null) {
                source = recv.source();
                tag = recv.tag();
                bytes = recv.bytes();
                cancelled = recv.cancelled();
            }
            error = firstError;
            errorMessage = firstMessage;
            complete();
        }
    }

    @Override
    public boolean cancel() {
        return false; // MPI 4.0: cancelling an isendrecv is not defined for its send half; nothing is cancelled
    }
}
