package org.jmpi.junit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.opentest4j.TestAbortedException;

/**
 * Runs one invocation in {@link Mode#PROCESSES}: one JVM per rank running {@link RankMain}, output captured in a
 * {@link RankOutput}. On timeout every rank still alive gets {@code kill -3} (SIGQUIT: the JVM prints a thread dump
 * of every thread to its stdout, which is captured), then the job is killed.
 *
 * <p>Threading: called in JUnit's thread, which only waits; output arrives on the job's pump threads.
 */
final class ProcessesRunner {
    /** How long the other ranks may run after one rank failed before they count as hung. */
    static final long GRACE_AFTER_FAILURE_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How long to wait for thread dumps after {@code kill -3}, at most. */
    static final long DUMP_WAIT_NANOS = TimeUnit.SECONDS.toNanos(3);
    /** Dumps are taken as complete once no rank printed for this long. */
    static final long DUMP_QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(300);

    private ProcessesRunner() {}

    static Outcome run(RankTask task, int size, long timeoutNanos, List<String> extraJvmArgs)
            throws IOException, InterruptedException {
        if (task.init() && size > 1) {
            // Rank JVMs started without a PMI server would each come up as a singleton world.
            throw new TestAbortedException("processes mode with MPI.Init needs the programmatic launcher "
                    + "(org.jmpi.launcher.Launcher), which jmpi-junit does not use yet");
        }
        RankOutput output = new RankOutput(size);
        List<String> args = new ArrayList<>();
        args.add(Integer.toString(size));
        args.addAll(task.toArgs());
        RankJob job = new PlainRankJob(size, RankClassPath.forProcesses(), jvmArgs(extraJvmArgs),
                RankMain.class.getName(), args, output);
        long start = System.nanoTime();
        long failureSeen = -1;
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
                if (job.awaitExit(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)), TimeUnit.NANOSECONDS)) {
                    done = true;
                    break;
                }
                if (anyFailed(job.exitCodes())) {
                    if (failureSeen < 0) {
                        failureSeen = now;
                    } else if (now - failureSeen > GRACE_AFTER_FAILURE_NANOS) {
                        break;
                    }
                }
            }
        } catch (InterruptedException e) {
            job.kill();
            throw e;
        }
        Integer[] codes = job.exitCodes();
        List<Integer> running = new ArrayList<>();
        if (!done) {
            List<Long> pids = job.pids();
            long signalled = System.nanoTime();
            for (int r = 0; r < size; r++) {
                if (codes[r] == null) {
                    running.add(r);
                    requestThreadDump(pids.get(r));
                }
            }
            awaitDumps(output, running, signalled);
            job.kill();
        }
        return outcome(size, codes, running, output, timedOut, timeoutNanos);
    }

    private static boolean anyFailed(Integer[] codes) {
        for (Integer c : codes) {
            if (c != null && c != 0) {
                return true;
            }
        }
        return false;
    }

    private static Outcome outcome(int size, Integer[] codes, List<Integer> running, RankOutput output,
            boolean timedOut, long timeoutNanos) {
        SortedMap<Integer, String> reported = output.failures();
        SortedMap<Integer, String> assumptions = output.assumptions();
        SortedMap<Integer, RankFailure> failures = new TreeMap<>();
        for (Map.Entry<Integer, String> e : reported.entrySet()) {
            int r = e.getKey();
            failures.put(r, new RankFailure(r, "rank " + r + " of " + size + " failed:\n" + e.getValue(), null));
        }
        List<Integer> aborted = new ArrayList<>();
        boolean someoneReported = !reported.isEmpty() || !assumptions.isEmpty();
        for (int r = 0; r < size; r++) {
            Integer c = codes[r];
            if (c == null || c == 0 || reported.containsKey(r) || assumptions.containsKey(r)) {
                continue;
            }
            if (someoneReported) {
                aborted.add(r); // most likely ended because another rank failed first
            } else {
                failures.put(r, new RankFailure(r, "rank " + r + " of " + size + " failed:\n"
                        + "the rank's JVM exited with status " + c + " without reporting an exception", null));
            }
        }
        boolean passed = failures.isEmpty() && assumptions.isEmpty() && aborted.isEmpty() && running.isEmpty();
        return new Outcome(size, failures, assumptions, aborted, null, running, timedOut, timeoutNanos / 1e9, "",
                passed ? "" : output.text());
    }

    /** Sends SIGQUIT, which makes a JVM print every thread's stack to its stdout and go on running. */
    private static void requestThreadDump(long pid) {
        try {
            Process p = new ProcessBuilder("kill", "-3", Long.toString(pid)).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            p.waitFor(2, TimeUnit.SECONDS);
        } catch (IOException e) {
            // no kill command: the report just lacks the dump
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until the dumping ranks have been quiet for a moment (or a few seconds passed). */
    private static void awaitDumps(RankOutput output, List<Integer> ranks, long start) throws InterruptedException {
        if (ranks.isEmpty()) {
            return;
        }
        while (System.nanoTime() - start < DUMP_WAIT_NANOS) {
            Thread.sleep(50);
            long now = System.nanoTime();
            boolean quiet = now - start > DUMP_QUIET_NANOS;
            for (int r : ranks) {
                long last = output.lastLineNanos(r);
                if (last == 0 || last < start || now - last < DUMP_QUIET_NANOS) {
                    quiet = false;
                }
            }
            if (quiet) {
                return;
            }
        }
    }

    /** JVM options of a rank: the test JVM's {@code jmpi.*} properties, then the annotation's options. */
    static List<String> jvmArgs(List<String> extra) {
        List<String> out = new ArrayList<>();
        out.add("-XX:+UseSerialGC");
        out.add("-Xss2m");
        out.add("--enable-native-access=ALL-UNNAMED");
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("jmpi.") && !name.startsWith("jmpi.junit.")) {
                out.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        out.addAll(extra);
        return out;
    }
}
