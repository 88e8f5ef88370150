package org.jmpi.bootstrap.pmi;

import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The bound on a rank's PMI finalize exchange: the longest a rank waits for the process manager's answer to
 * {@code finalize} before it gives up the connection and ends anyway.
 *
 * <p>The answer normally comes within milliseconds; the bound is the last resort for a server that is gone without
 * closing the connection, or silent, so that no rank waits in {@code MPI_Finalize} for ever. It is
 * {@code jmpi.pmi.finalize.timeout} seconds (system property, or {@code JMPI_PMI_FINALIZE_TIMEOUT}), default
 * {@value #DEFAULT_SECONDS}; 0 turns it off.
 *
 * <p>How: {@link #arm} starts a daemon thread that, when the time is up and {@link #disarm} has not been called,
 * {@link LineChannel#abandon() abandons} the channel. The read that waits for the answer then ends (end of stream or
 * an error) and the caller reports {@link #expiredMessage}.
 *
 * <p>Threading: {@code arm} and {@code disarm} are called by the thread making the request; the watchdog thread only
 * reads {@code disarmed} and sets {@code fired} under the object's monitor.
 */
final class FinalizeDeadline {
    static final String PROPERTY = "jmpi.pmi.finalize.timeout";
    static final long DEFAULT_SECONDS = 60;

    private final LineChannel channel;
    private final long nanos;
    private boolean disarmed;
    private boolean fired;

    private FinalizeDeadline(LineChannel channel, long nanos) {
        this.channel = channel;
        this.nanos = nanos;
    }

    /** The configured bound in nanoseconds (0: none). Malformed values fall back to the default. */
    static long configuredNanos() {
        String v = System.getProperty(PROPERTY);
        if (v == null || v.isBlank()) {
            v = System.getenv(PROPERTY.toUpperCase(Locale.ROOT).replace('.', '_'));
        }
        double seconds = DEFAULT_SECONDS;
        if (v != null && !v.isBlank()) {
            try {
                seconds = Double.parseDouble(v.trim());
            } catch (NumberFormatException e) {
                seconds = DEFAULT_SECONDS;
            }
        }
        if (!(seconds > 0)) {
            return 0;
        }
        return (long) Math.min(Long.MAX_VALUE / 2.0, seconds * 1e9);
    }

    /**
     * Runs {@code request} (a finalize exchange on {@code channel}) under the bound.
     *
     * @throws PmiException what the request threw, or {@link #expiredMessage} when the time ran out
     */
    static void run(LineChannel channel, long nanos, String via, Runnable request) {
        FinalizeDeadline d = arm(channel, nanos);
        try {
            request.run();
        } catch (PmiException e) {
            d.disarm();
            if (d.fired()) {
                throw new PmiException(d.expiredMessage(via), e);
            }
            throw e;
        } finally {
            d.disarm();
        }
    }

    /** Starts the watchdog over {@code channel} (none when {@code nanos} is 0). */
    static FinalizeDeadline arm(LineChannel channel, long nanos) {
        FinalizeDeadline d = new FinalizeDeadline(channel, nanos);
        if (nanos > 0) {
            Thread.ofPlatform().daemon().name("jmpi-pmi-finalize-deadline").start(d::watch);
        }
        return d;
    }

    private void watch() {
        long deadline = System.nanoTime() + nanos;
        synchronized (this) {
            long left;
            while (!disarmed && (left = deadline - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    return;
                }
            }
            if (disarmed) {
                return;
            }
            fired = true;
        }
        try {
            channel.abandon();
        } catch (IOException e) {
            // the connection is broken already: the waiting read ends either way
        }
    }

    /** The answer came (or the request failed on its own): the watchdog does nothing more. */
    synchronized void disarm() {
        disarmed = true;
        notifyAll();
    }

    /** Whether the time ran out and the channel was abandoned. */
    synchronized boolean fired() {
        return fired;
    }

    /** What a rank says when the server did not answer in time. */
    String expiredMessage(String via) {
        return String.format(Locale.ROOT, "the PMI server at %s did not answer cmd=finalize within %.0f s (%s); "
                + "this rank ends without the process manager's acknowledgement", via, nanos / 1e9, PROPERTY);
    }
}
