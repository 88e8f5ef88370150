package org.jmpi.junit;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.jmpi.shared.JobAbortedError;
import org.jmpi.shared.ThreadsJob;
import org.opentest4j.TestAbortedException;

/**
 * Runs one invocation in {@link Mode#THREADS}: a {@link ThreadsJob} whose rank bodies are {@link RankInvoker}
 * calls, each with the rank's own class loader.
 *
 * <p>Threading: called in JUnit's thread, which only waits on the job; rank state is read through the job's
 * synchronised accessors.
 */
final class ThreadsRunner {
    /** How long ranks may still run after the job was aborted (a rank failed) before they are reported as hung. */
    static final long GRACE_AFTER_ABORT_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How long interrupted ranks get to end after a timeout, before they are left behind. */
    static final long GRACE_AFTER_TIMEOUT_MILLIS = 2000;

    private ThreadsRunner() {}

    static Outcome run(RankTask task, int size, long timeoutNanos, ClassLoader parent) throws InterruptedException {
        ThreadsJob job = ThreadsJob.start(size, RankClassPath.forThreads(), parent,
                (rank, loader) -> RankInvoker.run(loader, task, size, Mode.THREADS, rank));
        long start = System.nanoTime();
        long abortSeen = -1;
        boolean done = false;
        boolean timedOut = false;
        try {
            while (true) {
                long now = System.nanoTime();
                long left = start + timeoutNanos - now;
                if (left <= 0) {
                    timedOut = true;
                    break;
                }
                if (job.awaitCompletion(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)), TimeUnit.NANOSECONDS)) {
                    done = true;
                    break;
                }
                if (job.aborted()) {
                    if (abortSeen < 0) {
                        abortSeen = now;
                    } else if (now - abortSeen > GRACE_AFTER_ABORT_NANOS) {
                        break;
                    }
                }
            }
        } catch (InterruptedException e) {
            stop(job, "the test thread was interrupted");
            throw e;
        }
        // Snapshot before stopping: what ranks do after the extension gave up on them is not their own failure.
        Throwable[] failures = job.failures();
        boolean[] alive = new boolean[size];
        Thread[] threads = job.threads();
        for (int r = 0; r < size; r++) {
            alive[r] = !done && threads[r].isAlive();
        }
        String abortMessage = job.aborted() ? job.abortMessage() : null;
        String dumps = "";
        if (!done) {
            dumps = dumpAlive(job);
            stop(job, timedOut ? "timed out after " + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos) + " s"
                    : "ranks still running after the abort");
            job.awaitCompletion(GRACE_AFTER_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        }
        return outcome(size, failures, alive, abortMessage, timedOut, timeoutNanos, dumps);
    }

    private static void stop(ThreadsJob job, String why) {
        job.abort(-1, 1, why);
        for (Thread t : job.threads()) {
            t.interrupt();
        }
    }

    private static Outcome outcome(int size, Throwable[] f, boolean[] alive, String jobAbortMessage,
            boolean timedOut, long timeoutNanos, String dumps) {
        SortedMap<Integer, RankFailure> failures = new TreeMap<>();
        SortedMap<Integer, String> assumptions = new TreeMap<>();
        List<Integer> aborted = new ArrayList<>();
        List<Integer> running = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            if (alive[r]) {
                running.add(r);
            } else if (f[r] instanceof TestAbortedException a) {
                assumptions.put(r, String.valueOf(a.getMessage()));
            } else if (isAbortEcho(f[r])) {
                aborted.add(r);
            } else if (f[r] != null) {
                failures.put(r, new RankFailure(r, "rank " + r + " of " + size + " failed", f[r]));
            }
        }
        // An abort with no failing rank was asked for by the body (MPI.Abort); one after a failure is its echo.
        String abortMessage = failures.isEmpty() && assumptions.isEmpty() ? jobAbortMessage : null;
        return new Outcome(size, failures, assumptions, aborted, abortMessage, running, timedOut, timeoutNanos / 1e9,
                dumps, "");
    }

    /**
     * Whether a rank's exception is the job's abort reaching it ({@link JobAbortedError}, possibly wrapped, for
     * example in an {@code MPIException} or in the extension's "MPI.Init failed") rather than a failure of its own.
     */
    static boolean isAbortEcho(Throwable t) {
        for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
            if (t instanceof JobAbortedError) {
                return true;
            }
        }
        return false;
    }

    /** Stacks of the rank threads still alive, one block per rank. */
    private static String dumpAlive(ThreadsJob job) {
        StringBuilder sb = new StringBuilder();
        Thread[] threads = job.threads();
        for (int r = 0; r < threads.length; r++) {
            Thread t = threads[r];
            if (!t.isAlive()) {
                continue;
            }
            sb.append("--- rank ").append(r).append(" (thread ").append(t.getName()).append(", ")
                    .append(t.getState()).append(")\n");
            for (StackTraceElement e : t.getStackTrace()) {
                sb.append("    at ").append(e).append('\n');
            }
        }
        return sb.toString();
    }
}
