package org.jmpi.junit;

import java.util.Locale;

/** How {@link MpiTest} starts the ranks of one invocation. */
public enum Mode {
    /** Every rank is a thread of the test JVM with a class loader of its own ({@code mpi.MPI} statics per rank). */
    THREADS,
    /** Every rank is a JVM of its own, started through {@code org.jmpi.launcher.Launcher}. */
    PROCESSES;

    /** The lower-case name used in display names and in the {@code jmpi.junit.modes} property. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
