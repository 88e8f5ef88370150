package org.jmpi.runtime;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether the JIT compiler has been at work lately, so that waiting ranks on a host without a spare processor can
 * give it theirs.
 *
 * <p><b>Why.</b> On a host where the ranks take every processor (2 ranks on 2 cores here), a rank that spins while it
 * waits leaves the compiler threads no processor: C2 compiles late, and until it has, the hot paths run as profiled
 * C1 code, several times slower. A plain ping-pong of 200 + 200 round trips of 1 MiB took 440-520 us per message with
 * the default tiered compilation and 110-140 us with C1 alone (which compiles at once); jmpi needed hundreds of
 * thousands of calls to reach its speed. So while compilations keep finishing, a waiting rank yields its processor
 * between polls instead of spinning on it ({@link Progress}).
 *
 * <p><b>How.</b> {@link CompilationMXBean#getTotalCompilationTime()} grows when a compilation ends. The JIT counts as
 * busy while it grew within the last {@link #WINDOW_NANOS}. Loading the management classes costs about 12 ms, so the
 * bean is fetched by a daemon thread at the first question, and the JIT counts as busy until it is there (the first
 * milliseconds of a JVM are compilation time anyway). A JVM without the bean (no {@code java.management}) counts as
 * never busy. One question costs two clock reads (about 40 ns); {@link Progress} asks once every 64 polls.
 *
 * <p>Threading: any thread; the fields are racy hints (a stale value only shifts one decision).
 */
final class JitActivity {
    private JitActivity() {}

    /** How long after the last completed compilation the JIT still counts as busy. */
    static final long WINDOW_NANOS = 20_000_000L;

    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static volatile CompilationMXBean bean;
    private static volatile boolean unavailable;
    private static long lastTotal = -1;
    private static long lastChange;

    /** Whether a compilation ended within the last {@link #WINDOW_NANOS} (or the answer is not known yet). */
    static boolean busy() {
        CompilationMXBean b = bean;
        if (b == null) {
            if (unavailable) {
                return false;
            }
            if (STARTED.compareAndSet(false, true)) {
                Thread.ofPlatform().daemon().name("jmpi-jit-activity").start(JitActivity::fetch);
            }
            return true;
        }
        long now = System.nanoTime();
        long total = b.getTotalCompilationTime();
        if (total != lastTotal) {
            lastTotal = total;
            lastChange = now;
            return true;
        }
        return now - lastChange < WINDOW_NANOS;
    }

    private static void fetch() {
        try {
            CompilationMXBean b = ManagementFactory.getCompilationMXBean();
            if (b == null || !b.isCompilationTimeMonitoringSupported()) {
                unavailable = true;
            } else {
                lastChange = System.nanoTime();
                bean = b;
            }
        } catch (RuntimeException | LinkageError e) {
            unavailable = true;
        }
    }
}
