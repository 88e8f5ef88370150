package org.jmpi.launcher;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.jmpi.bootstrap.Bootstrap;
import org.jmpi.launcher.hosts.HostListException;
import org.jmpi.launcher.hosts.Placement;

/**
 * Starts a job: N ranks, each a process (a JVM running a main class, or any program), on this host or on many, with
 * a PMI-1 server per host through which the ranks find each other. This is what {@code jmpirun} does in processes
 * mode; tests and the JUnit extension use it directly.
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
 * <p><b>Hosts.</b> Without {@link Builder#hosts} every rank runs here. With hosts, ranks are placed by
 * {@link Placement} (by slot, by node, or N per host), and every host that gets ranks gets a proxy
 * ({@code org.jmpi.launcher.proxy.HostProxy}): in this JVM for this machine (unless autofork is off), otherwise
 * started through the {@link LaunchAgent} (ssh by default) as {@code java ... org.jmpi.launcher.proxy.ProxyMain},
 * with the same {@code java} and jar paths as here. A proxy serves PMI on loopback to its host's ranks, pumps their
 * output back, and kills them when told to, or by itself when it loses jmpirun (end of its input, or no heartbeat for
 * the link timeout).
 *
 * <p><b>Rank environment.</b> A Java rank runs {@code <java> --enable-native-access=ALL-UNNAMED [<class cache>]
 * <jvmArgs> -cp <classpath> <mainClass> <args>}, the class cache options when {@link AotCache} allows them. On this host it inherits this process's environment; on other hosts it gets the
 * proxy's (the ssh login environment) plus the variables jmpirun forwards (its {@code env} settings, {@code JMPI_*}
 * and {@code CLASSPATH}; or everything with {@link Builder#forwardAllEnvironment}). Inherited {@code PMI_*},
 * {@code PMIX_*} and {@code JMPI_KVS} are dropped. Then each rank gets {@code PMI_PORT}, {@code PMI_ID},
 * {@code PMI_RANK}, {@code PMI_SIZE}, {@code JMPI_RANK}, {@code JMPI_SIZE}, {@code JMPI_JOBID},
 * {@code JMPI_LOCAL_RANK}, {@code JMPI_LOCAL_SIZE}, {@code JMPI_NODE_ID}, {@code JMPI_APPNUM}, {@code JMPI_APP_SIZES}
 * (the number of ranks of each application context, separated by spaces),
 * {@code MPI_LOCALRANKID}, {@code MPI_LOCALNRANKS}, {@code JMPI_SECRET} (the job's random secret), {@code JMPI_FT=1}
 * with --continue-on-failure, and, when the job spans hosts, {@code JMPI_TCP_HOST} (an address other hosts reach)
 * unless set already.
 *
 * <p><b>Failure policy</b> (as Open MPI and single-host Hydra): when a rank exits non-zero or by a signal, exits
 * after PMI {@code init} without {@code finalize}, sends {@code abort}, breaks the PMI protocol, when a host is lost,
 * or the timeout passes, every rank still running on every host (and every process it started) gets SIGTERM, then
 * SIGKILL after the termination grace (2 s by default). {@link LaunchResult} says which rank and code ended the job.
 * With {@link Builder#continueOnFailure} a failed rank does not end the job: the others are told (their MPI calls
 * involving it fail with {@code MPI_ERR_PROC_FAILED}) and the job's exit code is still the first failure's. An
 * {@code abort} always ends the job. A JVM shutdown hook kills the ranks if this JVM ends first.
 *
 * <p>Instances are immutable; {@link #start()} may be called more than once, each call starting a separate job.
 */
public final class Launcher {
    /** One MPMD application context: how many ranks and what they run. */
    record App(int ranks, List<Path> classpath, boolean addJmpiClassPath, String mainClass, List<String> exec,
            List<String> args, List<String> jvmArgs, Map<String, String> env, Path workingDirectory) {}

    final List<App> apps;
    final int size;
    final Duration timeout;
    final boolean tagOutput;
    final OutputConsumer output;
    final Consumer<String> notices;
    final Path javaExecutable;
    final boolean stdinToRank0;
    final Duration terminationGrace;
    final boolean dumpStacksOnTimeout;
    final List<HostSpec> hosts;
    final Placement placement;
    final LaunchAgent agent;
    final boolean autofork;
    final boolean continueOnFailure;
    final boolean forwardAllEnvironment;
    final Map<String, String> environment;
    final String tcpHost;
    final Duration linkTimeout;
    final Path remoteJava;

