package org.jmpi.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;

/** How many messages wait in this rank's unexpected queue (periodic JFR event). */
@Name("org.jmpi.Queues")
@Label("MPI Queues")
@Category({"MPI"})
@Period("1 s")
@Description("Messages that arrived before their receive was posted and still wait for it")
public final class QueuesEvent extends jdk.jfr.Event {
    @Label("Unexpected Messages")
    public int unexpectedMessages;
}
