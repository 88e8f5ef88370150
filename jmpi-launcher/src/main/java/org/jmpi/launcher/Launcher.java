package org.jmpi.launcher;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.security.CodeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jmpi.bootstrap.Bootstrap;
import org.jmpi.launcher.pmi.PmiServer;

/**
 * Starts a job of N JVMs on this host, one per rank, each running a main class, with a PMI-1 server on loopback
 * through which the ranks find each other. This is what {@code jmpirun} does in processes mode; tests and the
 * JUnit extension use it directly.
 *
 * <pre>{@code
 * LaunchResult r = Launcher.builder()
 *         .ranks(3)
 *         .classpath(Path.of("target/classes"))    // jmpi-core is added automatically
 *         .mainClass("org.example.Ring")
 *         .args("10")
 *         .timeout(Duration.ofSeconds(30))
 *         .output((rank, stderr, line) -> log.add(rank + ": " + line))
 *         .build()
 *         .run();
 * assert r.exitCode() == 0 : r.summary();
 * }</pre>
 *
 * <p>Each rank runs {@code <java.home>/bin/java --enable-native-access=ALL-UNNAMED <jvmArgs> -cp <classpath>
 * <mainClass> <args>} in the working directory, with this process's environment (less any {@code PMI_*},
 * {@code PMIX_*} and {@code JMPI_KVS} it inherited), plus the builder's extra variables, plus {@code PMI_PORT},
 * {@code PMI_ID}, {@code PMI_RANK}, {@code PMI_SIZE}, {@code JMPI_RANK}, {@code JMPI_SIZE}, {@code JMPI_JOBID},
 * {@code JMPI_LOCAL_RANK}, {@code JMPI_LOCAL_SIZE}, {@code JMPI_NODE_ID}, {@code MPI_LOCALRANKID} and
 * {@code MPI_LOCALNRANKS}.
 *
 * <p>Failure policy (as Open MPI and single-host Hydra): when a rank exits non-zero or by a signal, exits 0 after PMI
 * {@code init} without {@code finalize}, sends {@code abort}, or breaks the PMI protocol, or the timeout passes,
 * every rank still running (and every process it started) gets SIGTERM, then SIGKILL after the termination grace
 * (2 s by default), so all are gone within a few seconds. {@link LaunchResult} says which rank and code ended the
 * job. A JVM shutdown hook kills the ranks if this JVM ends first.
 *
 * <p>Instances are immutable; {@link #start()} may be called more than once, each call starting a separate job.
 */
public final class Launcher {
    private static final AtomicInteger JOB_COUNTER = new AtomicInteger();

    private final int ranks;
    private final List<Path> classpath;
    private final boolean addJmpiClassPath;
    private final String mainClass;
    private final List<String> args;
    private final List<String> jvmArgs;
    private final Map<String, String> env;
    private final Duration timeout;
    private final boolean tagOutput;
    private final OutputConsumer output;
    private final Path workingDirectory;
    private final Path javaExecutable;
    private final boolean stdinToRank0;
    private final Duration terminationGrace;
    private final boolean dumpStacksOnTimeout;

    private Launcher(Builder b) {
        this.ranks = b.ranks;
        this.classpath = List.copyOf(b.classpath);
        this.addJmpiClassPath = b.addJmpiClassPath;
        this.mainClass = Objects.requireNonNull(b.mainClass, "mainClass");
        this.args = List.copyOf(b.args);
        this.jvmArgs = List.copyOf(b.jvmArgs);
        this.env = Map.copyOf(b.env);
        this.timeout = b.timeout;
        this.tagOutput = b.tagOutput;
        this.output = b.output != null ? b.output : OutputConsumer.console(b.tagOutput);
        this.workingDirectory = b.workingDirectory;
        this.javaExecutable = b.javaExecutable != null ? b.javaExecutable
                : Path.of(System.getProperty("java.home"), "bin", "java");
        this.stdinToRank0 = b.stdinToRank0;
        this.terminationGrace = b.terminationGrace;
        this.dumpStacksOnTimeout = b.dumpStacksOnTimeout;
    }

