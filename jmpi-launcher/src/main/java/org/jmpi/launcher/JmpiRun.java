package org.jmpi.launcher;

import java.io.File;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jmpi.shared.ThreadsJob;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jmpirun}: runs a Java MPI program on N ranks, as JVMs on this host (default) or as threads of this JVM
 * ({@code --threads}).
 *
 * <pre>
 * jmpirun -n 4 [--threads] [-cp PATH] [--tag-output|-l] [--timeout SEC] [--jvm-arg ARG]... [-x VAR[=VALUE]]...
 *         MainClass [args...]
 * jmpirun --classpath          # prints the class path jmpi ranks need (for use under other launchers)
 * </pre>
 *
 * Environment: {@code MPIEXEC_TIMEOUT} (seconds, when {@code --timeout} is absent), {@code JMPI_JVM_ARGS} (JVM
 * options for every rank, split on white space, before any {@code --jvm-arg}).
 *
 * <p>Exit code: the job's ({@link LaunchResult#exitCode()}): 0, the abort code, the first failing rank's code, 255
 * on timeout; 2 for a command-line error.
 */
@Command(name = "jmpirun", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 100,
        versionProvider = JmpiRun.Version.class,
        description = "Runs a Java MPI program on N ranks: JVMs on this host (default) or threads of one JVM.",
        footer = {"", "Environment: MPIEXEC_TIMEOUT (seconds, if --timeout is absent); JMPI_JVM_ARGS (JVM options"
                + " for every rank)."})
public final class JmpiRun implements Callable<Integer> {
    /** Exit code for a command-line error. */
    public static final int USAGE_ERROR = 2;

    @Option(names = {"-n", "-np", "-c", "--np"}, paramLabel = "N", description = "number of ranks (default 1)")
    int ranks = 1;

    @Option(names = "--threads", description = "run the ranks as threads of this JVM (each with its own class loader)")
    boolean threads;

    @Option(names = {"-cp", "--classpath-append"}, paramLabel = "PATH",
            description = "class path of the program (jars and directories, '" + "${sys:path.separator}"
                    + "'-separated; repeatable); jmpi-core is added automatically")
    List<String> classpath = new ArrayList<>();

    @Option(names = "--classpath", description = "print the class path jmpi ranks need (the jmpi-core jar) and exit")
    boolean printClasspath;

    @Option(names = {"--tag-output", "-l", "--prepend-rank", "-prepend-rank"},
            description = "prefix every output line with [rank]")
    boolean tagOutput;

    @Option(names = "--timeout", paramLabel = "SEC",
            description = "kill the job after SEC seconds and exit 255 (default: MPIEXEC_TIMEOUT, else none)")
    Integer timeoutSeconds;

    @Option(names = "--jvm-arg", paramLabel = "ARG", description = "a JVM option for every rank (repeatable)")
    List<String> jvmArgs = new ArrayList<>();

    @Option(names = "-x", paramLabel = "VAR[=VALUE]",
            description = "set VAR in every rank (the whole environment is forwarded anyway; repeatable)")
    List<String> exports = new ArrayList<>();

    @Option(names = "--no-stdin", description = "do not give rank 0 this process's standard input")
    boolean noStdin;

    @Option(names = "--dump-on-timeout", description = "on timeout, make every rank print a thread dump first")
    boolean dumpOnTimeout;

