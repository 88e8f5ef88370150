package org.jmpi.rma;

import java.util.concurrent.TimeUnit;
import org.jmpi.runtime.Progress;

/**
 * The background progress thread of one rank, which exists only while the rank holds a window that may be the target
 * of a passive epoch (any window not created with the info hint {@code no_locks=true}) and the rank talks to other
 * processes over a transport. It blocks in the transports (selector, shared-memory doorbell) through
 * {@link Progress#serveInBackground} and never spins, so lock, put, flush and unlock requests from other ranks are
 * served while this rank computes without calling MPI. While a thread of this rank waits in MPI, that thread serves
 * them (spinning) and this one parks: it would otherwise hold the transport, and every message the waiting thread
 * waits for would have to wake this thread first. In threads mode no thread is needed: the origin's thread serves its
 * own requests at the target (see {@link Window}).
 *
 * <p>Threading: {@code users} and {@code thread} are guarded by the class monitor; {@code running} is volatile.
 * Static state: one instance per rank (per class loader in threads mode).
 */
final class PassiveProgress {
    private PassiveProgress() {}

    private static int users;
    private static Thread thread;
    private static volatile boolean running;
    private static Progress progress;

    private static boolean everStarted;

    /**
     * One more window may be a passive target. Returns true the first time this rank ever starts the thread (the
     * caller then registers {@link #shutdown} to run at MPI_Finalize).
     */
    static synchronized boolean acquire(Progress p, int rank) {
        if (users++ > 0) {
            return false;
        }
        progress = p;
        running = true;
        Thread t = new Thread(() -> serve(p), "jmpi-rma-progress-" + rank);
        t.setDaemon(true);
        thread = t;
        t.start();
        boolean first = !everStarted;
        everStarted = true;
        return first;
    }

    /** A window that could be a passive target is gone; the last one stops the thread. */
    static synchronized void release() {
        if (users == 0 || --users > 0) {
            return;
        }
        stop();
    }

    /** Stops the thread whatever the count (MPI_Finalize with windows not freed). */
    static synchronized void shutdown() {
        users = 0;
        stop();
    }

    private static void stop() {
        Thread t = thread;
        if (t == null) {
            return;
        }
        running = false;
        progress.wakeTransport();
        java.util.concurrent.locks.LockSupport.unpark(t);
        try {
            t.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread = null;
    }

    private static void serve(Progress p) {
        long block = TimeUnit.MILLISECONDS.toNanos(20);
        p.backgroundStarted();
        try {
            serveLoop(p, block);
        } finally {
            p.backgroundStopped();
        }
    }

    private static void serveLoop(Progress p, long block) {
        while (running) {
            try {
                p.serveInBackground(block);
            } catch (RuntimeException | Error e) {
                if (!running) {
                    return;
                }
                // a job abort or a failed peer: the waiting threads report it; keep serving the others
                java.util.concurrent.locks.LockSupport.parkNanos(block);
            }
        }
    }
}
