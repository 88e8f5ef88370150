package org.jmpi.junit;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The rank JVMs of one processes-mode invocation, as the runner sees them, whatever started them.
 *
 * <p>Threading: used by the JUnit thread only; output arrives on the launcher's threads through the
 * {@link RankOutput} given at start.
 */
interface RankJob {
    /** The process ids of the ranks, by rank (known once started). */
    List<Long> pids();

    /** Waits until every rank has exited or the time is up; returns whether all exited. */
    boolean awaitExit(long time, TimeUnit unit) throws InterruptedException;

    /** Exit status per rank; {@code null} where the rank has not exited. */
    Integer[] exitCodes();

    /** Kills every rank still running (forcibly) and waits briefly for their output to drain. */
    void kill();
}
