package org.jmpi.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/** A blocking collective call (JFR event). */
@Name("org.jmpi.Collective")
@Label("MPI Collective")
@Category({"MPI"})
@Threshold("20 us")
@Description("A blocking collective, with the algorithm jmpi chose for it")
public final class CollectiveEvent extends jdk.jfr.Event {
    @Label("Call")
    public String call;
    @Label("Communicator")
    public String communicator;
    @Label("Ranks")
    public int size;
    @Label("Root")
    @Description("-1 for collectives without one")
    public int root;
    @Label("Bytes")
    @Description("This rank's data: what it sends, or receives where it sends nothing")
    @DataAmount
    public long bytes;
    @Label("Datatype")
    public String datatype;
    @Label("Algorithm")
    public String algorithm;
}
