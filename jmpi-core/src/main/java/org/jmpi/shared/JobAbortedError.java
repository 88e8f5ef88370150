package org.jmpi.shared;

/**
 * Thrown in a rank's thread when its job has been aborted (by {@code MPI.abort}, a fatal error on another rank, or
 * a timeout) while the thread waits inside MPI. It unwinds the rank; it is not meant to be caught by user code.
 */
public final class JobAbortedError extends Error {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    public JobAbortedError(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