    @Parameters(index = "0", arity = "0..1", paramLabel = "MainClass", description = "the class whose main to run")
    String mainClass;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "arguments of the program")
    List<String> args = new ArrayList<>();

    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> environment;

    JmpiRun(PrintStream out, PrintStream err, Map<String, String> environment) {
        this.out = out;
        this.err = err;
        this.environment = environment;
    }

    public static void main(String[] args) {
        System.exit(execute(System.out, System.err, System.getenv(), args));
    }

    /**
     * Runs {@code jmpirun args} and returns its exit code instead of exiting. Output of processes-mode ranks goes to
     * {@code out}/{@code err}; threads-mode ranks write to {@link System#out}/{@link System#err}.
     */
    public static int execute(PrintStream out, PrintStream err, Map<String, String> environment, String... args) {
        CommandLine cl = new CommandLine(new JmpiRun(out, err, environment));
        cl.setStopAtPositional(true);
        cl.setOut(new PrintWriter(out, true, Charset.defaultCharset()));
        cl.setErr(new PrintWriter(err, true, Charset.defaultCharset()));
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            err.println("jmpirun: " + e);
            return 1;
        });
        return cl.execute(args);
    }

    @Override
    public Integer call() throws Exception {
        if (printClasspath) {
            out.println(joinPaths(Launcher.jmpiClassPath()));
            return 0;
        }
        if (mainClass == null) {
            err.println("jmpirun: no main class given (try jmpirun --help)");
            return USAGE_ERROR;
        }
        if (ranks < 1) {
            err.println("jmpirun: -n must be at least 1, not " + ranks);
            return USAGE_ERROR;
        }
        Duration timeout;
        try {
            timeout = timeout();
        } catch (IllegalArgumentException e) {
            err.println("jmpirun: " + e.getMessage());
            return USAGE_ERROR;
        }
        List<Path> cp = new ArrayList<>();
        for (String entry : classpath) {
            for (String s : entry.split(File.pathSeparator)) {
                if (!s.isBlank()) {
                    cp.add(Path.of(s));
                }
            }
        }
        if (cp.isEmpty()) {
            // like java: the CLASSPATH variable, else the current directory
            String fromEnv = environment.get("CLASSPATH");
            for (String s : (fromEnv == null || fromEnv.isBlank() ? "." : fromEnv).split(File.pathSeparator)) {
                if (!s.isBlank()) {
                    cp.add(Path.of(s));
                }
            }
        }
        cp.addAll(bundledExamples());
        if (threads) {
            if (!jvmArgs.isEmpty() || !exports.isEmpty()) {
                err.println("jmpirun: --jvm-arg and -x do not apply with --threads (the ranks share this JVM; use "
                        + "JMPI_LAUNCHER_JVM_ARGS and the environment of jmpirun instead)");
            }
            return runThreads(cp, timeout);
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (String x : exports) {
            int eq = x.indexOf('=');
            if (eq > 0) {
                env.put(x.substring(0, eq), x.substring(eq + 1));
            } else if (environment.get(x) != null) {
                env.put(x, environment.get(x));
            }
        }
        List<String> allJvmArgs = new ArrayList<>();
        String fromEnv = environment.get("JMPI_JVM_ARGS");
        if (fromEnv != null && !fromEnv.isBlank()) {
            allJvmArgs.addAll(List.of(fromEnv.trim().split("\\s+")));
        }
        allJvmArgs.addAll(jvmArgs);
        Launcher launcher = Launcher.builder()
                .ranks(ranks)
                .classpath(cp)
                .mainClass(mainClass)
                .args(args)
                .jvmArgs(allJvmArgs)
                .env(env)
                .timeout(timeout)
                .tagOutput(tagOutput)
                .output(OutputConsumer.printing(out, err, tagOutput))
                .stdinToRank0(!noStdin)
                .dumpStacksOnTimeout(dumpOnTimeout)
                .build();
        LaunchResult r = launcher.run();
        if (!r.summary().isEmpty()) {
            err.println(r.summary());
        }
        return r.exitCode();
    }

    /** The timeout from --timeout, else MPIEXEC_TIMEOUT, else null (none; also for 0). */
    private Duration timeout() {
        int s;
        if (timeoutSeconds != null) {
            s = timeoutSeconds;
        } else {
            String env = environment.get("MPIEXEC_TIMEOUT");
            if (env == null || env.isBlank()) {
                return null;
            }
            try {
                s = Integer.parseInt(env.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("MPIEXEC_TIMEOUT must be a number of seconds, not '" + env + "'",
                        e);
            }
        }
        return s > 0 ? Duration.ofSeconds(s) : null;
    }

    private int runThreads(List<Path> cp, Duration timeout) throws Exception {
        List<Path> all = new ArrayList<>(cp);
        for (Path p : Launcher.jmpiClassPath()) {
            if (!all.contains(p)) {
                all.add(p);
            }
        }
        URL[] urls = new URL[all.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = all.get(i).toUri().toURL();
            } catch (MalformedURLException e) {
                err.println("jmpirun: bad class path entry " + all.get(i));
                return USAGE_ERROR;
            }
        }
        String[] a = args.toArray(String[]::new);
        CompletableFuture<Integer> job = new CompletableFuture<>();
        Thread runner = Thread.ofPlatform().daemon().name("jmpi-threads-job").start(() -> {
            try {
                job.complete(ThreadsJob.runMain(ranks, urls, mainClass, a, tagOutput, 5000));
            } catch (Throwable t) {
                job.completeExceptionally(t);
            }
        });
        try {
            return timeout == null ? job.get() : job.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            err.println("jmpirun: the job did not finish within " + timeout.toSeconds() + " s (timeout); "
                    + "ending it");
            runner.interrupt();
            return LaunchResult.TIMEOUT_EXIT_CODE;
        } catch (ExecutionException e) {
            err.println("jmpirun: " + e.getCause());
            return 1;
        }
    }

    private static String joinPaths(List<Path> paths) {
        return String.join(File.pathSeparator, paths.stream().map(Path::toString).toList());
    }

    /** Version from the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = JmpiRun.class.getPackage().getImplementationVersion();
            return new String[] {"jmpirun " + (v == null ? "(development build)" : v) + ", Java "
                    + Runtime.version()};
        }
    }

    /** The examples jar of a distribution (lib/jmpi-examples.jar beside jmpi-core.jar), so they run out of the box. */
    private static List<Path> bundledExamples() {
        List<Path> out = new ArrayList<>();
        for (Path core : Launcher.jmpiClassPath()) {
            Path dir = core.getParent();
            if (dir != null && core.getFileName().toString().endsWith(".jar")) {
                Path examples = dir.resolve("jmpi-examples.jar");
                if (java.nio.file.Files.isRegularFile(examples)) {
                    out.add(examples);
                }
            }
        }
        return out;
    }
}
