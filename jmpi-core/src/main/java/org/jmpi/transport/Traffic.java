package org.jmpi.transport;

/**
 * Frames and bytes this rank sent to and received from each rank of its job (processes mode), for the periodic JFR
 * event {@code org.jmpi.Traffic}. Counted always (a few array increments per frame); read only when a recording asks.
 *
 * <p>Threading: plain fields, not atomic: with several threads sending or polling at once a count may miss an
 * increment now and then (diagnostics, not accounting). Peers outside the job (dynamic processes) are not counted.
 */
public final class Traffic {
    private final long[] framesOut;
    private final long[] bytesOut;
    private final long[] framesIn;
    private final long[] bytesIn;

    public Traffic(int ranks) {
        framesOut = new long[ranks];
        bytesOut = new long[ranks];
        framesIn = new long[ranks];
        bytesIn = new long[ranks];
    }

    public void sent(int peer, long bytes) {
        if (peer >= 0 && peer < framesOut.length) {
            framesOut[peer]++;
            bytesOut[peer] += bytes;
        }
    }

    public void received(int peer, long bytes) {
        if (peer >= 0 && peer < framesIn.length) {
            framesIn[peer]++;
            bytesIn[peer] += bytes;
        }
    }

    /** Ranks counted. */
    public int ranks() {
        return framesOut.length;
    }

    /** {frames sent, bytes sent, frames received, bytes received} to and from {@code peer}. */
    public long[] of(int peer) {
        return new long[] {framesOut[peer], bytesOut[peer], framesIn[peer], bytesIn[peer]};
    }
}
