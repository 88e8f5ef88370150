package org.jmpi.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/** A blocking point-to-point call, or the wait that completed a non-blocking one (JFR event). */
@Name("org.jmpi.PointToPoint")
@Label("MPI Point-to-Point")
@Category({"MPI"})
@Threshold("20 us")
@Description("A blocking send, receive, send-receive or probe, or the wait that completed a request")
public final class PointToPointEvent extends jdk.jfr.Event {
    @Label("Call")
    public String call;
    @Label("Communicator")
    @Description("Its name and context id")
    public String communicator;
    @Label("Peer")
    @Description("Destination of a send, source of what was received (rank in the communicator; -1 unknown)")
    public int peer;
    @Label("Tag")
    public int tag;
    @Label("Bytes")
    @DataAmount
    public long bytes;
    @Label("Datatype")
    public String datatype;
}