    /** A builder with defaults: 1 rank, no timeout, untagged output to System.out/err. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The class path entries a rank needs besides the user's classes: where jmpi-core was loaded from (its jar, or
     * its classes directory in a development build). This is what {@code jmpirun --classpath} prints.
     */
    public static List<Path> jmpiClassPath() {
        CodeSource cs = Bootstrap.class.getProtectionDomain().getCodeSource();
        if (cs == null || cs.getLocation() == null) {
            throw new IllegalStateException("cannot tell where jmpi-core was loaded from");
        }
        try {
            return List.of(Path.of(cs.getLocation().toURI()));
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot tell where jmpi-core was loaded from: " + cs.getLocation(), e);
        }
    }

    /** The full class path of a rank: the builder's entries, then {@link #jmpiClassPath()} unless excluded. */
    public List<Path> rankClassPath() {
        List<Path> all = new ArrayList<>(classpath);
        if (addJmpiClassPath) {
            for (Path p : jmpiClassPath()) {
                if (!all.contains(p)) {
                    all.add(p);
                }
            }
        }
        return all;
    }

    /** The command line of a rank's JVM. */
    public List<String> rankCommand() {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaExecutable.toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(String.join(File.pathSeparator, rankClassPath().stream().map(Path::toString).toList()));
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    /** Starts the job and waits for it to end; the result carries the exit code and what went wrong. */
    public LaunchResult run() throws IOException, InterruptedException {
        try (Job job = start()) {
            return job.await();
        }
    }

    /** Starts the job and returns at once; the caller must {@link Job#await()} or {@link Job#close()} it. */
    public Job start() throws IOException {
        return new Job(this);
    }

    /** Settings of a {@link Launcher}. Not thread-safe. */
    public static final class Builder {
        private int ranks = 1;
        private final List<Path> classpath = new ArrayList<>();
        private boolean addJmpiClassPath = true;
        private String mainClass;
        private final List<String> args = new ArrayList<>();
        private final List<String> jvmArgs = new ArrayList<>();
        private final Map<String, String> env = new LinkedHashMap<>();
        private Duration timeout;
        private boolean tagOutput;
        private OutputConsumer output;
        private Path workingDirectory;
        private Path javaExecutable;
        private boolean stdinToRank0;
        private Duration terminationGrace = Duration.ofSeconds(2);
        private boolean dumpStacksOnTimeout;

        private Builder() {
        }

        /** Number of ranks (processes), at least 1. */
        public Builder ranks(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("a job needs at least one rank, not " + n);
            }
            this.ranks = n;
            return this;
        }

        /** Adds class path entries (directories or jars) for the ranks, before jmpi-core. */
        public Builder classpath(Path... entries) {
            classpath.addAll(Arrays.asList(entries));
            return this;
        }

        /** Adds class path entries (directories or jars) for the ranks, before jmpi-core. */
        public Builder classpath(List<Path> entries) {
            classpath.addAll(entries);
            return this;
        }

        /** Adds the entries of a class path string ({@code a.jar:dir}, split on the platform separator). */
        public Builder classpath(String pathList) {
            for (String s : pathList.split(File.pathSeparator)) {
                if (!s.isBlank()) {
                    classpath.add(Path.of(s));
                }
            }
            return this;
        }

        /** Whether to append jmpi-core's location to the class path (default true). */
        public Builder addJmpiClassPath(boolean add) {
            this.addJmpiClassPath = add;
            return this;
        }

        /** The class whose {@code main} every rank runs. Required. */
        public Builder mainClass(String className) {
            this.mainClass = className;
            return this;
        }

        /** Appends program arguments. */
        public Builder args(String... a) {
            args.addAll(Arrays.asList(a));
            return this;
        }

        /** Appends program arguments. */
        public Builder args(List<String> a) {
            args.addAll(a);
            return this;
        }

        /** Appends JVM options for every rank (e.g. {@code -Xmx256m}, {@code -Djmpi.x=y}). */
        public Builder jvmArgs(String... a) {
            jvmArgs.addAll(Arrays.asList(a));
            return this;
        }

        /** Appends JVM options for every rank. */
        public Builder jvmArgs(List<String> a) {
            jvmArgs.addAll(a);
            return this;
        }

        /** Sets an environment variable in every rank. */
        public Builder env(String name, String value) {
            env.put(name, value);
            return this;
        }

        /** Sets environment variables in every rank. */
        public Builder env(Map<String, String> vars) {
            env.putAll(vars);
            return this;
        }

        /** Kill the job when it runs longer than this (exit code 255). Null or zero: no timeout (the default). */
        public Builder timeout(Duration t) {
            this.timeout = t == null || t.isZero() || t.isNegative() ? null : t;
            return this;
        }

        /** Prefix each line with {@code [rank] } in the default output consumer (ignored by a custom one). */
        public Builder tagOutput(boolean tag) {
            this.tagOutput = tag;
            return this;
        }

        /** Where rank output goes; default {@link OutputConsumer#console(boolean)} with the tagOutput setting. */
        public Builder output(OutputConsumer consumer) {
            this.output = consumer;
            return this;
        }

        /** Working directory of the ranks; default this process's. */
        public Builder workingDirectory(Path dir) {
            this.workingDirectory = dir;
            return this;
        }

        /** The {@code java} executable; default {@code <java.home>/bin/java} of this JVM. */
        public Builder javaExecutable(Path java) {
            this.javaExecutable = java;
            return this;
        }

        /** Give rank 0 this process's standard input (as mpirun does); default false: every rank reads EOF. */
        public Builder stdinToRank0(boolean inherit) {
            this.stdinToRank0 = inherit;
            return this;
        }

        /** Time between SIGTERM and SIGKILL when tearing a job down; default 2 s. */
        public Builder terminationGrace(Duration grace) {
            this.terminationGrace = Objects.requireNonNull(grace);
            return this;
        }

        /**
         * On timeout, first send SIGQUIT to every rank so each JVM prints a thread dump (through the output
         * consumer), and tear down one second later. Default false.
         */
        public Builder dumpStacksOnTimeout(boolean dump) {
            this.dumpStacksOnTimeout = dump;
            return this;
        }

        public Launcher build() {
            return new Launcher(this);
        }
    }

