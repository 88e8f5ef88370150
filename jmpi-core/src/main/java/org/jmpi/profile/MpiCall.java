package org.jmpi.profile;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * One MPI call as a {@link MpiTool} sees it. The name is the Java method's, {@code Class.method} (for example
 * {@code Comm.send}, {@code Intracomm.allReduce}, {@code MPI.Init}); the arguments are the caller's, unchanged (a
 * buffer is the caller's array or buffer: read it, never keep or change it).
 *
 * <p>Threading: made and filled by the calling thread; a tool may keep it after {@link MpiTool#after}.
 */
public final class MpiCall {
    private final String name;
    private final Object target;
    private final Object[] arguments;
    private final int rank;
    private final long startNanos;
    private long endNanos;
    private Object result;
    private Throwable failure;

    MpiCall(String name, Object target, Object[] arguments, int rank, long startNanos) {
        this.name = name;
        this.target = target;
        this.arguments = arguments;
        this.rank = rank;
        this.startNanos = startNanos;
    }

    /** {@code Class.method}, e.g. {@code Comm.send}. */
    public String name() {
        return name;
    }

    /** The object the method was called on ({@code null} for static methods such as {@code MPI.Init}). */
    public Object target() {
        return target;
    }

    /** The arguments, primitives boxed. */
    public List<Object> arguments() {
        return Collections.unmodifiableList(Arrays.asList(arguments));
    }

    /** The calling rank in {@code MPI.COMM_WORLD}, or -1 outside {@code MPI_Init}/{@code MPI_Finalize}. */
    public int rank() {
        return rank;
    }

    /** {@link System#nanoTime()} when the call started. */
    public long startNanos() {
        return startNanos;
    }

    /** How long the call took (0 before it ended). */
    public long durationNanos() {
        return endNanos == 0 ? 0 : endNanos - startNanos;
    }

    /** The value returned ({@code null} for void methods, before the end, and after a failure). */
    public Object result() {
        return result;
    }

    /** The exception the call ended with (an {@code MPIException} most of the time), or {@code null}. */
    public Throwable failure() {
        return failure;
    }

    void end(long nanos, Object value, Throwable thrown) {
        endNanos = nanos;
        result = value;
        failure = thrown;
    }

    @Override
    public String toString() {
        return name + Arrays.deepToString(arguments) + (failure != null ? " threw " + failure
                : endNanos != 0 ? " -> " + result : "");
    }
}
