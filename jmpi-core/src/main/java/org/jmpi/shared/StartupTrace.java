package org.jmpi.shared;

/**
 * Start-up phases on standard error, for finding where a job's first second goes: with {@code JMPI_TRACE_STARTUP=1}
 * every rank (and jmpirun) prints one line per phase,
 * {@code jmpi-startup: <pid> <wall clock ms mod 100000> <CPU ms of this thread> <phase>}: the wall clock is the same
 * for every process of the host, so the lines of all ranks sort into one timeline; the CPU time (from
 * {@code /proc/thread-self/schedstat}, 0 where there is none) is the calling thread's. Off, a phase costs one read of
 * a static final field.
 *
 * <p>Threading: stateless; lines are printed whole.
 */
public final class StartupTrace {
    private static final boolean ON = System.getenv("JMPI_TRACE_STARTUP") != null
            && !"0".equals(System.getenv("JMPI_TRACE_STARTUP"));

    private StartupTrace() {}

    /** Prints the phase {@code what} when tracing is on. */
    public static void mark(String what) {
        if (ON) {
            print(what);
        }
    }

    private static void print(String what) {
        long wall = System.currentTimeMillis() % 100_000;
        double cpuMillis = 0; // no printf: its first use costs a rank milliseconds
        try {
            String s = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/thread-self/schedstat"));
            cpuMillis = Long.parseLong(s.substring(0, s.indexOf(' '))) / 1e6;
        } catch (java.io.IOException | RuntimeException e) {
            // not Linux: wall clock only
        }
        long tenths = Math.round(cpuMillis * 10);
        System.err.println("jmpi-startup: " + ProcessHandle.current().pid() + " " + wall + " " + tenths / 10 + "."
                + tenths % 10 + " " + what);
    }
}