    /**
     * A running job. {@link #await()} returns its {@link LaunchResult}; {@link #kill()} ends it early;
     * {@link #pids()} and {@link #dumpStacks()} help to find out why a job hangs.
     *
     * <p>Threading: a monitor thread owns the rank processes' fate: it takes events (a rank exited, a rank
     * aborted, a protocol error, a kill request) from a queue and alone decides on and performs the teardown. Reader
     * threads pump output; the PMI server's threads post events. Public methods are safe from any thread.
     */
    public static final class Job implements AutoCloseable {
        private sealed interface Event permits Exited, Aborted, ProtocolError, KillRequested {}

        private record Exited(int rank, int code) implements Event {}

        private record Aborted(int rank, int code, String message) implements Event {}

        private record ProtocolError(int rank, String message) implements Event {}

        private record KillRequested() implements Event {}

        private final Launcher config;
        private final int size;
        private final String jobId;
        private final PmiServer server;
        private final Process[] processes;
        private final List<Thread> pumps = new ArrayList<>();
        private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        private final AtomicReference<Aborted> firstAbort = new AtomicReference<>();
        private final CompletableFuture<LaunchResult> result = new CompletableFuture<>();
        private final Thread shutdownHook;
        private final long startNanos = System.nanoTime();
        private final List<ProcessHandle> descendants = new ArrayList<>();

        private Job(Launcher config) throws IOException {
            this.config = config;
            this.size = config.ranks;
            this.jobId = "jmpi_" + ProcessHandle.current().pid() + "_" + JOB_COUNTER.incrementAndGet();
            this.processes = new Process[size];
            this.server = new PmiServer(size, jobId, new PmiServer.Listener() {
                @Override
                public void aborted(int rank, int exitCode, String message) {
                    Aborted a = new Aborted(rank, exitCode, message);
                    firstAbort.compareAndSet(null, a);
                    events.add(a);
                }

                @Override
                public void protocolError(int rank, String message) {
                    events.add(new ProtocolError(rank, message));
                }
            });
            this.shutdownHook = new Thread(this::emergencyKill, "jmpi-job-killer-" + jobId);
            Runtime.getRuntime().addShutdownHook(shutdownHook);
            try {
                server.start();
                for (int r = 0; r < size; r++) {
                    processes[r] = startRank(r);
                }
            } catch (IOException | RuntimeException e) {
                emergencyKill();
                server.close();
                removeShutdownHook();
                throw e;
            }
            for (int r = 0; r < size; r++) {
                final int rank = r;
                processes[r].onExit().thenAccept(p -> events.add(new Exited(rank, p.exitValue())));
            }
            Thread.ofPlatform().daemon().name("jmpi-job-monitor-" + jobId).start(this::monitor);
        }