    private Launcher(Builder b) {
        List<App> all = new ArrayList<>(b.finished);
        all.add(b.current());
        for (App a : all) {
            if (a.mainClass == null && a.exec == null) {
                throw new IllegalArgumentException("every application needs a main class or a program to run");
            }
        }
        this.apps = List.copyOf(all);
        this.size = apps.stream().mapToInt(App::ranks).sum();
        this.timeout = b.timeout;
        this.tagOutput = b.tagOutput;
        this.output = b.output != null ? b.output : OutputConsumer.console(b.tagOutput);
        this.notices = b.notices != null ? b.notices : System.err::println;
        this.javaExecutable = b.javaExecutable != null ? b.javaExecutable
                : Path.of(System.getProperty("java.home"), "bin", "java");
        this.stdinToRank0 = b.stdinToRank0;
        this.terminationGrace = b.terminationGrace;
        this.dumpStacksOnTimeout = b.dumpStacksOnTimeout;
        this.hosts = b.hosts == null ? null : List.copyOf(b.hosts);
        this.agent = b.agent != null ? b.agent : LaunchAgent.ssh();
        this.autofork = b.autofork;
        this.continueOnFailure = b.continueOnFailure;
        this.forwardAllEnvironment = b.forwardAllEnvironment;
        this.environment = b.environment != null ? Map.copyOf(b.environment) : System.getenv();
        this.tcpHost = b.tcpHost;
        this.linkTimeout = b.linkTimeout;
        this.remoteJava = b.remoteJava;
        try {
            List<HostSpec> h = hosts != null ? hosts : List.of(HostSpec.of("localhost", size));
            this.placement = Placement.of(h, size, b.mapBy, b.perHost, b.oversubscribe);
        } catch (HostListException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** A builder with defaults: 1 rank, no timeout, untagged output to System.out/err. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Whether a JDK class cache ({@code -XX:AOTCache}) may be given to a JVM started with {@code jvmOptions}: false
     * when one of them makes the JVM refuse a cache or changes what it would hold (another cache or CDS setting, module
     * options, agents, flight recording, ZGC, other object headers, a heap of 32 GiB or more). The rule the launcher
     * applies to its distribution's rank cache, for callers that bring a cache of their own (jmpi-junit).
     */
    public static boolean classCacheCompatible(List<String> jvmOptions) {
        return AotCache.compatible(jvmOptions);
    }

    /**
     * The class path entries a rank needs besides the user's classes: where jmpi-core was loaded from (its jar, or
     * its classes directory in a development build). This is what {@code jmpirun --classpath} prints.
     */
    public static List<Path> jmpiClassPath() {
        return List.of(codeLocation(Bootstrap.class));
    }

    /** Where the proxy's classes come from: jmpi-launcher and jmpi-core. */
    static List<Path> proxyClassPath() {
        List<Path> cp = new ArrayList<>();
        cp.add(codeLocation(Launcher.class));
        for (Path p : jmpiClassPath()) {
            if (!cp.contains(p)) {
                cp.add(p);
            }
        }
        return cp;
    }

    /** Where {@code c} was loaded from, as this JVM's class path says (not a class cache's record of it). */
    private static Path codeLocation(Class<?> c) {
        return org.jmpi.shared.CodeLocation.of(c);
    }

    /** The full class path of a rank of the first application: its entries, then {@link #jmpiClassPath()}. */
    public List<Path> rankClassPath() {
        return classPath(apps.get(0));
    }

    private static List<Path> classPath(App a) {
        List<Path> all = new ArrayList<>(a.classpath);
        if (a.addJmpiClassPath) {
            for (Path p : jmpiClassPath()) {
                if (!all.contains(p)) {
                    all.add(p);
                }
            }
        }
        return all;
    }

    /** The command line of a rank of the first application. */
    public List<String> rankCommand() {
        return command(apps.get(0));
    }

    List<String> command(App a) {
        if (a.exec != null) {
            List<String> cmd = new ArrayList<>(a.exec);
            if (a.exec.size() == 1 && JavaCommand.isJava(a.exec.get(0))) {
                // mpirun -np 4 java ... Main (Open MPI's idiom): the ranks' class cache, as for jmpirun -n 4 Main
                Path java = a.exec.get(0).equals("java") ? javaExecutable : Path.of(a.exec.get(0));
                cmd.addAll(AotCache.rankOptions(java, JavaCommand.options(a.args), a.env,
                        JavaCommand.classPath(a.args, jmpiClassPath()), false));
            }
            cmd.addAll(a.args);
            return cmd;
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(javaExecutable.toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.addAll(AotCache.rankOptions(javaExecutable, a.jvmArgs, a.env, a.classpath, !a.addJmpiClassPath));
        cmd.addAll(a.jvmArgs);
        cmd.add("-cp");
        cmd.add(String.join(File.pathSeparator, classPath(a).stream().map(Path::toString).toList()));
        cmd.add(a.mainClass);
        cmd.addAll(a.args);
        return cmd;
    }

    /** Number of ranks of the job (all applications). */
    public int size() {
        return size;
    }

    /** Where each rank will run. */
    public Placement placement() {
        return placement;
    }

    /** Starts the job and waits for it to end; the result carries the exit code and what went wrong. */
    public LaunchResult run() throws IOException, InterruptedException {
        try (Job job = start()) {
            return job.await();
        }
    }

    /** Starts the job and returns at once; the caller must {@link Job#await()} or {@link Job#close()} it. */
    public Job start() throws IOException {
        return new Job(new FrontEnd(this));
    }

    /**
     * Settings of a {@link Launcher}. The settings of one application (ranks, class path, main class or program,
     * arguments, JVM options, environment, working directory) apply to the current application; {@link #nextApp()}
     * starts another (MPMD, as {@code jmpirun A : B}). The rest apply to the whole job. Not thread-safe.
     */
    public static final class Builder {
        private final List<App> finished = new ArrayList<>();
        private int ranks = 1;
        private final List<Path> classpath = new ArrayList<>();
        private boolean addJmpiClassPath = true;
        private String mainClass;
        private List<String> exec;
        private final List<String> args = new ArrayList<>();
        private final List<String> jvmArgs = new ArrayList<>();
        private final Map<String, String> env = new LinkedHashMap<>();
        private Path workingDirectory;
        private Duration timeout;
        private boolean tagOutput;
        private OutputConsumer output;
        private Consumer<String> notices;
        private Path javaExecutable;
        private boolean stdinToRank0;
        private Duration terminationGrace = Duration.ofSeconds(2);
        private boolean dumpStacksOnTimeout;
        private List<HostSpec> hosts;
        private Placement.MapBy mapBy = Placement.MapBy.SLOT;
        private int perHost;
        private boolean oversubscribe = true;
        private LaunchAgent agent;
        private boolean autofork = true;
        private boolean continueOnFailure;
        private boolean forwardAllEnvironment;
        private Map<String, String> environment;
        private String tcpHost;
        private Duration linkTimeout = Duration.ofSeconds(4);
        private Path remoteJava;

        private Builder() {
        }

        private App current() {
            return new App(ranks, List.copyOf(classpath), addJmpiClassPath, mainClass,
                    exec == null ? null : List.copyOf(exec), List.copyOf(args), List.copyOf(jvmArgs), Map.copyOf(env),
                    workingDirectory);
        }

        /**
         * Ends the current application and starts the next (MPMD): its ranks follow the previous ones. Class path,
         * JVM options, environment and working directory carry over; the count, main class, program and arguments
         * start afresh.
         */
        public Builder nextApp() {
            App a = current();
            if (a.mainClass == null && a.exec == null) {
                throw new IllegalStateException("the current application has no main class or program yet");
            }
            finished.add(a);
            ranks = 1;
            mainClass = null;
            exec = null;
            args.clear();
            return this;
        }

        /** Number of ranks (processes) of the current application, at least 1. */
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

        /** The class whose {@code main} every rank of the current application runs. */
        public Builder mainClass(String className) {
            this.mainClass = className;
            this.exec = null;
            return this;
        }

        /**
         * Runs a program instead of a Java main class ({@code jmpirun -n 2 ./a.out}, or {@code java -cp ... Main}):
         * the command and its first arguments; {@link #args} are appended.
         */
        public Builder exec(List<String> command) {
            if (command.isEmpty()) {
                throw new IllegalArgumentException("empty command");
            }
            this.exec = List.copyOf(command);
            this.mainClass = null;
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

        /** Sets an environment variable in every rank (forwarded to other hosts too). */
        public Builder env(String name, String value) {
            env.put(name, value);
            return this;
        }

        /** Sets environment variables in every rank (forwarded to other hosts too). */
        public Builder env(Map<String, String> vars) {
            env.putAll(vars);
            return this;
        }

        /** Working directory of the ranks (the same path on every host); default this process's. */
        public Builder workingDirectory(Path dir) {
            this.workingDirectory = dir;
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

        /** Where the launcher's own notes go (a refused connection, a proxy's complaint); default System.err. */
        public Builder notices(Consumer<String> sink) {
            this.notices = sink;
            return this;
        }

        /** Notes to a stream, one line each. */
        public Builder notices(PrintStream stream) {
            return notices(line -> {
                synchronized (stream) {
                    stream.println(line);
                }
            });
        }

        /** The {@code java} executable of Java ranks; default {@code <java.home>/bin/java} of this JVM. */
        public Builder javaExecutable(Path java) {
            this.javaExecutable = java;
            return this;
        }

        /** The {@code java} that starts proxies on other hosts; default the same path as {@link #javaExecutable}. */
        public Builder remoteJava(Path java) {
            this.remoteJava = java;
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

        /** The hosts to run on (default: this host only). */
        public Builder hosts(List<HostSpec> h) {
            this.hosts = h == null ? null : List.copyOf(h);
            return this;
        }

        /** How ranks are spread over the hosts (default by slot). */
        public Builder mapBy(Placement.MapBy m) {
            this.mapBy = Objects.requireNonNull(m);
            return this;
        }

        /** N consecutive ranks per host, whatever the slots (-ppn); 0 (default): use {@link #mapBy}. */
        public Builder perHost(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("ranks per host must not be negative");
            }
            this.perHost = n;
            return this;
        }

        /** Whether more ranks than slots is allowed (default true, as Hydra). */
        public Builder oversubscribe(boolean allow) {
            this.oversubscribe = allow;
            return this;
        }

        /** How proxies are started on other hosts (default plain ssh). */
        public Builder launchAgent(LaunchAgent a) {
            this.agent = a;
            return this;
        }

        /** Whether a host that names this machine runs in this JVM rather than through the agent (default true). */
        public Builder autofork(boolean fork) {
            this.autofork = fork;
            return this;
        }

        /** Survivors go on when a rank fails (default false: the job ends). */
        public Builder continueOnFailure(boolean cont) {
            this.continueOnFailure = cont;
            return this;
        }

        /** Forward this process's whole environment to ranks on other hosts (Hydra's -genvall); default false. */
        public Builder forwardAllEnvironment(boolean all) {
            this.forwardAllEnvironment = all;
            return this;
        }

        /** The environment jmpirun runs in (ranks here inherit it); default this process's. */
        public Builder environment(Map<String, String> e) {
            this.environment = e;
            return this;
        }

        /**
         * {@code JMPI_TCP_HOST} for every rank (an address or interface name: where the TCP transport listens);
         * default: loopback on one host, a reachable address when the job spans hosts.
         */
        public Builder tcpHost(String hostOrInterface) {
            this.tcpHost = hostOrInterface;
            return this;
        }

        /** A host silent for this long is lost (both directions); default 4 s. */
        public Builder linkTimeout(Duration t) {
            this.linkTimeout = Objects.requireNonNull(t);
            return this;
        }

        /** @throws IllegalArgumentException when the ranks cannot be placed (not enough slots, no program) */
        public Launcher build() {
            return new Launcher(this);
        }
    }

    /**
     * A running job. {@link #await()} returns its {@link LaunchResult}; {@link #kill()} ends it early;
     * {@link #pids()} and {@link #dumpStacks()} help to find out why a job hangs.
     *
     * <p>Threading: a monitor thread owns the job's fate (see {@code FrontEnd}); public methods are safe from any
     * thread.
     */
    public static final class Job implements AutoCloseable {
        private final FrontEnd front;

        private Job(FrontEnd front) throws IOException {
            this.front = front;
            front.start();
        }

        /** Number of ranks. */
        public int size() {
            return front.size();
        }

        /** The job id (also the PMI KVS name and the ranks' {@code JMPI_JOBID}). */
        public String jobId() {
            return front.jobId();
        }

        /** The PMI server address of the first host's proxy ({@code PMI_PORT} of its ranks), or "" if remote. */
        public String pmiAddress() {
            return front.pmiAddress();
        }

        /** The process id of each rank, by rank (on its own host); -1 while unknown. */
        public List<Long> pids() {
            return front.pids();
        }

        /** Whether the job has ended (every rank process has exited). */
        public boolean isDone() {
            return front.isDone();
        }

        /** Waits until the job ends (bounded by the builder's timeout, if any) and returns how it ended. */
        public LaunchResult await() throws InterruptedException {
            return front.await();
        }

        /** Waits at most {@code timeout}; empty if the job is still running then. */
        public Optional<LaunchResult> await(Duration timeout) throws InterruptedException {
            return front.await(timeout);
        }

        /**
         * Ends the job now: SIGTERM to every rank and its descendants, SIGKILL after the grace. Returns at once;
         * {@link #await()} gives the result (exit code 143 unless the job had already failed).
         */
        public void kill() {
            front.request(FrontEnd.Request.KILL);
        }

        /**
         * Forwards an interrupt (Ctrl-C): SIGINT to every rank, SIGKILL to those still running after twice the
         * grace; a second call kills everything at once. {@link #await()} then gives 130.
         */
        public void interrupt() {
            front.request(FrontEnd.Request.INTERRUPT);
        }

        /**
         * Sends SIGQUIT to every rank still running: each JVM prints a thread dump to its standard output, which
         * reaches the output consumer. The dump is asynchronous; Unix only.
         *
         * @return the number of ranks signalled
         */
        public int dumpStacks() {
            return front.dumpStacks();
        }

        /** Kills the job if it is still running and waits until it has ended. */
        @Override
        public void close() throws InterruptedException {
            if (!front.isDone()) {
                kill();
            }
            await();
        }
    }
}
