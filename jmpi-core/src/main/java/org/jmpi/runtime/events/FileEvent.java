package org.jmpi.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** An MPI-IO data access (JFR event). */
@Name("org.jmpi.FileAccess")
@Label("MPI File Access")
@Category({"MPI"})
public final class FileEvent extends jdk.jfr.Event {
    @Label("Call")
    public String call;
    @Label("File")
    public String file;
    @Label("Offset")
    @jdk.jfr.Description("In etypes of the view; -1 for calls at the individual or shared file pointer")
    public long offset;
    @Label("Bytes")
    @DataAmount
    public long bytes;
}
