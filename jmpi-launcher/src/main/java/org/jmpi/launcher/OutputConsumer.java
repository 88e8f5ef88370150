package org.jmpi.launcher;

import java.io.PrintStream;

/**
 * Receives every line a rank writes to its standard output or error, without the newline. Called from one reader
 * thread per rank and stream, so an implementation must be thread-safe; a slow consumer slows the rank down (its
 * pipe fills up).
 */
@FunctionalInterface
public interface OutputConsumer {
    /**
     * One line of output.
     *
     * @param rank the rank that wrote it
     * @param stderr true for standard error, false for standard output
     * @param line the line, without its line terminator
     */
    void line(int rank, boolean stderr, String line);

    /**
     * Prints each line to {@code out} or {@code err} (the rank's stream decides), prefixed with {@code [rank] }
     * when {@code tagOutput} is set. Lines are printed whole: lines of different ranks never interleave.
     */
    static OutputConsumer printing(PrintStream out, PrintStream err, boolean tagOutput) {
        return (rank, stderr, line) -> {
            PrintStream target = stderr ? err : out;
            String text = tagOutput ? "[" + rank + "] " + line : line;
            synchronized (target) {
                target.println(text);
            }
        };
    }

    /** Prints to {@link System#out} and {@link System#err} (looked up at each line), optionally tagged. */
    static OutputConsumer console(boolean tagOutput) {
        return (rank, stderr, line) -> {
            PrintStream target = stderr ? System.err : System.out;
            String text = tagOutput ? "[" + rank + "] " + line : line;
            synchronized (target) {
                target.println(text);
            }
        };
    }
}
