package org.jmpi.junit;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.jmpi.launcher.HostSpec;
import org.jmpi.launcher.LaunchResult;
import org.jmpi.launcher.Launcher;
import org.jmpi.launcher.hosts.Placement;

/**
 * Runs one invocation in {@link Mode#PROCESSES}: a {@link Launcher} job of one JVM per rank running
 * {@link RankMain}, with the launcher's PMI server for {@code MPI.Init}, output captured in a {@link RankOutput}.
 * The launcher ends the whole job as soon as one rank fails (exits non-zero, calls {@code MPI.Abort}, or exits
 * after {@code MPI.Init} without {@code MPI.Finalize}). On timeout every rank still alive gets {@code kill -3}
 * (SIGQUIT: the JVM prints a dump of every thread to its stdout, which is captured), then the job is killed.
 *
 * <p>Threading: called in JUnit's thread, which only waits; output arrives on the launcher's pump threads.
 */
final class ProcessesRunner {
    /** How long to wait for thread dumps after {@code kill -3}, at most. */
    static final long DUMP_WAIT_NANOS = TimeUnit.SECONDS.toNanos(3);
    /** Dumps are taken as complete once no signalled rank printed for this long. */
    static final long DUMP_QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(300);
    /** The launcher's own timeout, past ours: a backstop should this thread be stopped in between. */
    static final Duration LAUNCHER_BACKSTOP = Duration.ofSeconds(60);

    private ProcessesRunner() {}

    static Outcome run(RankTask task, int size, long timeoutNanos, List<String> extraJvmArgs, int hosts,
            boolean roundRobin) throws IOException, InterruptedException {
        RankOutput output = new RankOutput(size);
        List<String> args = new ArrayList<>();
        args.add(Integer.toString(size));
        args.addAll(task.toArgs());
        List<String> jvmArgs = jvmArgs(extraJvmArgs);
        RankClassCache.Use cache = RankClassCache.forRanks(jvmArgs);
        List<String> options = new ArrayList<>(jvmArgs);
        options.addAll(cache.options());
        Launcher.Builder builder = Launcher.builder();
        if (hosts > 1) {
            builder.hosts(emulatedHosts(hosts, size)).mapBy(roundRobin ? Placement.MapBy.NODE : Placement.MapBy.SLOT);
        }
        Launcher launcher = builder
                .ranks(size)
                .classpath(cache.classpath().stream().map(Path::of).toList())
                .mainClass(RankMain.class.getName())
                .args(args)
                .jvmArgs(options)
                .timeout(Duration.ofNanos(timeoutNanos).plus(LAUNCHER_BACKSTOP))
                .output(output::line)
                .build();
        try (Launcher.Job job = launcher.start()) {
            Optional<LaunchResult> result = job.await(Duration.ofNanos(timeoutNanos));
            if (result.isPresent()) {
                return outcome(size, result.get(), List.of(), output, false, timeoutNanos);
            }
            // Timed out: dump, then kill. Which ranks were still running is read from the pids.
            List<Integer> running = new ArrayList<>();
            List<Long> pids = job.pids();
            for (int r = 0; r < size; r++) {
                if (ProcessHandle.of(pids.get(r)).map(ProcessHandle::isAlive).orElse(false)) {
                    running.add(r);
                }
            }
            long signalled = System.nanoTime();
            job.dumpStacks();
            awaitDumps(output, running, signalled);
            job.kill();
            LaunchResult killed = job.await();
            return outcome(size, killed, running, output, true, timeoutNanos);
        }
    }

    private static Outcome outcome(int size, LaunchResult result, List<Integer> running, RankOutput output,
            boolean timedOut, long timeoutNanos) {
        SortedMap<Integer, String> reported = output.failures();
        SortedMap<Integer, String> assumptions = output.assumptions();
        SortedMap<Integer, RankFailure> failures = new TreeMap<>();
        for (Map.Entry<Integer, String> e : reported.entrySet()) {
            int r = e.getKey();
            failures.put(r, new RankFailure(r, "rank " + r + " of " + size + " failed:\n" + e.getValue(), null));
        }
        List<Integer> aborted = new ArrayList<>();
        String abortMessage = null;
        boolean someoneReported = !reported.isEmpty() || !assumptions.isEmpty();
        if (!timedOut && !result.succeeded()) {
            for (int r = 0; r < size; r++) {
                if (reported.containsKey(r) || assumptions.containsKey(r)) {
                    continue;
                }
                if (!someoneReported && r == result.failedRank() && !result.aborted()) {
                    // Ended the job without an exception: System.exit, a crash, or no MPI.Finalize.
                    failures.put(r, new RankFailure(r, "rank " + r + " of " + size + " failed:\n"
                            + launcherSummary(result), null));
                } else if (result.rankExitCode(r) != 0) {
                    aborted.add(r); // killed when the launcher tore the job down, or the MPI.Abort caller
                }
            }
            if (result.aborted() || (!someoneReported && failures.isEmpty())) {
                abortMessage = launcherSummary(result);
            }
        }
        boolean passed = !timedOut && result.succeeded() && failures.isEmpty() && assumptions.isEmpty();
        return new Outcome(size, failures, assumptions, aborted, abortMessage, running, timedOut,
                timeoutNanos / 1e9, "", passed ? "" : output.text());
    }

    /**
     * {@code hosts} names of this machine ({@code localhost}, then {@code 127.0.0.2}, {@code 127.0.0.3}, ...: the
     * launcher starts their ranks here but counts them as different hosts), with slots for {@code size} ranks.
     */
    static List<HostSpec> emulatedHosts(int hosts, int size) {
        List<HostSpec> list = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            int slots = Math.max(1, size / hosts + (h < size % hosts ? 1 : 0));
            list.add(HostSpec.of(h == 0 ? "localhost" : "127.0.0." + (h + 1), slots));
        }
        return list;
    }

    /** The launcher's one-line account of what ended the job, without its {@code jmpirun: } prefix. */
    private static String launcherSummary(LaunchResult result) {
        String s = result.summary();
        return s.startsWith("jmpirun: ") ? s.substring("jmpirun: ".length()) : s;
    }

    /** Waits until the signalled ranks have been quiet for a moment (or a few seconds passed). */
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

    /**
     * JVM options of a rank: serial GC (many JVMs share few cores), {@code -ea} when the test JVM has assertions
     * on, the test JVM's {@code jmpi.*} system properties, then the annotation's options.
     */
    static List<String> jvmArgs(List<String> extra) {
        List<String> out = new ArrayList<>();
        out.add("-XX:+UseSerialGC");
        out.add("-Xss2m");
        if (ProcessesRunner.class.desiredAssertionStatus()) {
            out.add("-ea");
        }
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("jmpi.") && !name.startsWith("jmpi.junit.")) {
                out.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        out.addAll(extra);
        return out;
    }
}
