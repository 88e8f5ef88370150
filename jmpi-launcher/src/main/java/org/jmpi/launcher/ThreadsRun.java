package org.jmpi.launcher;

import java.io.PrintStream;
import java.net.URL;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jmpi.shared.ThreadsJob;

/**
 * {@code jmpirun --threads}: runs the program's ranks as threads of this JVM and ends the job the way processes mode
 * does when a timeout passes or a signal comes (Ctrl-C: interrupted, exit 130; SIGTERM or SIGHUP: killed on request,
 * exit 143; timeout: exit 255), with the same one-line summary on standard error, e.g.
 * {@code jmpirun: the job did not finish within 3.0 s (timeout); killed the 2 ranks still running (teardown 0.0 s)}.
 * A second Ctrl-C halts the JVM at once.
 *
 * <p>Threading: the job runs in a thread of its own; signal handlers (the JDK's signal thread) and the timeout (the
 * caller's thread) only post an end request to it, and the first request wins.
 */
final class ThreadsRun {
    /** How long ranks get to end after the job is ended, before the result is returned regardless. */
    private static final long GRACE_MILLIS = 5000;

    private final PrintStream err;
    private final AtomicReference<ThreadsJob> job = new AtomicReference<>();
    private final AtomicReference<String> endReason = new AtomicReference<>();
    private final AtomicInteger endCode = new AtomicInteger();
    private final AtomicInteger interrupts = new AtomicInteger();
    private volatile int runningAtEnd;
    private volatile long endNanos;

    ThreadsRun(PrintStream err) {
        this.err = err;
    }

    int run(int n, URL[] urls, String mainClass, String[] args, boolean tagOutput, Duration timeout,
            boolean installSignals) throws InterruptedException {
        // the handlers before the first rank runs: a signal during start-up ends the job, not this JVM
        Runnable uninstallSignals = installSignals ? Signals.install(this::interrupt,
                () -> end(LaunchResult.KILLED_EXIT_CODE, "the job was killed on request")) : () -> {};
        CompletableFuture<Integer> result = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("jmpi-threads-job").start(() -> {
            try {
                result.complete(ThreadsJob.runMain(n, urls, mainClass, args, tagOutput, GRACE_MILLIS, j -> {
                    job.set(j);
                    if (endReason.get() != null) {
                        j.end(endCode.get(), endReason.get());
                    }
                }));
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        Runnable uninstallExit = watchExit();
        Runnable uninstall = () -> {
            uninstallExit.run();
            uninstallSignals.run();
        };
        try {
            int code;
            try {
                code = timeout == null ? result.get() : result.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                end(LaunchResult.TIMEOUT_EXIT_CODE, "the job did not finish within " + seconds(timeout.toNanos())
                        + " (timeout)");
                awaitEnd(result);
                code = endCode.get();
            }
            String reason = endReason.get();
            if (reason == null) {
                return code;
            }
            int still = runningAtEnd;
            err.println("jmpirun: " + reason + (still == 0 ? "" : "; killed " + (still == 1 ? "the 1 rank"
                    : "the " + still + " ranks") + " still running (teardown " + seconds(System.nanoTime()
                            - endNanos) + ")"));
            return endCode.get();
        } catch (ExecutionException e) {
            err.println("jmpirun: " + e.getCause());
            return 1;
        } finally {
            uninstall.run();
        }
    }

    /**
     * A rank calling {@code System.exit(status)} ends this JVM, and the job, with that status: as a rank's JVM that
     * exits does in processes mode, say which rank it was. The JDK logs every {@code Runtime.exit} to the logger
     * {@code java.lang.Runtime} at DEBUG level, in the exiting thread, when that level is enabled: a handler there
     * sees the rank (the thread's) and the status (in the logged Throwable, {@code "Runtime.exit(3)"}).
     *
     * @return what undoes it
     */
    private Runnable watchExit() {
        Logger logger = RUNTIME_LOGGER;
        Level level = logger.getLevel();
        boolean parents = logger.getUseParentHandlers();
        Handler h = new Handler() {
            @Override
            public void publish(LogRecord r) {
                int rank = ThreadsJob.currentRank();
                ThreadsJob j = job.get();
                Throwable t = r.getThrown();
                if (rank < 0 || j == null || endReason.get() != null || t == null || t.getMessage() == null) {
                    return;
                }
                Matcher m = EXIT_STATUS.matcher(t.getMessage());
                if (!m.matches() || m.group(1).equals("0")) {
                    return;
                }
                int still = j.ranksRunning() - 1;
                err.println("jmpirun: rank " + rank + " exited with code " + m.group(1) + (still <= 0 ? ""
                        : "; killed " + (still == 1 ? "the 1 rank" : "the " + still + " ranks") + " still running"));
                err.flush();
            }

            @Override
            public void flush() {
                err.flush();
            }

            @Override
            public void close() {
                // nothing held
            }
        };
        h.setLevel(Level.ALL);
        logger.addHandler(h);
        logger.setUseParentHandlers(false);
        logger.setLevel(Level.FINE);
        return () -> {
            logger.removeHandler(h);
            logger.setLevel(level);
            logger.setUseParentHandlers(parents);
        };
    }

    /** The JDK's logger of {@code Runtime.exit} calls (held: java.util.logging keeps loggers weakly). */
    private static final Logger RUNTIME_LOGGER = Logger.getLogger("java.lang.Runtime");
    private static final Pattern EXIT_STATUS = Pattern.compile("Runtime\\.exit\\((-?\\d+)\\)");

    private void interrupt() {
        if (interrupts.incrementAndGet() > 1) {
            err.println("jmpirun: interrupted twice; halting");
            Runtime.getRuntime().halt(LaunchResult.INTERRUPTED_EXIT_CODE);
        }
        end(LaunchResult.INTERRUPTED_EXIT_CODE, "interrupted");
    }

    /** Ends the job once; later requests are ignored. */
    private void end(int code, String reason) {
        if (!endReason.compareAndSet(null, reason)) {
            return;
        }
        endCode.set(code);
        endNanos = System.nanoTime();
        ThreadsJob j = job.get();
        runningAtEnd = j == null ? 0 : j.ranksRunning();
        if (j != null) {
            j.end(code, reason);
        }
    }

    private static void awaitEnd(CompletableFuture<Integer> result) throws InterruptedException {
        try {
            result.get(GRACE_MILLIS * 2, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // ranks that ignore the end are daemon threads: the caller exits anyway
        }
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }
}
