package org.jmpi.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.Timespan;

/** How long this rank's threads have waited in MPI so far (periodic JFR event). */
@Name("org.jmpi.Waiting")
@Label("MPI Waiting")
@Category({"MPI"})
@Period("1 s")
@Description("Time this rank's threads spent waiting in MPI calls for other ranks (spinning, yielding or asleep), "
        + "summed since MPI_Init, and how many waits it took")
public final class WaitingEvent extends jdk.jfr.Event {
    @Label("Time Waiting")
    @Timespan(Timespan.NANOSECONDS)
    public long timeWaiting;

    @Label("Waits")
    public long waits;
}
