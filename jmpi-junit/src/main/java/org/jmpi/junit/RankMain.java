package org.jmpi.junit;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.opentest4j.TestAbortedException;

/**
 * The main class of a rank JVM in {@link Mode#PROCESSES}: runs one {@link RankTask} like a threads-mode rank does,
 * with the system class loader. Arguments: {@code <size> <testClass> <declaringClass> <method> <takesContext>
 * <init>}.
 *
 * <p>The rank number comes from MPI after {@code MPI.Init} ({@code COMM_WORLD.getRank()}), or, without init, from
 * the launcher's environment ({@code PMI_RANK}, else {@code PMI_ID}).
 *
 * <p>A rank that fails prints to stderr a line {@code MARKER + "rank <r> failed"} (or {@code "rank <r> assumption
 * failed"}), then its stack trace, then {@code MARKER + "end"}, and exits with status 1. A rank that passes exits
 * with status 0. Both through {@code System.exit}, so that stray non-daemon threads cannot keep the JVM alive and
 * shutdown hooks still run.
 */
public final class RankMain {
    /** Starts every line the parent parses. */
    public static final String MARKER = "@@jmpi-junit@@ ";

    private RankMain() {}

    public static void main(String[] args) {
        int size = Integer.parseInt(args[0]);
        RankTask task = RankTask.fromArgs(args, 1);
        int rank = envRank();
        int status = 0;
        try {
            RankInvoker.run(ClassLoader.getSystemClassLoader(), task, size, Mode.PROCESSES, rank);
        } catch (Throwable t) {
            status = 1;
            report(t, rank);
        }
        System.out.flush();
        System.err.flush();
        System.exit(status);
    }

    private static void report(Throwable t, int envRank) {
        int rank = envRank >= 0 ? envRank : RankInvoker.worldRank(ClassLoader.getSystemClassLoader());
        StringWriter sw = new StringWriter();
        t.printStackTrace(new PrintWriter(sw));
        String kind = t instanceof TestAbortedException ? " assumption failed" : " failed";
        PrintStream err = System.err;
        // One write, so the block is not interleaved with output of the rank's other threads.
        err.print(MARKER + "rank " + rank + kind + System.lineSeparator() + sw + MARKER + "end"
                + System.lineSeparator());
        err.flush();
    }

    /** The rank the launcher put in the environment, or -1. */
    static int envRank() {
        for (String key : new String[] {"PMI_RANK", "PMI_ID", "JMPI_RANK"}) {
            String v = System.getenv(key);
            if (v != null && !v.isBlank()) {
                try {
                    return Integer.parseInt(v.strip());
                } catch (NumberFormatException ignored) {
                    // try the next one
                }
            }
        }
        return -1;
    }
}
