package org.jmpi.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;

/** Frames and bytes exchanged with one peer so far, and over which transport (periodic JFR event). */
@Name("org.jmpi.Traffic")
@Label("MPI Traffic per Peer")
@Category({"MPI"})
@Period("1 s")
@Description("Cumulative frames and bytes this rank sent to and received from a peer (processes mode; peers with"
        + " traffic only)")
public final class TrafficEvent extends jdk.jfr.Event {
    @Label("Peer")
    public int peer;
    @Label("Transport")
    public String transport;
    @Label("Frames Sent")
    public long framesSent;
    @Label("Bytes Sent")
    @DataAmount
    public long bytesSent;
    @Label("Frames Received")
    public long framesReceived;
    @Label("Bytes Received")
    @DataAmount
    public long bytesReceived;
    @Label("Bytes in Flight")
    @Description("Sent to the peer under flow control and not yet returned as credit")
    @DataAmount
    public long bytesInFlight;
    @Label("Frames Waiting for Credit")
    public long framesWaiting;
}
