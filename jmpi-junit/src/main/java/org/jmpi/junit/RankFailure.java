package org.jmpi.junit;

/**
 * The failure of one rank, as attached (suppressed) to the error an {@link MpiTest} invocation fails with. Its
 * message starts with the rank number. In threads mode the cause is the exception the rank threw; in processes
 * mode there is no cause object (it lived in another JVM) and the message carries the stack trace that the rank
 * printed.
 */
public final class RankFailure extends RuntimeException {
    private final int rank;

    RankFailure(int rank, String message, Throwable cause) {
        super(message, cause, true, false);
        this.rank = rank;
    }

    /** The world rank that failed. */
    public int rank() {
        return rank;
    }
}
