package org.jmpi.launcher.proxy;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jmpi.launcher.pmi.PmiServer;
import org.jmpi.launcher.proxy.ControlMessage.Aborted;
import org.jmpi.launcher.proxy.ControlMessage.Exited;
import org.jmpi.launcher.proxy.ControlMessage.FenceIn;
import org.jmpi.launcher.proxy.ControlMessage.FenceOut;
import org.jmpi.launcher.proxy.ControlMessage.Heartbeat;
import org.jmpi.launcher.proxy.ControlMessage.Notice;
import org.jmpi.launcher.proxy.ControlMessage.Output;
import org.jmpi.launcher.proxy.ControlMessage.ProtocolError;
import org.jmpi.launcher.proxy.ControlMessage.RankFailed;
import org.jmpi.launcher.proxy.ControlMessage.Signal;
import org.jmpi.launcher.proxy.ControlMessage.Started;
import org.jmpi.launcher.proxy.ControlMessage.Stdin;
import org.jmpi.launcher.proxy.ControlMessage.StdinEof;
import org.jmpi.launcher.proxy.ProxySpec.RankLaunch;
import org.jmpi.runtime.JitHints;

/**
 * jmpirun's agent on one host: starts that host's ranks, serves their PMI requests on loopback, pumps their output
 * to the front end, reports how each ended, and kills them when told to or when it loses the front end.
 *
 * <p>A proxy for the host jmpirun runs on lives in jmpirun's own JVM ({@link #handle} is then called directly); on
 * other hosts {@link ProxyMain} runs one, started through ssh (or srun), talking {@link ControlMessage}s over the
 * ssh session's standard input and output.
 *
 * <p>Rank environment, in increasing precedence: the proxy's environment (less inherited {@code PMI_*},
 * {@code PMIX_*}, {@code JMPI_KVS}); {@code JMPI_TCP_HOST} when the job spans hosts and nothing else sets it; the
 * spec's variables; the rank's own ({@code JMPI_RANK}, {@code MPI_LOCALRANKID}, ...); and last the ones only the proxy
 * knows: {@code PMI_PORT} (its PMI server), {@code PMI_ID}, {@code JMPI_SECRET} and, with --continue-on-failure,
 * {@code JMPI_FT=1}.
 *
 * <p>Ending: when a rank's process exits, the proxy waits (at most 2 s) until the PMI server has read what the rank
 * sent before dying (an abort, say) and until its output is drained, then reports {@link Exited}. {@code TERM}
 * sends SIGTERM to every rank and everything it started, then SIGKILL after the grace period; the proxy arms that
 * SIGKILL itself, so it happens even if the front end is gone. {@link #close()} then removes the job's shared-memory
 * segment files on this host, which ranks killed before MPI_Finalize leave in {@code /dev/shm}.
 *
 * <p>Threading: {@code lock} guards the process table, the pending fence and the rank counters. Exit watchers,
 * output pumps and PMI connections run on platform daemon threads (three per rank, one per PMI connection): never
 * virtual threads, whose progress depends on the embedding JVM's scheduler having a free carrier (see
 * {@link PmiServer}); {@code upstream} must accept messages from any thread
 * (the remote link serialises writes). {@link #handle} may be called from any thread.
 */
public final class HostProxy implements AutoCloseable {
    private final ProxySpec spec;
    private final Map<String, String> baseEnv;
    private final Consumer<ControlMessage> upstream;
    private final Runnable onAllExited;
    private final Object lock = new Object();
    private final Map<Integer, Process> processes = new LinkedHashMap<>();
    private final List<ProcessHandle> descendants = new ArrayList<>();
    private final List<Thread> watchers = new ArrayList<>();
    private PmiServer server;
    private CompletableFuture<Map<String, String>> pendingFence;
    private OutputStream forwardedStdin;
    private int running;
    private boolean terminating;
    private boolean closed;