        private Process startRank(int rank) throws IOException {
            ProcessBuilder pb = new ProcessBuilder(config.rankCommand());
            if (config.workingDirectory != null) {
                pb.directory(config.workingDirectory.toFile());
            }
            Map<String, String> e = pb.environment();
            e.keySet().removeIf(k -> k.startsWith("PMI_") || k.startsWith("PMIX_") || k.equals("JMPI_KVS"));
            e.putAll(config.env);
            String r = Integer.toString(rank);
            String n = Integer.toString(size);
            e.put("PMI_PORT", server.address());
            e.put("PMI_ID", r);
            e.put("PMI_RANK", r);
            e.put("PMI_SIZE", n);
            e.put("JMPI_RANK", r);
            e.put("JMPI_SIZE", n);
            e.put("JMPI_JOBID", jobId);
            e.put("JMPI_LOCAL_RANK", r);
            e.put("JMPI_LOCAL_SIZE", n);
            e.put("JMPI_NODE_ID", "0");
            e.put("MPI_LOCALRANKID", r);
            e.put("MPI_LOCALNRANKS", n);
            if (rank == 0 && config.stdinToRank0) {
                pb.redirectInput(ProcessBuilder.Redirect.INHERIT);
            }
            Process p = pb.start();
            if (!(rank == 0 && config.stdinToRank0)) {
                p.getOutputStream().close();
            }
            pumps.add(pump(rank, false, p.getInputStream()));
            pumps.add(pump(rank, true, p.getErrorStream()));
            return p;
        }

