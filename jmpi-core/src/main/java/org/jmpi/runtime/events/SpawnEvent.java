package org.jmpi.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** MPI_Comm_spawn or MPI_Comm_spawn_multiple (JFR event). */
@Name("org.jmpi.Spawn")
@Label("MPI Spawn")
@Category({"MPI"})
public final class SpawnEvent extends jdk.jfr.Event {
    @Label("Command")
    public String command;
    @Label("Processes")
    public int processes;
}