    /**
     * @param baseEnv the environment ranks start from (the proxy's own)
     * @param upstream where messages for the front end go
     * @param onAllExited called once, after the last rank's {@link Exited} has been sent
     */
    public HostProxy(ProxySpec spec, Map<String, String> baseEnv, Consumer<ControlMessage> upstream,
            Runnable onAllExited) {
        this.spec = spec;
        this.baseEnv = Map.copyOf(baseEnv);
        this.upstream = upstream;
        this.onAllExited = onAllExited;
    }

    public ProxySpec spec() {
        return spec;
    }

    /** The PMI server's {@code host:port} (the ranks' {@code PMI_PORT}); "" before {@link #start()}. */
    public String pmiAddress() {
        return server == null ? "" : server.address();
    }

    /** Starts the PMI server and every rank of this host. A rank that cannot be started exits with code 127. */
    public void start() throws IOException {
        server = PmiServer.options(spec.size(), spec.jobId())
                .secret(spec.secret())
                .trusted(this::rankProcesses)
                .localRanks(spec.rankNumbers())
                .mapping(spec.mapping())
                .appnums(spec.appnums())
                .fence(this::fence)
                .survivorsContinue(spec.continueOnFailure())
                .listener(new PmiServer.Listener() {
                    @Override
                    public void aborted(int rank, int exitCode, String message) {
                        upstream.accept(new Aborted(rank, exitCode, message));
                    }

                    @Override
                    public void protocolError(int rank, String message) {
                        upstream.accept(new ProtocolError(rank, message));
                    }

                    @Override
                    public void refused(String remote, String reason) {
                        upstream.accept(new Notice("host " + spec.hostName() + ": refused a PMI connection from "
                                + remote + ": " + reason));
                    }

                    @Override
                    public void agreementRequest(int rank, String line) {
                        upstream.accept(new ControlMessage.AgreementRequest(rank, line));
                    }
                })
                .build();
        server.start();
        synchronized (lock) {
            running = spec.ranks().size();
        }
        if (spec.ranks().isEmpty()) {
            onAllExited.run();
            return;
        }
        for (RankLaunch r : spec.ranks()) {
            startRank(r);
        }
    }

    private void startRank(RankLaunch r) {
        Map<String, String> rankEnv = rankEnvironment(r);
        List<String> argv = command(r, rankEnv);
        ProcessBuilder pb = new ProcessBuilder(argv);
        Map<String, String> env = pb.environment();
        env.clear();
        env.putAll(rankEnv);
        if (r.workingDirectory() != null && !r.workingDirectory().isEmpty()) {
            pb.directory(new File(r.workingDirectory()));
        }
        switch (r.stdin()) {
            case INHERIT -> pb.redirectInput(ProcessBuilder.Redirect.INHERIT);
            case NONE -> pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            case FORWARDED -> pb.redirectInput(ProcessBuilder.Redirect.PIPE);
        }
        Process p = null;
        String failure = null;
        synchronized (lock) {
            if (terminating || closed) {
                failure = "the job is ending";
            } else {
                try {
                    p = RankForker.start(pb); // from the forker thread: see RankForker for why
                    processes.put(r.rank(), p);
                } catch (IOException | RuntimeException e) {
                    failure = e.getMessage();
                }
            }
        }
        if (failure != null) {
            reportNotStarted(r, failure);
            return;
        }
        synchronized (lock) {
            if (r.stdin() == ProxySpec.Stdin.FORWARDED) {
                forwardedStdin = p.getOutputStream();
            } else {
                closeQuietly(p.getOutputStream());
            }
        }
        upstream.accept(new Started(r.rank(), p.pid()));
        Process proc = p;
        // the JVM announces jmpi's directives file on standard output, before the program runs: not the program's
        // output (a directives file of the user's is left to say what it says)
        boolean directives = addedDirectives(argv);
        Thread out = pump(r.rank(), false, p.getInputStream(), directives ? JitHints.DIRECTIVES_NOTICE : null);
        Thread err = pump(r.rank(), true, p.getErrorStream(), null);
        Thread w = Thread.ofPlatform().daemon().name("jmpi-exit-" + r.rank()).start(() -> watch(r.rank(), proc, out, err));
        synchronized (lock) {
            watchers.add(w);
        }
    }

