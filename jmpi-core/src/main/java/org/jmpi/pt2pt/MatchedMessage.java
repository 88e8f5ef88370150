package org.jmpi.pt2pt;

/**
 * A message taken off the unexpected queue by a matched probe (MPI_Mprobe): no other receive can match it any
 * more; exactly one {@link Engine#mrecv} receives it.
 */
public final class MatchedMessage {
    final Unexpected entry;
    private boolean received;

    MatchedMessage(Unexpected entry) {
        this.entry = entry;
    }

    public int source() {
        return entry.source;
    }

    public int tag() {
        return entry.tag;
    }

    public long bytes() {
        return entry.bytes;
    }

    /** Marks the message as received; returns false when it already was. */
    synchronized boolean take() {
        if (received) {
            return false;
        }
        received = true;
        return true;
    }
}
