package org.jmpi.pt2pt;

import org.jmpi.runtime.CompositeRequest;
import org.jmpi.runtime.Progress;
import org.jmpi.runtime.RequestImpl;

/**
 * MPI_Isendrecv and MPI_Isendrecv_replace (MPI 4.0): one request for a send and a receive started together. It
 * completes when both have; its status is the receive's (source, tag, count), its error the first of either.
 *
 * <p>Threading: as {@link CompositeRequest}; the thread that finishes the last part copies the status.
 */
public final class SendRecvRequest extends CompositeRequest {
    private final RequestImpl recv;

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
        }
        add(send);
        add(recv);
        partDone(null);
    }

    @Override
    protected void completing() {
        if (recv != null) {
            source = recv.source();
            tag = recv.tag();
            bytes = recv.bytes();
            cancelled = recv.cancelled();
        }
    }
}