    private void reportNotStarted(RankLaunch r, String why) {
        upstream.accept(new Output(r.rank(), true, "jmpirun: cannot start rank " + r.rank() + " on "
                + spec.hostName() + " (" + String.join(" ", r.argv()) + "): " + why));
        server.rankExited(r.rank());
        upstream.accept(new Exited(r.rank(), 127, false, false));
        countExit();
    }

    /**
     * The command that starts rank {@code r}: its argv, with four adjustments for JVM ranks.
     * <ul>
     * <li>A bare {@code java} (Open MPI's {@code mpirun -np 4 java Main}) is this proxy's own java, the JDK jmpi runs
     * on, not the first {@code java} on the PATH (often an older default JDK, on which every rank would fail with
     * a class version error).</li>
     * <li>When this host runs at least as many ranks as it has processors and the command is a {@code java} that
     * chooses no garbage collector, {@code -XX:+UseSerialGC} is added: each rank then has a core or less, which is
     * what the JVM itself treats as a machine for the serial collector, and G1's concurrent threads would only take
     * the core away from a rank's partner while it waits for a message (measured: 2-rank barrier and ping-pong times
     * scattered over 2-10x their best; a user's {@code -XX:+Use...GC} wins).</li>
     * <li>When the command is a {@code java}, {@link JitHints#JVM_OPTIONS} come first (unless {@code
     * JMPI_JIT_HINTS=0}), and {@link JitHints#directives()}, which keep jmpi's runtime out of C2, as a file named on
     * the command line (unless {@code JMPI_JIT_DIRECTIVES=0} or the command has a directives file of its own): the
     * JVM reads it at start, so that {@code MPI_Init} need not give them itself
     * ({@link JitHints#directiveOptions(boolean)}); for a rank bound to a core (below), whose compiler threads share
     * that core, they have jmpi's methods compiled in the foreground. The JVM's note that it read them, the first line
     * of the rank's standard output, is dropped.</li>
     * <li>With {@code JMPI_BIND_TO=core} (or {@code hwthread}; {@code jmpirun --bind-to core}) the command runs under
     * {@code taskset -c CPU}, the local rank's CPU in turn among those this proxy may use, so every thread of the JVM
     * stays on that CPU, as {@code mpiexec -bind-to core} does for native ranks. Without {@code JMPI_BIND_TO} the same
     * when this host runs exactly one rank per CPU it may use (as Open MPI binds a 2-rank job by default): a JVM
     * rank's compiler and collector threads then take the time of their own rank's CPU, not of a partner's that
     * another rank waits for. Cold, 2 ranks on 2 cores, against the same job unbound (6 interleaved gated rounds,
     * 2026-12-01): Jacobi 1024^2 x 500 0.89 times the time, 256^2 x 5000 0.91, N-body 0.96, OMB-J 0.95-1.00 on the
     * geometric mean of each case. With fewer ranks than CPUs a rank's JIT can use the idle ones; with more, ranks
     * share CPUs anyway; with {@code JMPI_HOST_CPUS} the host's share of the CPUs is given (hosts emulated on one
     * machine): all three run unbound.</li>
     * </ul>
     */
    List<String> command(RankLaunch r, Map<String, String> env) {
        List<String> argv = new ArrayList<>(r.argv());
        if (argv.isEmpty()) {
            return argv;
        }
        if (argv.get(0).equals("java")) {
            // mpirun -np 4 java Main: the JDK jmpi runs on (this proxy's), not whichever java is first on the PATH
            argv.set(0, OWN_JAVA);
        }
        int cpus = Runtime.getRuntime().availableProcessors();
        String exe = new File(argv.get(0)).getName();
        boolean java = exe.equals("java");
        if (java && spec.ranks().size() >= cpus && argv.stream().noneMatch(a -> a.matches("-XX:[+-]Use\\w*GC"))
                && !"0".equals(env.get("JMPI_SERIAL_GC"))) {
            argv.add(1, "-XX:+UseSerialGC");
        }
        String asked = env.get("JMPI_BIND_TO");
        List<Integer> allowed = allowedCpus();
        String bind = asked != null || allowed.size() != spec.ranks().size() || env.get("JMPI_HOST_CPUS") != null
                ? asked : "core";
        File taskset = new File("/usr/bin/taskset");
        boolean binding = bind != null && (bind.equalsIgnoreCase("core") || bind.equalsIgnoreCase("hwthread"));
        boolean bound = binding && !allowed.isEmpty() && taskset.canExecute();
        if (java && !"0".equals(env.get("JMPI_JIT_HINTS"))) {
            argv.addAll(1, JitHints.JVM_OPTIONS);
            if (!"0".equals(env.get("JMPI_JIT_DIRECTIVES")) && argv.stream().noneMatch(
                    a -> a.startsWith("-XX:CompilerDirectivesFile=") || a.equals("-XX:-UnlockDiagnosticVMOptions"))) {
                argv.addAll(1, directiveOptions(bound)); // bound: its compiler threads share its core
            }
        }
        if (bound) {
            int cpu = allowed.get(Math.floorMod(r.localRank(), allowed.size()));
            argv.addAll(0, List.of(taskset.getPath(), "-c", Integer.toString(cpu)));
            // a bound rank sees one processor; the runtime needs the host's count to tell whether it is crowded
            env.putIfAbsent("JMPI_HOST_CPUS", Integer.toString(allowed.size()));
        } else if (binding && asked != null && bindNoted.compareAndSet(false, true)) {
            upstream.accept(new Notice("host " + spec.hostName() + ": --bind-to " + bind + " needs taskset "
                    + "(util-linux) and a readable CPU list; ranks run unbound"));
        }
        return argv;
    }

