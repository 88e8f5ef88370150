package org.jmpi.launcher;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jmpi.launcher.hosts.HostDiscovery;
import org.jmpi.launcher.hosts.HostListException;
import org.jmpi.launcher.hosts.Placement;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jmpirun}: runs a Java MPI program (or any PMI program) on N ranks: JVMs on this host and on others reached
 * by ssh, or threads of this JVM ({@code --threads}). The flags are the common union of Open MPI's {@code mpirun} and
 * MPICH's {@code mpiexec.hydra}, in both spellings; the environment variables they read are honoured too (hostfiles
 * from mpi-operator, Volcano, Slurm allocations; launch agents; {@code MPIEXEC_TIMEOUT}). See docs/launching.md.
 *
 * <pre>
 * jmpirun -n 4 [-H a,b:2 | -f hostfile] [-ppn N | --map-by slot|node] [-x VAR[=V]] [-genv V X] [--wdir D]
 *         [--timeout S] [-l] [--output-filename D] [--continue-on-failure]
 *         [-ckpoint-prefix DIR [-ckpoint-interval S] [-ckpoint-num N] [--ckpoint-keep K]] [--restart-on-failure K]
 *         MainClass|program [args] [: -n 2 ...]
 * jmpirun --kvs-server [--kvs-listen ADDR] [-- command...]    # rendezvous for env-only ranks (JMPI_KVS)
 * jmpirun --classpath                                          # what ranks need under mpiexec.hydra / srun
 * jmpirun --java-options                                       # the JVM options they need there
 * </pre>
 *
 * <p>With {@code --restart-on-failure K} a run that fails because a rank or host failed is started again, at most K
 * times, from the newest complete checkpoint of {@code -ckpoint-prefix} ({@link CheckpointRestart}).
 *
 * <p>Exit code: the job's (the last run's, {@link LaunchResult#exitCode()}): 0, the abort code, the first failing rank's code, 254
 * when a host was lost, 255 on timeout, 130 after Ctrl-C, 143 after SIGTERM; 2 for a command-line error (including a
 * host list, hostfile or variable that cannot be parsed: jmpirun never falls back to this host silently).
 */
@Command(name = "jmpirun", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 110,
        versionProvider = JmpiRun.Version.class,
        description = "Runs a Java MPI program on N ranks: JVMs on this and other hosts, or threads of one JVM.",
        footer = {"", "MPMD: separate application contexts with ':' (jmpirun -n 1 A : -n 3 B).",
            "Environment: MPIEXEC_TIMEOUT; JMPI_JVM_ARGS (JVM options for every rank); hostfiles from HYDRA_HOST_FILE,"
                    + " I_MPI_HYDRA_HOST_FILE, OMPI_MCA_orte_default_hostfile, PRTE_MCA_prte_default_hostfile;"
                    + " MPI_HOST; SLURM_JOB_NODELIST; PBS_NODEFILE; launch agents from HYDRA_LAUNCHER(_EXEC),"
                    + " OMPI_MCA_plm_rsh_agent, PRTE_MCA_plm_ssh_agent and their extra-argument variables.",
            "See docs/launching.md."})
public final class JmpiRun implements Callable<Integer> {
    /** Exit code for a command-line error. */
    public static final int USAGE_ERROR = 2;

    /** Options that may appear in every application context of an MPMD line; the rest belong to the first. */
    private static final Set<String> PER_APP = Set.of("-n", "-cp", "--jvm-arg", "-x", "-env", "--wdir", "--exec");

    @Option(names = {"-n", "-np", "-c", "--np"}, paramLabel = "N",
            description = "number of ranks (default: the hosts' slots when a host list is given, else 1)")
    Integer ranks;

    @Option(names = "--threads", description = "run the ranks as threads of this JVM (each with its own class loader)")
    boolean threads;

    @Option(names = {"-cp", "--classpath-append"}, paramLabel = "PATH",
            description = "class path of the program ('${sys:path.separator}'-separated; repeatable); jmpi-core is"
                    + " added automatically; default CLASSPATH, else '.'")
    List<String> classpath = new ArrayList<>();

    @Option(names = "--classpath", description = "print the class path jmpi ranks need (the jmpi-core jar) and exit")
    boolean printClasspath;

    @Option(names = "--api", paramLabel = "ompi|mpj", description = "the MPI API of the program: ompi (Open MPI's Java"
            + " bindings, the default) or mpj (mpiJava 1.2 as MPJ Express implements it: lib/jmpi-mpj.jar instead of"
            + " jmpi-core, and MPJ Express's three leading arguments before the program's)")
    String api = "ompi";

    @Option(names = "--java-options", description = "print the JVM options jmpi ranks need (for java under another"
            + " launcher) and exit")
    boolean printJavaOptions;

    @Option(names = "--info", description = "print jmpi's tuning parameters with the values this environment gives"
            + " them, and the counters a rank keeps (MPI_T's control and performance variables), and exit")
    boolean printInfo;

    @Option(names = "--exec", description = "the program is an executable (a C MPI program, a script), not a Java"
            + " main class; implied when it contains '/' or is 'java'")
    boolean exec;

    @Option(names = {"-H", "--host", "-host", "-hosts", "--hosts"}, paramLabel = "HOST[:N],...",
            description = "hosts to run on, with optional slot counts (repeatable)")
    List<String> hostList = new ArrayList<>();

    @Option(names = {"-f", "--hostfile", "-hostfile", "-machinefile", "--machinefile", "--default-hostfile"},
            paramLabel = "FILE", description = "hostfile: 'host slots=N' or 'host:N' lines")
    String hostfile;

    @Option(names = {"-ppn", "--npernode", "-npernode", "-N", "--per-host"}, paramLabel = "N",
            description = "N consecutive ranks per host")
    Integer perHost;

    @Option(names = {"--map-by", "-map-by"}, paramLabel = "slot|node|ppr:N:node",
            description = "how ranks are spread over hosts (default slot)")
    String mapBy;

    @Option(names = {"--bind-to", "-bind-to"}, paramLabel = "none|core|...",
            description = "core or hwthread: each rank of a host on its own CPU, in turn (taskset); none; default: "
                    + "core on a host that runs one rank per CPU, else none")
    String bindTo;

    @Option(names = "--oversubscribe", description = "allow more ranks than slots (the default)")
    boolean oversubscribe;

    @Option(names = "--nooversubscribe", description = "refuse more ranks than slots")
    boolean noOversubscribe;

    @Option(names = {"-x"}, paramLabel = "VAR[=VALUE]", description = "set or forward VAR in every rank (repeatable)")
    List<String> exports = new ArrayList<>();

    @Option(names = {"-genv", "-env", "--env"}, arity = "2", paramLabel = "NAME VALUE",
            description = "set NAME=VALUE in every rank (repeatable)")
    List<String> genv = new ArrayList<>();

    @Option(names = {"-genvlist", "-envlist"}, paramLabel = "A,B", description = "forward these variables")
    List<String> genvList = new ArrayList<>();

    @Option(names = {"-genvall", "-envall", "--forward-all-env"},
            description = "forward jmpirun's whole environment to other hosts (this host always inherits it)")
    boolean genvAll;

    @Option(names = {"-genvnone", "-envnone"}, description = "forward nothing beyond -x/-genv to other hosts")
    boolean genvNone;

    @Option(names = {"--wdir", "-wdir", "--cwd"}, paramLabel = "DIR",
            description = "working directory of the ranks, the same path on every host (default: this one)")
    String wdir;

    @Option(names = "--timeout", paramLabel = "SEC",
            description = "kill the job after SEC seconds and exit 255 (default: MPIEXEC_TIMEOUT, else none)")
    Integer timeoutSeconds;

    @Option(names = {"--tag-output", "-l", "--prepend-rank", "-prepend-rank"},
            description = "prefix every output line with [rank]")
    boolean tagOutput;

    @Option(names = {"--output-filename", "-output-filename"}, paramLabel = "DIR",
            description = "write each rank's output to DIR/1/rank.N/stdout and stderr instead of the terminal")
    String outputDirectory;

    @Option(names = "--jvm-arg", paramLabel = "ARG", description = "a JVM option for every rank (repeatable)")
    List<String> jvmArgs = new ArrayList<>();

    @Option(names = "--no-stdin", description = "do not give rank 0 this process's standard input")
    boolean noStdin;

    @Option(names = {"--nameserver", "--ompi-server"}, paramLabel = "ADDRESS",
            description = "the name service for MPI_Publish_name/MPI_Lookup_name: host:port:token as jmpi-nameserver "
                    + "prints it (default: JMPI_NAMESERVER, else one of jmpirun's own)")
    String nameserver;

    @Option(names = "--dump-on-timeout", description = "on timeout, make every rank print a thread dump first")
    boolean dumpOnTimeout;

    @Option(names = {"--launcher", "-launcher", "-bootstrap", "--bootstrap"}, paramLabel = "ssh|rsh|slurm|fork",
            description = "how proxies start on other hosts (default ssh; HYDRA_LAUNCHER)")
    String launcher;

    @Option(names = {"--launcher-exec", "-launcher-exec", "--launch-agent", "-launch-agent", "-bootstrap-exec"},
            paramLabel = "PROGRAM", description = "the agent program, e.g. a wrapper around ssh")
    String launcherExec;

    @Option(names = "--no-autofork", description = "use the agent even for this host (HYDRA_LAUNCHER_AUTOFORK=0)")
    boolean noAutofork;

    @Option(names = {"--mca", "-mca", "--gmca", "-gmca"}, arity = "2", paramLabel = "KEY VALUE",
            description = "Open MPI parameters; jmpirun applies plm_rsh_agent, plm_rsh_args, orte_default_hostfile,"
                    + " oob_tcp_if_include, btl_tcp_if_include, orte_keep_fqdn_hostnames, rmaps_base_oversubscribe"
                    + " and ignores the others with one warning")
    List<String> mca = new ArrayList<>();

    @Option(names = {"--iface", "-iface"}, paramLabel = "IF|ADDR",
            description = "network interface or address ranks listen on (JMPI_TCP_HOST)")
    String iface;

    @Option(names = {"--continue-on-failure", "-disable-auto-cleanup", "--disable-auto-cleanup"},
            description = "survivors go on when a rank fails; MPI calls involving it raise MPI_ERR_PROC_FAILED")
    boolean continueOnFailure;

    @Option(names = {"-ckpoint-prefix", "--ckpoint-prefix", "--checkpoint-prefix"}, paramLabel = "DIR",
            description = "checkpoint directory of org.jmpi.ft.Checkpoint (must exist and be writable; on a file"
                    + " system every host shares); ranks get JMPI_CKPT_PREFIX")
    String ckpointPrefix;

    @Option(names = {"-ckpoint-interval", "--ckpoint-interval"}, paramLabel = "SEC",
            description = "least time between checkpoints: the program's next checkpoint() call after SEC seconds"
                    + " writes one (default: every call)")
    String ckpointInterval;

    @Option(names = {"-ckpoint-num", "--ckpoint-num"}, paramLabel = "N",
            description = "restart from checkpoint generation N (default: the newest complete one)")
    Long ckpointNum;

    @Option(names = {"--ckpoint-keep", "-ckpoint-keep"}, paramLabel = "K",
            description = "complete checkpoint generations kept (default 2)")
    Integer ckpointKeep;

    @Option(names = {"-ckpointlib", "--ckpointlib"}, paramLabel = "LIB", hidden = true,
            description = "Hydra's system-level checkpoint library (blcr): accepted with a note")
    String ckpointLib;

    @Option(names = {"--restart-on-failure", "-restart-on-failure"}, paramLabel = "K",
            description = "when a rank or host fails, start the job again (from the newest complete checkpoint with"
                    + " -ckpoint-prefix, else from the beginning), at most K times")
    Integer restartOnFailure;

    @Option(names = "--link-timeout", paramLabel = "SEC",
            description = "a host silent for SEC seconds is lost (default 4)")
    Integer linkTimeoutSeconds;

    @Option(names = {"-print-all-exitcodes", "--print-all-exitcodes"}, description = "print every rank's exit code")
    boolean printAllExitCodes;

    @Option(names = {"-v", "--verbose", "-verbose"},
            description = "print where each rank runs and which transport serves which peer")
    boolean verbose;

    @Option(names = "--allow-run-as-root", description = "accepted (jmpirun does not refuse root)")
    boolean allowRunAsRoot;

    @Option(names = "--kvs-server", description = "run a rendezvous server for ranks started by a launcher without"
            + " PMI (env-only mode), then the command after --, with JMPI_KVS and JMPI_SECRET set")
    boolean kvsServer;

    @Option(names = "--kvs-listen", paramLabel = "ADDR|IF|*",
            description = "where the rendezvous server listens (default loopback; '*' for every interface)")
    String kvsListen;

    @Option(names = "--tool", paramLabel = "CLASS[,CLASS]",
            description = "a profiling tool (org.jmpi.profile.MpiTool) on the ranks' class path that sees every MPI"
                    + " call (repeatable; JMPI_TOOLS too); see docs/observability.md")
    List<String> tools = new ArrayList<>();

    @Option(names = "--summary", description = "at exit, print the time each rank spent in MPI and a table of the"
            + " MPI calls of all ranks by total time (as mpiP does)")
    boolean summary;

    @Option(names = "--summary-svg", paramLabel = "FILE.svg",
            description = "with the summary, a chart of each rank's time by MPI call (implies --summary)")
    String summarySvg;

    @Option(names = "--trace", paramLabel = "FILE.json", description = "write a Chrome/Perfetto trace of the job: every"
            + " MPI call of every rank as a span, an arrow from each send to its receive")
    String trace;

    @Option(names = "--jfr", paramLabel = "DIR", description = "record every rank with JDK Flight Recorder into"
            + " DIR (rank-<pid>.jfr; threads mode: threads.jfr), MPI events included (JMPI_JFR_THRESHOLD: their"
            + " threshold, default 20 us)")
    String jfr;

    @Option(names = "--check", description = "debug mode: collectives checked for the same call, root and size on"
            + " every rank (a mismatch ends the job, exit 86), blocked calls reported after JMPI_CHECK_BLOCKED_SECONDS"
            + " (60; every rank blocked ends the job, exit 87), leaked communicators and requests listed at finalize")
    boolean check;

    @Parameters(index = "0", arity = "0..1", paramLabel = "PROGRAM",
            description = "the main class to run (or a program, see --exec)")
    String mainClass;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "arguments of the program")
    List<String> args = new ArrayList<>();

    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> environment;
    private List<String> rawArgs = List.of();
    private boolean installSignals;

    JmpiRun(PrintStream out, PrintStream err, Map<String, String> environment) {
        this.out = out;
        this.err = err;
        this.environment = environment;
    }

    public static void main(String[] args) {
        System.exit(execute(System.out, System.err, System.getenv(), true, args));
    }

    /**
     * Runs {@code jmpirun args} and returns its exit code instead of exiting. Output of processes-mode ranks goes to
     * {@code out}/{@code err}; threads-mode ranks write to {@link System#out}/{@link System#err}.
     */
    public static int execute(PrintStream out, PrintStream err, Map<String, String> environment, String... args) {
        return execute(out, err, environment, false, args);
    }

    private static int execute(PrintStream out, PrintStream err, Map<String, String> environment,
            boolean installSignals, String... args) {
        org.jmpi.shared.StartupTrace.mark("jmpirun: main");
        JmpiRun first = new JmpiRun(out, err, environment);
        first.installSignals = installSignals;
        first.rawArgs = List.of(args);
        if (!first.parseCommon(args)) {
            return Cli.execute(first, out, err, environment, args);
        }
        try {
            return first.run(List.of());
        } catch (Exception e) {
            err.println("jmpirun: " + e);
            return 1;
        }
    }

    /** The options {@link #parseCommon} takes, each followed by a value in the next argument. */
    private static final Set<String> COMMON_RANKS = Set.of("-n", "-np", "-c", "--np");
    private static final Set<String> COMMON_CLASSPATH = Set.of("-cp", "--classpath-append");
    private static final Set<String> COMMON_TAG = Set.of("--tag-output", "-l", "--prepend-rank", "-prepend-rank");
    private static final Set<String> COMMON_HOSTS = Set.of("-H", "--host", "-host", "-hosts", "--hosts");
    private static final Set<String> COMMON_HOSTFILE = Set.of("-f", "--hostfile", "-hostfile", "-machinefile",
            "--machinefile", "--default-hostfile");
    private static final Set<String> COMMON_AGENT = Set.of("--launcher-exec", "-launcher-exec", "--launch-agent",
            "-launch-agent", "-bootstrap-exec");
    private static final Set<String> COMMON_WDIR = Set.of("--wdir", "-wdir", "--cwd");
    private static final Set<String> COMMON_VERBOSE = Set.of("-v", "--verbose", "-verbose");

    /**
     * Parses the common command lines without picocli: {@code [-n N] [--threads] [-cp PATH]... [-l] [--no-stdin]
     * [--oversubscribe] [--allow-run-as-root] [-H HOSTS]... [-f HOSTFILE] [--launcher-exec PROGRAM] [-x VAR]...
     * [--jvm-arg OPTION]... [--wdir DIR] [-v] PROGRAM [ARGS...]}, each option at most once (but the repeatable ones)
     * and in its own argument (but {@code --jvm-arg=OPTION}), N a plain decimal number, a JVM option plain or of the
     * forms {@code -D...} and {@code -X...} (no option of jmpirun's looks like those).
     * Picocli's reflective set-up and its classes (compiled for Java 5, so no class cache can hold them) cost the
     * launcher about 60 ms before the first rank starts (85 ms of CPU for a job across hosts); every other command
     * line, and every malformed one, still goes through picocli, which gives the same result where both apply (a
     * property test checks it) and the usual messages and help where only it does.
     *
     * @return whether the arguments were of that form (then the fields are set); false leaves the fields untouched
     */
    boolean parseCommon(String... argv) {
        Integer n = null;
        boolean t = false;
        boolean tag = false;
        boolean stdin = false;
        boolean over = false;
        boolean root = false;
        List<String> cp = new ArrayList<>();
        List<String> hosts = new ArrayList<>();
        String file = null;
        String agent = null;
        List<String> x = new ArrayList<>();
        List<String> jvm = new ArrayList<>();
        String dir = null;
        boolean v = false;
        int i = 0;
        for (; i < argv.length; i++) {
            String a = argv[i];
            if (!a.startsWith("-")) {
                break;
            }
            boolean hasValue = i + 1 < argv.length;
            if (COMMON_RANKS.contains(a) && n == null && hasValue && isPlainCount(argv[i + 1])) {
                n = Integer.valueOf(argv[++i]);
            } else if (COMMON_CLASSPATH.contains(a) && hasValue && isPlainValue(argv[i + 1])) {
                cp.add(argv[++i]);
            } else if (a.equals("--threads") && !t) {
                t = true;
            } else if (COMMON_TAG.contains(a) && !tag) {
                tag = true;
            } else if (a.equals("--no-stdin") && !stdin) {
                stdin = true;
            } else if (a.equals("--oversubscribe") && !over) {
                over = true;
            } else if (a.equals("--allow-run-as-root") && !root) {
                root = true;
            } else if (COMMON_HOSTS.contains(a) && hasValue && isPlainValue(argv[i + 1])) {
                hosts.add(argv[++i]);
            } else if (COMMON_HOSTFILE.contains(a) && file == null && hasValue && isPlainValue(argv[i + 1])) {
                file = argv[++i];
            } else if (COMMON_AGENT.contains(a) && agent == null && hasValue && isPlainValue(argv[i + 1])) {
                agent = argv[++i];
            } else if (a.equals("-x") && hasValue && isPlainValue(argv[i + 1])) {
                x.add(argv[++i]);
            } else if (a.equals("--jvm-arg") && hasValue && isJvmOption(argv[i + 1])) {
                jvm.add(argv[++i]);
            } else if (a.startsWith("--jvm-arg=") && a.length() > "--jvm-arg=".length()) {
                jvm.add(a.substring("--jvm-arg=".length()));
            } else if (COMMON_WDIR.contains(a) && dir == null && hasValue && isPlainValue(argv[i + 1])) {
                dir = argv[++i];
            } else if (COMMON_VERBOSE.contains(a) && !v) {
                v = true;
            } else {
                return false;
            }
        }
        if (i == argv.length || !isPlainValue(argv[i])) {
            return false;
        }
        for (int j = i + 1; j < argv.length; j++) {
            if (argv[j].equals(":") || argv[j].equals("--")) {
                return false; // MPMD contexts (and the -- that protects a ':'): picocli's path
            }
        }
        ranks = n;
        threads = t;
        tagOutput = tag;
        noStdin = stdin;
        oversubscribe = over;
        allowRunAsRoot = root;
        classpath.addAll(cp);
        hostList.addAll(hosts);
        if (file != null) {
            hostfile = file;
        }
        if (agent != null) {
            launcherExec = agent;
        }
        exports.addAll(x);
        jvmArgs.addAll(jvm);
        if (dir != null) {
            wdir = dir;
        }
        verbose = v;
        mainClass = argv[i];
        args.addAll(List.of(argv).subList(i + 1, argv.length));
        return true;
    }

    /** 1 to 9 decimal digits. */
    private static boolean isPlainCount(String v) {
        if (v.isEmpty() || v.length() > 9) {
            return false;
        }
        for (int k = 0; k < v.length(); k++) {
            if (v.charAt(k) < '0' || v.charAt(k) > '9') {
                return false;
            }
        }
        return true;
    }

    /** A JVM option picocli takes as the value of {@code --jvm-arg}: plain, or {@code -D...} or {@code -X...}. */
    private static boolean isJvmOption(String v) {
        return isPlainValue(v) || (v.length() > 2 && (v.startsWith("-D") || v.startsWith("-X")));
    }

    /** A value picocli takes as it is: not empty, not an option, not an {@code @file}, not an MPMD separator. */
    private static boolean isPlainValue(String v) {
        return !v.isEmpty() && !v.startsWith("-") && !v.startsWith("@") && !v.equals(":");
    }

    /** Everything that needs picocli: help, version, every option but the common ones, MPMD. */
    static final class Cli {
        private Cli() {}

        static int execute(JmpiRun first, PrintStream out, PrintStream err, Map<String, String> environment,
                String... args) {
            List<List<String>> segments = splitMpmd(List.of(args));
            CommandLine cl = commandLine(first, out, err);
            if (segments.size() == 1) {
                return cl.execute(args);
            }
            // MPMD: parse every context, then run the first with the others attached
            List<JmpiRun> more = new ArrayList<>();
            try {
                cl.parseArgs(segments.get(0).toArray(String[]::new));
                for (int i = 1; i < segments.size(); i++) {
                    JmpiRun app = new JmpiRun(out, err, environment);
                    CommandLine c = commandLine(app, out, err);
                    CommandLine.ParseResult pr = c.parseArgs(segments.get(i).toArray(String[]::new));
                    for (CommandLine.Model.OptionSpec o : pr.matchedOptions()) {
                        if (java.util.Arrays.stream(o.names()).noneMatch(PER_APP::contains)) {
                            err.println("jmpirun: " + o.longestName() + " applies to the whole job: give it in the "
                                    + "first application context, before any ':'");
                            return USAGE_ERROR;
                        }
                    }
                    more.add(app);
                }
            } catch (CommandLine.ParameterException e) {
                err.println("jmpirun: " + e.getMessage());
                return USAGE_ERROR;
            }
            try {
                return first.run(more);
            } catch (Exception e) {
                err.println("jmpirun: " + e);
                return 1;
            }
        }

        /** A picocli command line for {@code run}, as jmpirun configures it (also for tests). */
        static CommandLine commandLine(JmpiRun run, PrintStream out, PrintStream err) {
            CommandLine cl = new CommandLine(run);
            cl.setStopAtPositional(true);
            cl.setExpandAtFiles(false); // "@name" is an argument of the program, never a file of options
            cl.setOut(new PrintWriter(out, true, Charset.defaultCharset()));
            cl.setErr(new PrintWriter(err, true, Charset.defaultCharset()));
            cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
                err.println("jmpirun: " + e);
                return 1;
            });
            return cl;
        }
    }

    /** Splits the command line at every bare ":" (MPMD application contexts). */
    static List<List<String>> splitMpmd(List<String> args) {
        List<List<String>> out = new ArrayList<>();
        List<String> cur = new ArrayList<>();
        boolean afterDashDash = false;
        for (String a : args) {
            if (a.equals("--")) {
                afterDashDash = true;
            }
            if (a.equals(":") && !afterDashDash) {
                out.add(cur);
                cur = new ArrayList<>();
            } else {
                cur.add(a);
            }
        }
        out.add(cur);
        return out;
    }

    @Override
    public Integer call() throws Exception {
        return run(List.of());
    }

    private int run(List<JmpiRun> moreApps) throws Exception {
        org.jmpi.shared.StartupTrace.mark("jmpirun: command line parsed");
        if (!api.equals("ompi") && !api.equals("mpj")) {
            err.println("jmpirun: --api takes ompi or mpj, not '" + api + "'");
            return USAGE_ERROR;
        }
        if (mpj() && mpjJar() == null) {
            err.println("jmpirun: --api mpj needs lib/jmpi-mpj.jar beside " + Launcher.jmpiClassPath().get(0)
                    + ", which is not there");
            return USAGE_ERROR;
        }
        if (printClasspath) {
            out.println(joinPaths(mpj() ? List.of(mpjJar()) : Launcher.jmpiClassPath()));
            return 0;
        }
        if (printJavaOptions) {
            out.println(String.join(" ", JavaCommand.RANK_JVM_OPTIONS));
            return 0;
        }
        if (printInfo) {
            org.jmpi.tools.MpiT.describe().forEach(out::println);
            return 0;
        }
        if (kvsServer) {
            return runKvsServer();
        }
        if (mainClass == null) {
            err.println("jmpirun: no main class or program given (try jmpirun --help)");
            return USAGE_ERROR;
        }
        Duration timeout;
        try {
            timeout = timeout();
        } catch (IllegalArgumentException e) {
            err.println("jmpirun: " + e.getMessage());
            return USAGE_ERROR;
        }
        CheckpointRestart ckpt;
        try {
            ckpt = checkpointFlags();
        } catch (IllegalArgumentException e) {
            err.println("jmpirun: " + e.getMessage());
            return USAGE_ERROR;
        }
        String fresh = ckpt.freshStartNote();
        if (fresh != null) {
            err.println(fresh);
        }
        if (threads) {
            Runnable clear = checkpointProperties(ckpt);
            try {
                int code = runThreadsMode(moreApps, timeout);
                if (code == 0) {
                    ckpt.finished(err);
                }
                return code;
            } finally {
                clear.run();
            }
        }
        FileOutput files = outputDirectory == null ? null : new FileOutput(Path.of(outputDirectory));
        try {
            long deadline = timeout == null ? 0 : System.nanoTime() + timeout.toNanos();
            for (int attempt = 0; ; attempt++) {
                Duration left = timeout == null ? null : Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
                Object ended = runOnce(moreApps, left, files, ckpt.environment(attempt), attempt == 0);
                if (ended instanceof Integer setupError) {
                    return setupError;
                }
                LaunchResult r = (LaunchResult) ended;
                boolean again = ckpt.restartAfter(r, attempt) && (timeout == null || System.nanoTime() < deadline);
                if (!again) {
                    if (!r.summary().isEmpty()) {
                        err.println(r.summary());
                    }
                    if (r.exitCode() == 0) {
                        ckpt.finished(err);
                    }
                    return r.exitCode();
                }
                err.println(ckpt.restartLine(r, attempt + 1));
            }
        } finally {
            if (files != null) {
                files.close();
            }
        }
    }

    /** The checkpoint flags, checked ({@link CheckpointRestart}); notes for flags that change nothing. */
    private CheckpointRestart checkpointFlags() {
        if (ckpointLib != null) {
            err.println("jmpirun: note: -ckpointlib " + ckpointLib + " is ignored: jmpi checkpoints are taken by the "
                    + "program (org.jmpi.ft.Checkpoint), in -ckpoint-prefix");
        }
        if (restartOnFailure != null && continueOnFailure) {
            throw new IllegalArgumentException("--restart-on-failure and --continue-on-failure contradict each other "
                    + "(a failure either ends the run and restarts the job, or the survivors go on)");
        }
        if (restartOnFailure != null && threads) {
            throw new IllegalArgumentException("--restart-on-failure restarts processes; it does not apply with "
                    + "--threads");
        }
        return CheckpointRestart.of(ckpointPrefix, ckpointInterval, ckpointNum, ckpointKeep, restartOnFailure,
                environment);
    }

    /** Threads mode: the checkpoint settings as system properties ({@code jmpi.ckpt.*}); returns their removal. */
    private static Runnable checkpointProperties(CheckpointRestart ckpt) {
        if (!ckpt.checkpointing()) {
            return () -> { };
        }
        List<String> set = new ArrayList<>();
        for (Map.Entry<String, String> e : ckpt.environment(0).entrySet()) {
            String property = e.getKey().toLowerCase(Locale.ROOT).replace('_', '.');
            System.setProperty(property, e.getValue());
            set.add(property);
        }
        return () -> set.forEach(System::clearProperty);
    }

    /**
     * One run of the job in processes mode with the extra variables {@code attemptEnv}. Returns its
     * {@link LaunchResult}, or an Integer exit code when it could not start (a usage error); prints everything but the
     * result's summary.
     */
    private Object runOnce(List<JmpiRun> moreApps, Duration timeout, FileOutput files, Map<String, String> attemptEnv,
            boolean first) throws Exception {
        Launcher.Builder b;
        try {
            b = configure(timeout, moreApps, attemptEnv, first);
        } catch (IllegalArgumentException | HostListException e) {
            err.println("jmpirun: " + e.getMessage());
            return USAGE_ERROR;
        }
        Profiling prof;
        try {
            prof = Profiling.of(tools, summary || summarySvg != null, check, trace, userClassPath());
            if (prof != null) {
                prof.summarySvg = summarySvg == null ? null : Path.of(summarySvg).toAbsolutePath();
                prof.apply(b, mpj() ? mpjJar() : Launcher.jmpiClassPath().get(0));
            }
            if (jfr != null) {
                b.jvmArgs(JfrRecording.rankOption(Path.of(jfr), environment));
                b.env("JMPI_JFR_COUNTERS", "1");
            }
        } catch (IllegalArgumentException e) {
            err.println("jmpirun: " + e.getMessage());
            return USAGE_ERROR;
        }
        if (files != null) {
            b.output(files);
        }
        AutoCloseable names;
        try {
            names = DynamicProcessSupport.nameService(b, environment, nameserver);
        } catch (java.io.IOException e) {
            err.println("jmpirun: cannot start the name service: " + e.getMessage());
            return 1;
        }
        Launcher launcher;
        try {
            launcher = b.build();
        } catch (IllegalArgumentException e) {
            err.println("jmpirun: " + e.getMessage());
            if (names != null) {
                names.close();
            }
            return USAGE_ERROR;
        }
        for (JmpiRun app : concat(this, moreApps)) {
            if (app.missingMainClass != null) {
                // exit code 1, as java's
                err.println("jmpirun: " + app.missingMainClass);
                if (names != null) {
                    names.close();
                }
                return 1;
            }
        }
        if (verbose) {
            Placement p = launcher.placement();
            for (int h = 0; h < p.hosts().size(); h++) {
                List<Integer> rs = p.ranksOn(h);
                if (!rs.isEmpty()) {
                    err.println("jmpirun: host " + p.hosts().get(h).name() + ": ranks " + rs);
                }
            }
        }
        LaunchResult r;
        Signals.Deferred signals = installSignals ? Signals.installDeferred() : null;
        try (signals; names; Launcher.Job job = launcher.start()) {
            if (signals != null) {
                signals.attach(job);
            }
            DynamicProcessSupport.watchSpawningParent(environment, job);
            r = job.await();
        }
        if (prof != null) {
            prof.finish(err);
        }
        if (printAllExitCodes) {
            err.println("jmpirun: exit codes " + r.rankExitCodes());
        }
        return r;
    }

    /** {@code --threads}: the ranks as threads of this JVM. */
    private int runThreadsMode(List<JmpiRun> moreApps, Duration timeout) throws Exception {
        if (!moreApps.isEmpty() || !hostList.isEmpty() || hostfile != null) {
            err.println("jmpirun: --threads runs one application on this host; no ':' or host lists");
            return USAGE_ERROR;
        }
        if (!jvmArgs.isEmpty() || !exports.isEmpty()) {
            err.println("jmpirun: --jvm-arg and -x do not apply with --threads (the ranks share this JVM; use "
                    + "JMPI_LAUNCHER_JVM_ARGS and the environment of jmpirun instead)");
        }
        int n = ranks == null ? 1 : ranks;
        if (n < 1) {
            err.println("jmpirun: -n must be at least 1, not " + n);
            return USAGE_ERROR;
        }
        if (JavaCommand.isJava(mainClass) || exec) {
            err.println("jmpirun: --threads runs a main class in this JVM, not a program: give the class and its "
                    + "class path (jmpirun --threads -n " + n + " -cp app.jar org.example.Main)");
            return USAGE_ERROR;
        }
        Profiling prof;
        try {
            prof = Profiling.of(tools, summary || summarySvg != null, check, trace, userClassPath());
            if (prof != null) {
                prof.summarySvg = summarySvg == null ? null : Path.of(summarySvg).toAbsolutePath();
            }
        } catch (IllegalArgumentException e) {
            err.println("jmpirun: " + e.getMessage());
            return USAGE_ERROR;
        }
        java.io.Closeable recording;
        try {
            recording = jfr == null ? null : JfrRecording.startHere(Path.of(jfr), environment);
        } catch (IllegalArgumentException e) {
            err.println("jmpirun: " + e.getMessage());
            return USAGE_ERROR;
        }
        if (prof == null) {
            try {
                return runThreads(userClassPath(), timeout, n);
            } finally {
                if (recording != null) {
                    recording.close();
                }
            }
        }
        prof.applyThreads(mpj() ? mpjJar() : null);
        try {
            return runThreads(userClassPath(), timeout, n);
        } finally {
            org.jmpi.shared.RankClassLoader.transformMpiClasses(null);
            System.clearProperty("jmpi.tools");
            System.clearProperty("jmpi.summary.dir");
            System.clearProperty("jmpi.check.dir");
            System.clearProperty("jmpi.trace.dir");
            prof.finish(err);
            if (recording != null) {
                recording.close();
            }
        }
    }

    /**
     * Everything but the per-application settings, then one application per context. {@code attemptEnv} (the
     * checkpoint variables of this run) goes to every application; notes are printed on the {@code first} run only.
     */
    private Launcher.Builder configure(Duration timeout, List<JmpiRun> moreApps, Map<String, String> attemptEnv,
            boolean first) throws HostListException {
        Launcher.Builder b = Launcher.builder()
                .timeout(timeout)
                .tagOutput(tagOutput)
                .output(OutputConsumer.printing(out, err, tagOutput))
                .notices(err)
                .stdinToRank0(!noStdin)
                .dumpStacksOnTimeout(dumpOnTimeout)
                .continueOnFailure(continueOnFailure)
                .forwardAllEnvironment(genvAll && !genvNone);
        b.env(attemptEnv);
        if (verbose) {
            b.env("JMPI_VERBOSE", "1"); // each rank prints which transport serves which peer
        }
        if (bindTo != null) {
            Set<String> known = Set.of("none", "core", "socket", "hwthread", "numa", "l3cache", "board");
            if (!known.contains(bindTo.toLowerCase(Locale.ROOT).split(":")[0])) {
                throw new IllegalArgumentException("--bind-to " + bindTo + " is not a binding jmpirun knows");
            }
            String kind = bindTo.toLowerCase(Locale.ROOT).split(":")[0];
            // core and hwthread: the host proxy starts each rank under taskset -c CPU; any other: it binds none
            // (without the variable it binds the ranks of a host that runs one per CPU, see HostProxy#command)
            b.env("JMPI_BIND_TO", kind);
            if (!kind.equals("core") && !kind.equals("hwthread") && !kind.equals("none") && first) {
                err.println("jmpirun: note: --bind-to " + bindTo + " is accepted but JVM ranks are bound only to "
                        + "core or hwthread");
            }
        }
        // Open MPI parameters
        String mcaAgent = null;
        String mcaArgs = null;
        String mcaHostfile = null;
        String mcaIface = null;
        List<String> ignoredMca = new ArrayList<>();
        for (int i = 0; i + 1 < mca.size(); i += 2) {
            String k = mca.get(i);
            String v = mca.get(i + 1);
            switch (k) {
                case "plm_rsh_agent", "plm_ssh_agent" -> mcaAgent = v;
                case "plm_rsh_args", "plm_ssh_args" -> mcaArgs = v;
                case "orte_default_hostfile", "prte_default_hostfile" -> mcaHostfile = v;
                case "oob_tcp_if_include", "btl_tcp_if_include" -> mcaIface = v;
                case "orte_keep_fqdn_hostnames", "prte_keep_fqdn_hostnames" -> {
                    // host names are always kept as given
                }
                case "rmaps_base_oversubscribe" -> oversubscribe |= !v.equals("0") && !v.equalsIgnoreCase("false");
                default -> ignoredMca.add(k + " " + v);
            }
        }
        if (!ignoredMca.isEmpty() && first) {
            // scripts written for Open MPI pass tuning parameters (btl, shmem, pml, ...): go on without them
            err.println("jmpirun: warning: ignoring Open MPI parameters jmpi has no use for: --mca "
                    + String.join(", --mca ", ignoredMca) + " (jmpirun applies plm_rsh_agent, plm_rsh_args, "
                    + "orte_default_hostfile, oob_tcp_if_include, btl_tcp_if_include, orte_keep_fqdn_hostnames, "
                    + "rmaps_base_oversubscribe)");
        }
        HostDiscovery.Result found = HostDiscovery.discover(hostList, hostfile != null ? hostfile : mcaHostfile,
                environment);
        if (found.hosts() != null) {
            b.hosts(found.hosts());
            // MPI_Comm_spawn places children on the same hosts (org.jmpi.dpm.Spawner reads it)
            b.env("JMPI_HOSTS", found.hosts().stream()
                    .map(h -> h.slotsGiven() ? h.name() + ":" + h.slots() : h.name())
                    .collect(java.util.stream.Collectors.joining(",")));
        }
        if (perHost != null) {
            if (perHost < 1) {
                throw new IllegalArgumentException("-ppn must be at least 1, not " + perHost);
            }
            b.perHost(perHost);
        }
        if (mapBy != null) {
            String m = mapBy.trim().toLowerCase(Locale.ROOT);
            if (m.startsWith("ppr:")) {
                String[] f = m.split(":");
                if (f.length < 3 || !f[2].equals("node")) {
                    throw new IllegalArgumentException("--map-by " + mapBy + ": only ppr:N:node is supported");
                }
                try {
                    b.perHost(Integer.parseInt(f[1]));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--map-by " + mapBy + ": N must be a number", e);
                }
            } else {
                b.mapBy(Placement.MapBy.parse(m));
                if (m.endsWith(":oversubscribe")) {
                    oversubscribe = true;
                }
            }
        }
        if (noOversubscribe && oversubscribe) {
            throw new IllegalArgumentException("--oversubscribe and --nooversubscribe contradict each other");
        }
        b.oversubscribe(!noOversubscribe);
        String autofork = environment.get("HYDRA_LAUNCHER_AUTOFORK");
        b.autofork(!noAutofork && !"0".equals(autofork == null ? null : autofork.trim()));
        b.launchAgent(LaunchAgent.from(launcher, launcherExec != null ? launcherExec : mcaAgent, mcaArgs,
                environment));
        // and starts them the same way
        if (launcher != null) {
            b.env("JMPI_SPAWN_LAUNCHER", launcher);
        }
        if (launcherExec != null) {
            b.env("JMPI_SPAWN_LAUNCHER_EXEC", launcherExec);
        }
        String ifc = iface != null ? iface : mcaIface != null ? mcaIface : environment.get("HYDRA_IFACE");
        if (ifc != null && !ifc.isBlank()) {
            b.tcpHost(ifc.trim());
        }
        if (linkTimeoutSeconds != null) {
            if (linkTimeoutSeconds < 1) {
                throw new IllegalArgumentException("--link-timeout must be at least 1 second");
            }
            b.linkTimeout(Duration.ofSeconds(linkTimeoutSeconds));
        }
        String javaArgs = environment.get("JMPI_JVM_ARGS");
        List<String> envJvm = javaArgs == null || javaArgs.isBlank() ? List.of()
                : List.of(javaArgs.trim().split("\\s+"));
        int defaultRanks = found.hosts() == null ? 1 : found.hosts().stream().mapToInt(HostSpec::slots).sum();
        boolean firstApp = true;
        List<JmpiRun> all = new ArrayList<>();
        all.add(this);
        all.addAll(moreApps);
        for (JmpiRun app : all) {
            if (!firstApp) {
                b.nextApp();
            }
            app.configureApp(b, envJvm, firstApp ? defaultRanks : 1, environment);
            firstApp = false;
        }
        return b;
    }

    private void configureApp(Launcher.Builder b, List<String> envJvm, int defaultRanks, Map<String, String> env) {
        if (mainClass == null) {
            throw new IllegalArgumentException("an application context after ':' has no program");
        }
        int n = ranks == null ? defaultRanks : ranks;
        if (n < 1) {
            throw new IllegalArgumentException("-n must be at least 1, not " + n);
        }
        b.ranks(n);
        boolean isProgram = exec || mainClass.contains("/") || mainClass.equals("java");
        if (JavaCommand.isJava(mainClass) && mainClass.contains("/")) {
            // a java named by path runs as given, but one too old would fail every rank with a class version error
            String why = JavaCommand.tooOld(mainClass);
            if (why != null) {
                throw new IllegalArgumentException(why);
            }
        }
        if (isProgram) {
            b.exec(List.of(mainClass));
        } else {
            List<String> jvm = new ArrayList<>(envJvm);
            jvm.addAll(jvmArgs);
            if (surelyMissing(mainClass, userClassPath(), jvm)) {
                // said once, once the rest of the command line is known to be right, rather than by every rank's
                // JVM (and a rank torn down while its JVM starts adds lines of its own)
                missingMainClass = "Error: Could not find or load main class " + mainClass + " (not on the class "
                        + "path " + joinPaths(userClassPath()) + ")";
            }
            b.mainClass(mainClass);
            b.classpath(userClassPath());
            if (mpj()) {
                b.classpath(mpjJar());
                b.addJmpiClassPath(false);
            }
            b.jvmArgs(envJvm);
            b.jvmArgs(jvmArgs);
        }
        // mpirun -np 4 java ... Main: the java command gets jmpi's class path and the options ranks need
        b.args(JavaCommand.isJava(mainClass) ? JavaCommand.withJmpi(args, Launcher.jmpiClassPath(),
                env.get("CLASSPATH"), err) : programArgs());
        Map<String, String> vars = new LinkedHashMap<>();
        for (String x : exports) {
            int eq = x.indexOf('=');
            if (eq > 0) {
                vars.put(x.substring(0, eq), x.substring(eq + 1));
            } else if (eq == 0 || x.isBlank()) {
                throw new IllegalArgumentException("-x needs VAR or VAR=VALUE, not '" + x + "'");
            } else if (env.get(x) != null) {
                vars.put(x, env.get(x));
            }
        }
        for (int i = 0; i + 1 < genv.size(); i += 2) {
            vars.put(genv.get(i), genv.get(i + 1));
        }
        for (String list : genvList) {
            for (String v : list.split(",")) {
                if (!v.isBlank() && env.get(v.trim()) != null) {
                    vars.put(v.trim(), env.get(v.trim()));
                }
            }
        }
        b.env(vars);
        if (wdir != null) {
            b.workingDirectory(Path.of(wdir).toAbsolutePath());
        }
    }

    /** Set by {@link #configureApp} when this application's main class is on no entry of its class path. */
    private String missingMainClass;

    /** JVM options after which the class path alone no longer tells whether a class can be loaded. */
    private static final List<String> LOADING_OPTIONS = List.of("-Djava.system.class.loader", "-javaagent",
            "-agent", "-Xbootclasspath", "-p", "--module-path", "--upgrade-module-path", "--patch-module",
            "-Djava.class.path");

    /**
     * Whether class {@code name} is surely not on {@code classPath} nor in jmpi's jars or the JDK: only when every
     * entry exists here (another host may have one this host lacks) and none is a wildcard, and no JVM option changes
     * how classes load. Otherwise false, and the ranks' JVMs find out.
     */
    private static boolean surelyMissing(String name, List<Path> classPath, List<String> jvm) {
        if (name.endsWith(".java") || jvm.stream().anyMatch(a -> LOADING_OPTIONS.stream().anyMatch(a::startsWith))) {
            return false;
        }
        List<URL> urls = new ArrayList<>();
        List<Path> all = new ArrayList<>(classPath);
        all.addAll(Launcher.jmpiClassPath());
        for (Path p : all) {
            if (p.toString().endsWith("*") || !Files.exists(p)) {
                return false;
            }
            try {
                urls.add(p.toUri().toURL());
            } catch (MalformedURLException e) {
                return false;
            }
        }
        try (java.net.URLClassLoader loader = new java.net.URLClassLoader(urls.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader())) {
            return loader.getResource(name.replace('.', '/') + ".class") == null;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private List<Path> userClassPath() {
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
        return cp;
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

    private int runKvsServer() throws Exception {
        Duration timeout;
        try {
            timeout = timeout();
        } catch (IllegalArgumentException e) {
            err.println("jmpirun: " + e.getMessage());
            return USAGE_ERROR;
        }
        List<String> command = new ArrayList<>();
        int dashDash = rawArgs.indexOf("--");
        if (dashDash >= 0) {
            command.addAll(rawArgs.subList(dashDash + 1, rawArgs.size()));
        } else if (mainClass != null) {
            err.println("jmpirun: put the command to run after '--' (jmpirun --kvs-server -- mpirun ...)");
            return USAGE_ERROR;
        }
        return new KvsServer(out, err, kvsListen, timeout).run(command);
    }

    private int runThreads(List<Path> cp, Duration timeout, int n) throws Exception {
        List<Path> all = new ArrayList<>(cp);
        for (Path p : mpj() ? List.of(mpjJar()) : Launcher.jmpiClassPath()) {
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
        try (AutoCloseable names = DynamicProcessSupport.threadsNameService(environment, nameserver)) {
            return new ThreadsRun(err).run(n, urls, mainClass, programArgs().toArray(String[]::new), tagOutput,
                    timeout, installSignals);
        }
    }

    private boolean mpj() {
        return api.equals("mpj");
    }

    /** The MPJ Express API's jar of this distribution (lib/jmpi-mpj.jar beside jmpi-core.jar), or null. */
    private static Path mpjJar() {
        Path core = Launcher.jmpiClassPath().get(0);
        Path lib = core.getParent();
        Path jar = lib == null ? null : lib.resolve("jmpi-mpj.jar");
        return jar != null && Files.isRegularFile(jar) ? jar : null;
    }

    /**
     * The program's arguments; with --api mpj after MPJ Express's three leading ones (rank, configuration, device),
     * which mpi.MPI.Init recognises by the second, sets the first to the rank and leaves out of what it returns.
     */
    private List<String> programArgs() {
        if (!mpj()) {
            return args;
        }
        List<String> all = new ArrayList<>(List.of("0", "jmpi-mpj", threads ? "multicore" : "niodev"));
        all.addAll(args);
        return all;
    }

    private static List<JmpiRun> concat(JmpiRun first, List<JmpiRun> more) {
        List<JmpiRun> all = new ArrayList<>();
        all.add(first);
        all.addAll(more);
        return all;
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

    /**
     * The examples jar and the training library of a distribution (lib/jmpi-examples.jar and lib/jmpi-dl.jar beside
     * jmpi-core.jar), so that their programs run out of the box.
     */
    private static List<Path> bundledExamples() {
        List<Path> out = new ArrayList<>();
        for (Path core : Launcher.jmpiClassPath()) {
            Path dir = core.getParent();
            if (dir != null && core.getFileName().toString().endsWith(".jar")) {
                for (String jar : List.of("jmpi-examples.jar", "jmpi-dl.jar")) {
                    Path p = dir.resolve(jar);
                    if (Files.isRegularFile(p)) {
                        out.add(p);
                    }
                }
            }
        }
        return out;
    }

    /** {@code --output-filename DIR}: Open MPI's layout, {@code DIR/1/rank.N/stdout} and {@code stderr}. */
    static final class FileOutput implements OutputConsumer, AutoCloseable {
        private final Path dir;
        private final Map<String, PrintStream> streams = new LinkedHashMap<>();

        FileOutput(Path dir) {
            this.dir = dir;
        }

        @Override
        public synchronized void line(int rank, boolean stderr, String line) {
            String key = rank + (stderr ? "e" : "o");
            PrintStream s = streams.get(key);
            if (s == null) {
                try {
                    Path d = dir.resolve("1").resolve("rank." + rank);
                    Files.createDirectories(d);
                    s = new PrintStream(Files.newOutputStream(d.resolve(stderr ? "stderr" : "stdout")), true,
                            Charset.defaultCharset());
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                streams.put(key, s);
            }
            s.println(line);
        }

        @Override
        public synchronized void close() {
            streams.values().forEach(PrintStream::close);
        }
    }
}