        private Thread pump(int rank, boolean stderr, InputStream in) {
            return Thread.ofPlatform().daemon().name("jmpi-out-" + rank + (stderr ? "-err" : "-out")).start(() -> {
                try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, Charset.defaultCharset()))) {
                    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                        try {
                            config.output.line(rank, stderr, line);
                        } catch (RuntimeException e) {
                            // a failing consumer must not block the rank: keep draining
                        }
                    }
                } catch (IOException e) {
                    // the stream ended abruptly: the rank died
                }
            });
        }

        /** Number of ranks. */
        public int size() {
            return size;
        }

        /** The job id (also the PMI KVS name and the ranks' {@code JMPI_JOBID}). */
        public String jobId() {
            return jobId;
        }

        /** The PMI server's {@code host:port} (the ranks' {@code PMI_PORT}). */
        public String pmiAddress() {
            return server.address();
        }

        /** The process id of each rank's JVM, by rank. */
        public List<Long> pids() {
            return Arrays.stream(processes).map(Process::pid).toList();
        }

        /** Whether the job has ended (every rank process has exited). */
        public boolean isDone() {
            return result.isDone();
        }

        /** Waits until the job ends (bounded by the builder's timeout, if any) and returns how it ended. */
        public LaunchResult await() throws InterruptedException {
            try {
                return result.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("the job monitor failed", e.getCause());
            }
        }

        /** Waits at most {@code timeout}; empty if the job is still running then. */
        public Optional<LaunchResult> await(Duration timeout) throws InterruptedException {
            try {
                return Optional.of(result.get(timeout.toNanos(), TimeUnit.NANOSECONDS));
            } catch (TimeoutException e) {
                return Optional.empty();
            } catch (ExecutionException e) {
                throw new IllegalStateException("the job monitor failed", e.getCause());
            }
        }

        /**
         * Ends the job now: SIGTERM to every rank and its descendants, SIGKILL after the termination grace. Returns
         * at once; {@link #await()} gives the result (exit code 143 unless the job had already failed).
         */
        public void kill() {
            events.add(new KillRequested());
        }

        /**
         * Sends SIGQUIT ({@code kill -QUIT pid}) to every rank still running: each JVM prints a thread dump to its
         * standard output, which reaches the output consumer. The dump is asynchronous; Unix only.
         *
         * @return the number of ranks signalled
         */
        public int dumpStacks() {
            int n = 0;
            for (Process p : processes) {
                if (p.isAlive()) {
                    try {
                        Process k = new ProcessBuilder("kill", "-QUIT", Long.toString(p.pid()))
                                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                        if (k.waitFor(5, TimeUnit.SECONDS) && k.exitValue() == 0) {
                            n++;
                        }
                    } catch (IOException e) {
                        // no kill command: nothing to dump
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return n;
                    }
                }
            }
            return n;
        }

        /** Kills the job if it is still running and waits until it has ended. */
        @Override
        public void close() throws InterruptedException {
            if (!result.isDone()) {
                kill();
            }
            await();
        }

        // ---- the monitor ----

        private void monitor() {
            LaunchResult r;
            try {
                r = supervise();
            } catch (Throwable t) {
                emergencyKill();
                server.close();
                result.completeExceptionally(t);
                removeShutdownHook();
                return;
            }
            removeShutdownHook();
            result.complete(r);
        }

        private LaunchResult supervise() throws InterruptedException {
            final long never = Long.MAX_VALUE;
            long deadline = config.timeout == null ? never : startNanos + config.timeout.toNanos();
            long teardownAt = never; // when a pending teardown (after a stack dump) starts
            long killAt = never; // when SIGKILL follows SIGTERM
            int[] codes = new int[size];
            int alive = size;
            boolean tearingDown = false;
            long teardownStart = 0;
            int runningAtTeardown = 0;
            boolean timedOut = false;
            boolean killedByCaller = false;
            int failedRank = -1;
            int failedCode = 0;
            String failure = null;
            Aborted abort = null;

            while (alive > 0) {
                long wake = Math.min(Math.min(deadline, teardownAt), killAt);
                Event ev = wake == never ? events.take()
                        : events.poll(Math.max(0, wake - System.nanoTime()), TimeUnit.NANOSECONDS);
                long now = System.nanoTime();
                if (ev == null) {
                    if (!tearingDown && !timedOut && now >= deadline) {
                        timedOut = true;
                        deadline = never;
                        if (config.dumpStacksOnTimeout) {
                            dumpStacks();
                            teardownAt = now + TimeUnit.SECONDS.toNanos(1);
                            continue;
                        }
                        teardownAt = now;
                    }
                    if (!tearingDown && now >= teardownAt) {
                        teardownAt = never;
                        tearingDown = true;
                        teardownStart = now;
                        runningAtTeardown = alive;
                        terminateAll();
                        killAt = now + config.terminationGrace.toNanos();
                    } else if (tearingDown && now >= killAt) {
                        killAt = never;
                        forceKillAll();
                    }
                    continue;
                }
                boolean failNow = false;
                switch (ev) {
                    case Exited e -> {
                        alive--;
                        codes[e.rank()] = e.code();
                        if (!tearingDown && !timedOut) {
                            // Let the server read whatever the rank sent before it died (an abort, say).
                            server.awaitDisconnected(e.rank(), Duration.ofSeconds(2));
                            Aborted a = firstAbort.get();
                            if (a != null) {
                                abort = a;
                                failNow = true;
                            } else if (e.code() != 0) {
                                failedRank = e.rank();
                                failedCode = e.code();
                                failure = "exited with code " + e.code() + signalNote(e.code());
                                failNow = true;
                            } else if (server.initialized(e.rank()) && !server.finalized(e.rank())) {
                                failedRank = e.rank();
                                failedCode = 1;
                                failure = "exited with code 0 without finalizing (no MPI.Finalize, or it "
                                        + "exited during it)";
                                failNow = true;
                            }
                        }
                    }
                    case Aborted a -> {
                        if (!tearingDown && !timedOut && abort == null) {
                            abort = firstAbort.get() != null ? firstAbort.get() : a;
                            failNow = true;
                        }
                    }
                    case ProtocolError p -> {
                        if (!tearingDown && !timedOut && failure == null && abort == null) {
                            failedRank = p.rank();
                            failedCode = 1;
                            failure = "broke the PMI protocol: " + p.message();
                            failNow = true;
                        }
                    }
                    case KillRequested k -> {
                        if (!tearingDown && !timedOut && failure == null && abort == null) {
                            killedByCaller = true;
                            failNow = true;
                        }
                    }
                }
                if (failNow && !tearingDown && alive > 0) {
                    tearingDown = true;
                    teardownAt = never;
                    teardownStart = System.nanoTime();
                    runningAtTeardown = alive;
                    terminateAll();
                    killAt = teardownStart + config.terminationGrace.toNanos();
                }
            }
            long end = System.nanoTime();
            if (tearingDown) {
                forceKillDescendants();
            }
            server.close();
            for (Thread t : pumps) {
                t.join(2000);
            }

            int exitCode;
            int culprit = -1;
            String summary;
            String tail = tearingDown
                    ? "; killed " + (runningAtTeardown == 1 ? "the 1 rank" : "the " + runningAtTeardown + " ranks")
                            + " still running (teardown " + seconds(end - teardownStart) + ")"
                    : "";
            if (timedOut) {
                exitCode = LaunchResult.TIMEOUT_EXIT_CODE;
                summary = "jmpirun: the job did not finish within " + seconds(config.timeout.toNanos())
                        + " (timeout)" + tail;
            } else if (abort != null) {
                exitCode = abort.code();
                culprit = abort.rank();
                summary = "jmpirun: rank " + abort.rank() + pid(abort.rank()) + " called abort with exit code "
                        + abort.code() + (abort.message().isEmpty() ? "" : ": " + abort.message()) + tail;
            } else if (failure != null) {
                exitCode = failedCode;
                culprit = failedRank;
                summary = "jmpirun: rank " + failedRank + pid(failedRank) + " " + failure + tail;
            } else if (killedByCaller) {
                exitCode = LaunchResult.KILLED_EXIT_CODE;
                summary = "jmpirun: the job was killed on request" + tail;
            } else {
                exitCode = 0;
                summary = "";
            }
            List<Integer> rankCodes = Arrays.stream(codes).boxed().toList();
            return new LaunchResult(exitCode, rankCodes, timedOut, abort != null, culprit, summary,
                    Duration.ofNanos(end - startNanos),
                    tearingDown ? Duration.ofNanos(end - teardownStart) : Duration.ZERO);
        }

        private String pid(int rank) {
            return rank >= 0 && rank < size ? " (pid " + processes[rank].pid() + ")" : "";
        }

        private static String signalNote(int code) {
            return code > 128 && code < 128 + 65 ? " (killed by signal " + (code - 128) + ")" : "";
        }

        private static String seconds(long nanos) {
            return String.format(java.util.Locale.ROOT, "%.1f s", nanos / 1e9);
        }

        /** SIGTERM to every live rank and every process it started (collected first: they reparent on death). */
        private void terminateAll() {
            for (Process p : processes) {
                if (p != null && p.isAlive()) {
                    p.descendants().forEach(descendants::add);
                }
            }
            for (ProcessHandle d : descendants) {
                d.destroy();
            }
            for (Process p : processes) {
                if (p != null) {
                    p.destroy();
                }
            }
        }

        /** SIGKILL to whatever is still alive. */
        private void forceKillAll() {
            for (Process p : processes) {
                if (p != null && p.isAlive()) {
                    p.descendants().forEach(descendants::add);
                }
            }
            forceKillDescendants();
            for (Process p : processes) {
                if (p != null) {
                    p.destroyForcibly();
                }
            }
        }

        private void forceKillDescendants() {
            for (ProcessHandle d : descendants) {
                if (d.isAlive()) {
                    d.destroyForcibly();
                }
            }
        }

        /** Used by the shutdown hook and on start-up failure: SIGTERM, a short wait, SIGKILL. */
        private void emergencyKill() {
            List<ProcessHandle> all = new ArrayList<>();
            for (Process p : processes) {
                if (p != null && p.isAlive()) {
                    all.addAll(p.descendants().toList());
                    all.add(p.toHandle());
                }
            }
            all.forEach(ProcessHandle::destroy);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            for (ProcessHandle h : all) {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    try {
                        h.onExit().get(left, TimeUnit.NANOSECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    } catch (ExecutionException | TimeoutException e) {
                        // SIGKILL below
                    }
                }
            }
            all.forEach(ProcessHandle::destroyForcibly);
        }

        private void removeShutdownHook() {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down; the hook runs and finds nothing alive
            }
        }
    }
}