    private final AtomicBoolean bindNoted = new AtomicBoolean();

    /**
     * {@link JitHints#directiveOptions(boolean)}, made once for each {@code foreground}; none if its file cannot be
     * written (noted).
     */
    private List<String> directiveOptions(boolean foreground) {
        String failure = null;
        List<String> options;
        synchronized (lock) {
            options = foreground ? foregroundOptions : backgroundOptions;
            if (options == null) {
                try {
                    options = JitHints.directiveOptions(foreground);
                } catch (IOException | RuntimeException e) {
                    options = List.of();
                    failure = e.getMessage();
                }
                if (foreground) {
                    foregroundOptions = options;
                } else {
                    backgroundOptions = options;
                }
            }
        }
        if (failure != null) {
            upstream.accept(new Notice("host " + spec.hostName() + ": cannot write the JIT directives (" + failure
                    + "); ranks run without them"));
        }
        return options;
    }

    /** {@link #directiveOptions(boolean)}'s options in the background and in the foreground, null until made. */
    private List<String> backgroundOptions;
    private List<String> foregroundOptions;

    /** Whether {@link #command} gave {@code argv} jmpi's directives file. */
    private boolean addedDirectives(List<String> argv) {
        List<List<String>> ours = new ArrayList<>(2);
        synchronized (lock) {
            ours.add(backgroundOptions);
            ours.add(foregroundOptions);
        }
        for (List<String> o : ours) {
            if (o != null && !o.isEmpty() && java.util.Collections.indexOfSubList(argv, o) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** The java of the JDK this proxy runs on: what a rank command's bare {@code java} means. */
    private static final String OWN_JAVA = new File(new File(System.getProperty("java.home"), "bin"), "java")
            .getPath();

    /** The CPUs this process may run on ({@code Cpus_allowed_list} of /proc/self/status), or none if unknown. */
    static List<Integer> allowedCpus() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parseCpuList(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or unreadable: unknown
        }
        return List.of();
    }

    /** Parses a Linux CPU list such as {@code 0-3,8,10-11}. */
    static List<Integer> parseCpuList(String list) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : list.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            String[] ends = part.trim().split("-");
            int from = Integer.parseInt(ends[0]);
            int to = ends.length > 1 ? Integer.parseInt(ends[1]) : from;
            for (int c = from; c <= to; c++) {
                cpus.add(c);
            }
        }
        return cpus;
    }

