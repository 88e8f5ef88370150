package org.jmpi.junit;

/**
 * What a rank knows about the {@link MpiTest} invocation it belongs to, without asking MPI: useful in bodies with
 * {@code init = false}. Declare a parameter of this type on the test method to get it.
 *
 * <p>The class is loaded by the test's own class loader, never by a rank's: the extension keeps jmpi-junit off
 * the rank class path, so the same class is seen by the JUnit side and by every rank.
 *
 * @param rank this rank's number in the job, {@code 0 <= rank < size}
 * @param size the number of ranks in the job
 * @param mode how the ranks were started
 */
public record MpiTestContext(int rank, int size, Mode mode) {
    public MpiTestContext {
        if (size < 1 || rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank " + rank + " of " + size);
        }
        if (mode == null) {
            throw new IllegalArgumentException("mode is null");
        }
    }
}
