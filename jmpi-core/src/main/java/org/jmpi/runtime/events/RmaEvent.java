package org.jmpi.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A one-sided synchronisation call: the start or end of an access or exposure epoch (JFR event). */
@Name("org.jmpi.RmaEpoch")
@Label("MPI RMA Epoch")
@Category({"MPI"})
@Description("Window synchronisation: fence, start, complete, post, wait, lock, unlock, flush")
public final class RmaEvent extends jdk.jfr.Event {
    @Label("Call")
    public String call;
    @Label("Window")
    public String window;
    @Label("Target")
    @Description("Target rank of lock, unlock and flush; -1 for the others")
    public int target;
}