    /** The environment of one rank (see the class comment for the order). */
    Map<String, String> rankEnvironment(RankLaunch r) {
        Map<String, String> env = new HashMap<>(baseEnv);
        env.keySet().removeIf(k -> k.startsWith("PMI_") || k.startsWith("PMIX_") || k.equals("JMPI_KVS")
                || k.startsWith("OMPI_COMM_WORLD_") || k.equals("JMPI_FT"));
        String tcpHost = tcpHost();
        if (tcpHost != null && !env.containsKey("JMPI_TCP_HOST") && !spec.env().containsKey("JMPI_TCP_HOST")
                && !r.env().containsKey("JMPI_TCP_HOST")) {
            env.put("JMPI_TCP_HOST", tcpHost);
        }
        env.putAll(spec.env());
        env.putAll(r.env());
        env.put("PMI_PORT", server.address());
        env.put("PMI_ID", Integer.toString(r.rank()));
        env.put("PMI_RANK", Integer.toString(r.rank()));
        env.put("PMI_SIZE", Integer.toString(spec.size()));
        env.put("JMPI_SECRET", spec.secret());
        // the rank arms its parent-death signal against this process (see RankForker and Lifeline)
        env.put(org.jmpi.bootstrap.Lifeline.PARENT_PID_VARIABLE, Long.toString(ProcessHandle.current().pid()));
        if (spec.continueOnFailure()) {
            env.put("JMPI_FT", "1");
        }
        return env;
    }

    /** JMPI_TCP_HOST for this host's ranks, or null for the default. */
    private String tcpHost() {
        String h = spec.tcpHost();
        if (h == null || !h.equals("@ssh")) {
            return h;
        }
        String ssh = baseEnv.get("SSH_CONNECTION"); // client-ip client-port server-ip server-port
        if (ssh != null) {
            String[] f = ssh.trim().split("\\s+");
            if (f.length == 4) {
                return f[2];
            }
        }
        return "*";
    }

    /** Forwards a rank's output line by line; {@code dropFirst}: a first line that is exactly this is not forwarded. */
    private Thread pump(int rank, boolean stderr, InputStream in, String dropFirst) {
        return Thread.ofPlatform().daemon().name("jmpi-out-" + rank + (stderr ? "-err" : "-out")).start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, Charset.defaultCharset()))) {
                String line = reader.readLine();
                if (line != null && line.equals(dropFirst)) {
                    line = reader.readLine();
                }
                for (; line != null; line = reader.readLine()) {
                    upstream.accept(new Output(rank, stderr, line));
                }
            } catch (IOException | RuntimeException e) {
                // the stream ended abruptly: the rank died
            }
        });
    }

    private void watch(int rank, Process p, Thread out, Thread err) {
        int code;
        try {
            code = p.waitFor();
            // Let the server read whatever the rank sent before it died (an abort, say), and drain its output.
            // The pumps end as soon as the pipes close (at once, unless a child of the rank holds them open); the
            // generous bound matters on a loaded machine, where a lost last line (the error that ended the job) is
            // worse than a late exit report.
            server.awaitDisconnected(rank, Duration.ofSeconds(2));
            out.join(Duration.ofSeconds(10));
            err.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            code = p.isAlive() ? 137 : p.exitValue();
        }
        boolean init = server.initialized(rank);
        boolean fin = server.finalized(rank);
        server.rankExited(rank);
        upstream.accept(new Exited(rank, code, init, fin));
        countExit();
    }

    private void countExit() {
        boolean last;
        synchronized (lock) {
            last = --running == 0;
        }
        if (last) {
            onAllExited.run();
        }
    }

    /** The rank processes of this host and what they started (trusted by the PMI server without the secret). */
    private List<ProcessHandle> rankProcesses() {
        List<ProcessHandle> all = new ArrayList<>();
        List<Process> ps;
        synchronized (lock) {
            ps = new ArrayList<>(processes.values());
        }
        for (Process p : ps) {
            if (p.isAlive()) {
                all.add(p.toHandle());
                p.descendants().forEach(all::add);
            }
        }
        return all;
    }

    /** PMI fence: forward this host's puts, answer when the front end says every host is in. */
    private CompletableFuture<Map<String, String>> fence(Map<String, String> puts) {
        CompletableFuture<Map<String, String>> f = new CompletableFuture<>();
        synchronized (lock) {
            if (pendingFence != null) {
                return CompletableFuture.failedFuture(new IllegalStateException("two fences at once"));
            }
            pendingFence = f;
        }
        upstream.accept(new FenceIn(puts));
        return f;
    }

    /** A message from the front end. */
    public void handle(ControlMessage m) {
        switch (m) {
            case FenceOut f -> {
                CompletableFuture<Map<String, String>> pending;
                synchronized (lock) {
                    pending = pendingFence;
                    pendingFence = null;
                }
                if (pending != null) {
                    pending.complete(f.values());
                }
            }
            case Stdin s -> {
                OutputStream o;
                synchronized (lock) {
                    o = forwardedStdin;
                }
                if (o != null) {
                    try {
                        o.write(s.bytes());
                        o.flush();
                    } catch (IOException e) {
                        // rank 0 is gone or closed its input
                    }
                }
            }
            case StdinEof e -> {
                OutputStream o;
                synchronized (lock) {
                    o = forwardedStdin;
                    forwardedStdin = null;
                }
                if (o != null) {
                    closeQuietly(o);
                }
            }
            case Signal s -> signal(s.signal());
            case RankFailed f -> {
                if (server != null) {
                    server.notifyFailure(f.rank(), f.reason());
                }
            }
            case ControlMessage.AgreementDecision d -> {
                if (server != null) {
                    server.broadcastNotice(d.line());
                }
            }
            case Heartbeat h -> {
                // the link is alive; the remote side's watchdog counts any message
            }
            default -> upstream.accept(new Notice("host " + spec.hostName() + ": unexpected control message "
                    + m.getClass().getSimpleName()));
        }
    }

    /** Delivers a signal to every rank of this host (see {@link Signal}). */
    public void signal(int signal) {
        switch (signal) {
            case Signal.TERM -> terminate();
            case Signal.KILL -> killNow();
            default -> {
                List<Process> ps;
                synchronized (lock) {
                    ps = new ArrayList<>(processes.values());
                }
                for (Process p : ps) {
                    if (p.isAlive()) {
                        sendSignal(p.pid(), signal);
                    }
                }
            }
        }
    }

    /** Number of live ranks signalled by a thread-dump request (for {@code Job.dumpStacks}). */
    public int liveRanks() {
        synchronized (lock) {
            return (int) processes.values().stream().filter(Process::isAlive).count();
        }
    }

    /** SIGTERM to every rank and its descendants now, SIGKILL to whatever is left after the grace period. */
    public void terminate() {
        List<Process> ps;
        synchronized (lock) {
            if (terminating) {
                return;
            }
            terminating = true;
            ps = new ArrayList<>(processes.values());
            for (Process p : ps) {
                if (p.isAlive()) {
                    p.descendants().forEach(descendants::add);
                }
            }
        }
        List<ProcessHandle> ds;
        synchronized (lock) {
            ds = new ArrayList<>(descendants);
        }
        ds.forEach(ProcessHandle::destroy);
        // signal through the handle: Process.destroy() would also close the pipes the pumps still read from, and
        // the lines the rank wrote before the signal (still in the pipe) would be lost
        ps.forEach(p -> p.toHandle().destroy());
        Thread.ofPlatform().daemon().name("jmpi-kill-after-grace").start(() -> {
            try {
                Thread.sleep(spec.graceMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            killNow();
        });
    }

    /** SIGKILL to every rank and everything it started. */
    public void killNow() {
        List<Process> ps;
        List<ProcessHandle> ds;
        synchronized (lock) {
            terminating = true;
            ps = new ArrayList<>(processes.values());
            for (Process p : ps) {
                if (p.isAlive()) {
                    p.descendants().forEach(descendants::add);
                }
            }
            ds = new ArrayList<>(descendants);
        }
        for (ProcessHandle d : ds) {
            if (d.isAlive()) {
                d.destroyForcibly();
            }
        }
        for (Process p : ps) {
            if (p.isAlive()) {
                p.toHandle().destroyForcibly(); // not p.destroyForcibly(): that closes the output pipes (see above)
            }
        }
    }

    /** Waits until every rank's exit has been reported, at most {@code timeout}; true if so. */
    public boolean awaitExits(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Thread> ws;
        synchronized (lock) {
            ws = new ArrayList<>(watchers);
        }
        for (Thread w : ws) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !w.join(Duration.ofNanos(left))) {
                return false;
            }
        }
        return true;
    }

    /** Kills whatever still runs (descendants included) and closes the PMI server. Idempotent. */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        killNow();
        if (server != null) {
            server.close();
        }
        removeSharedMemory();
    }

    /**
     * Removes the job's shared-memory segment files on this host ({@code /dev/shm/jmpi-<job id>-<rank>}), which ranks
     * killed before MPI_Finalize leave behind, in every directory a rank of this host was told to use: {@code /dev/shm},
     * {@code JMPI_SHM_DIR} of the proxy's, the job's or any rank's own environment ({@code jmpirun -x}), and
     * {@code -Djmpi.shm.dir=} among a rank's JVM options.
     *
     * <p>A file can only be created by a live rank, so the sweep runs once every rank process started here has been
     * reaped. {@link #killNow()} has sent SIGKILL to all of them; they are waited for at most
     * {@link #SWEEP_WAIT_MILLIS}. Should one still be alive then (a process stuck in the kernel), this sweeps at once
     * and again when the last of them is gone, so a file it creates in between is removed too.
     */
    private void removeSharedMemory() {
        List<Process> ps;
        synchronized (lock) {
            ps = new ArrayList<>(processes.values());
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SWEEP_WAIT_MILLIS);
        for (Process p : ps) {
            try {
                p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        java.util.Set<java.nio.file.Path> dirs = segmentDirectories();
        sweep(dirs);
        List<CompletableFuture<Process>> alive = ps.stream().filter(Process::isAlive).map(Process::onExit).toList();
        if (!alive.isEmpty()) {
            CompletableFuture.allOf(alive.toArray(CompletableFuture[]::new)).thenRun(() -> sweep(dirs));
        }
    }

    /** Longest wait for this host's rank processes to be reaped before the end-of-job sweep (it repeats later). */
    static final long SWEEP_WAIT_MILLIS = 5_000;

    private void sweep(java.util.Set<java.nio.file.Path> dirs) {
        for (java.nio.file.Path d : dirs) {
            org.jmpi.transport.shm.ShmTransport.removeSegments(d, spec.jobId());
        }
    }

    /** Every directory a rank of this host may have created its segment in (see {@link #removeSharedMemory()}). */
    java.util.Set<java.nio.file.Path> segmentDirectories() {
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        names.add("/dev/shm");
        names.add(baseEnv.get(SHM_DIR_VARIABLE));
        names.add(spec.env().get(SHM_DIR_VARIABLE));
        for (RankLaunch r : spec.ranks()) {
            names.add(r.env().get(SHM_DIR_VARIABLE));
            for (String a : r.argv()) {
                if (a.startsWith(SHM_DIR_OPTION)) {
                    names.add(a.substring(SHM_DIR_OPTION.length()));
                }
            }
        }
        java.util.Set<java.nio.file.Path> dirs = new java.util.LinkedHashSet<>();
        for (String n : names) {
            if (n != null && !n.isBlank()) {
                try {
                    dirs.add(java.nio.file.Path.of(n.trim()));
                } catch (java.nio.file.InvalidPathException e) {
                    // the rank could not have used it either
                }
            }
        }
        return dirs;
    }

    private static final String SHM_DIR_VARIABLE = "JMPI_SHM_DIR";
    private static final String SHM_DIR_OPTION = "-Djmpi.shm.dir=";

    private static void sendSignal(long pid, int signal) {
        try {
            Process k = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            k.waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            // no kill command here
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // closing anyway
        }
    }
}
