package org.jmpi.launcher;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jmpi.launcher.Launcher.App;
import org.jmpi.launcher.hosts.HostDiscovery;
import org.jmpi.launcher.hosts.Placement;
import org.jmpi.launcher.proxy.ControlMessage;
import org.jmpi.launcher.proxy.ControlMessage.Aborted;
import org.jmpi.launcher.proxy.ControlMessage.Exited;
import org.jmpi.launcher.proxy.ControlMessage.Fatal;
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
import org.jmpi.launcher.proxy.HostProxy;
import org.jmpi.launcher.proxy.ProxyMain;
import org.jmpi.launcher.proxy.ProxySpec;
import org.jmpi.launcher.proxy.ProxySpec.RankLaunch;

/**
 * jmpirun's front end for one job: starts a proxy per host, joins the hosts' PMI fences, and applies the failure
 * policy.
 *
 * <p><b>Proxies.</b> A host that names this machine gets a {@link HostProxy} in this JVM (unless autofork is off or
 * the agent is fork, which runs every host here); another host gets one started by the {@link LaunchAgent}
 * ({@code ssh host 'cd wdir; exec java ... ProxyMain'}), which speaks {@link ControlMessage}s over the agent's
 * standard input and output. Nothing listens on the network on this side: the proxies' only listeners are their
 * loopback PMI servers, which demand the job secret.
 *
 * <p><b>Fences.</b> Each host sends {@link FenceIn} with its puts once its running ranks entered a PMI barrier;
 * when every host with running ranks has, each gets {@link FenceOut} with all the puts.
 *
 * <p><b>Failures.</b> A rank that fails (non-zero exit, signal, no finalize, protocol error), an abort, a host that
 * is lost (its agent ended, or no message for the link timeout), the timeout, or a kill request start the teardown:
 * every host gets {@code TERM} (its proxy sends SIGTERM now and SIGKILL after the grace, by itself); hosts that still
 * have ranks {@code grace + 3 s} later get {@code KILL}; hosts silent 3 s after that are given up as lost. With
 * continue-on-failure a failed rank is reported to every host instead ({@link RankFailed}). An abort with code 75
 * (MPI_ERR_PROC_FAILED: a rank whose default error handler met another rank's failure) waits up to 2 s for that
 * failure to be reported, so that the summary and the exit code name the cause rather than the echo.
 *
 * <p>Threading: one monitor thread owns the job state (the per-host fence and rank counters, codes, the teardown
 * clock) and takes {@link Event}s from a queue. Proxies' messages arrive on their threads (reader threads for remote
 * hosts, the proxy's own threads for local ones): {@link Output}, {@link Started} and {@link Notice} are handled
 * there (the output consumer is thread-safe, {@code pids} is atomic); the rest are queued. Writes to a remote proxy
 * are serialised on its stream. {@code lastHeard} and {@code greeted} are volatile.
 */
final class FrontEnd {
    private static final AtomicInteger JOB_COUNTER = new AtomicInteger();
    private static final long NEVER = Long.MAX_VALUE;
    private static final long BACKSTOP_NANOS = TimeUnit.SECONDS.toNanos(3);
    /** The exit code of an abort caused by MPI_ERR_PROC_FAILED under the default error handler. */
    private static final int PROC_FAILED = org.jmpi.runtime.ErrorClass.ERR_PROC_FAILED;
    private static final long HOLD_PROC_FAILED_ABORT_NANOS = TimeUnit.SECONDS.toNanos(2);
    /**
     * A remote proxy's JVM options: small, quick to start. {@code UserThreadWaitAttemptsAtExit=0}: at exit the JVM
     * does not wait for threads blocked in native code (the proxy's reader of its standard input always is); by
     * default it waits up to 300 ms for them, which the front end then waited too, at the end of every job with
     * another host (a 2-host Hello took 0.75 s against 0.26 on Open MPI; jmpirun's own JVM has the same option).
     */
    private static final List<String> PROXY_JVM = List.of("-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-XX:UserThreadWaitAttemptsAtExit=0");

    /** What a caller can ask of a running job. */
    enum Request { KILL, INTERRUPT, TERMINATE }

    private sealed interface Event permits FromHost, Lost, Req {}

    private record FromHost(int host, ControlMessage message) implements Event {}

    private record Lost(int host, String reason) implements Event {}

    private record Req(Request request) implements Event {}

    /** One host with ranks. Fields below "monitor" are touched by the monitor thread only. */
    private final class Host {
        final int index;
        final String name;
        final int[] ranks;
        final boolean local;
        ProxySpec spec;
        HostProxy proxy;
        Process agent;
        DataOutputStream toProxy;
        final Deque<String> agentErrors = new ArrayDeque<>();
        volatile long lastHeard = System.nanoTime();
        volatile boolean greeted;
        volatile boolean writeFailed;
        // monitor
        int live;
        volatile boolean lost;
        Map<String, String> fence;

        Host(int index, String name, int[] ranks, boolean local) {
            this.index = index;
            this.name = name;
            this.ranks = ranks;
            this.local = local;
            this.live = ranks.length;
        }

        /** Sends a message to the proxy; a remote write failure is reported as a lost host. */
        void send(ControlMessage m) {
            if (local) {
                if (proxy != null) {
                    proxy.handle(m);
                }
                return;
            }
            DataOutputStream o = toProxy;
            if (o == null || writeFailed) {
                return;
            }
            synchronized (o) {
                try {
                    ControlMessage.write(o, m);
                    o.flush();
                } catch (IOException e) {
                    writeFailed = true;
                    events.add(new Lost(index, "cannot write to its proxy: " + e.getMessage()));
                }
            }
        }

        String lastAgentError() {
            synchronized (agentErrors) {
                return agentErrors.isEmpty() ? "" : " (" + String.join(" / ", agentErrors) + ")";
            }
        }
    }

    private final Launcher cfg;
    private final int size;
    private final String jobId;
    private final String secret;
    private final Host[] hosts;
    private final int[] hostOfRank;
    private final AtomicLongArray pids;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final CompletableFuture<LaunchResult> result = new CompletableFuture<>();
    private final long startNanos = System.nanoTime();
    private Thread shutdownHook;
    /** With --continue-on-failure: decides the ranks' fault-tolerant agreements (ULFM agree and shrink). */
    private final AgreementCoordinator agreements;

    FrontEnd(Launcher cfg) {
        this.cfg = cfg;
        this.size = cfg.size;
        this.jobId = "jmpi_" + ProcessHandle.current().pid() + "_" + JOB_COUNTER.incrementAndGet();
        byte[] bits = org.jmpi.bootstrap.Secrets.randomBytes(16);
        this.secret = HexFormat.of().formatHex(bits);
        this.pids = new AtomicLongArray(size);
        for (int r = 0; r < size; r++) {
            pids.set(r, -1);
        }
        Placement p = cfg.placement;
        this.hostOfRank = new int[size];
        List<Host> used = new ArrayList<>();
        int[] nodeOf = new int[p.hosts().size()];
        Arrays.fill(nodeOf, -1);
        for (int r = 0; r < size; r++) {
            int h = p.hostOf()[r];
            if (nodeOf[h] < 0) {
                nodeOf[h] = used.size();
                String name = p.hosts().get(h).name();
                boolean local = cfg.agent.kind() == LaunchAgent.Kind.FORK || cfg.hosts == null
                        || (cfg.autofork && HostDiscovery.isLocal(name));
                used.add(new Host(nodeOf[h], name, p.ranksOn(h).stream().mapToInt(Integer::intValue).toArray(),
                        local));
            }
            hostOfRank[r] = nodeOf[h];
        }
        this.hosts = used.toArray(Host[]::new);
        this.agreements = cfg.continueOnFailure ? new AgreementCoordinator(line -> {
            for (Host h : hosts) {
                if (!h.lost) {
                    h.send(new ControlMessage.AgreementDecision(line));
                }
            }
        }) : null;
    }

    int size() {
        return size;
    }

    String jobId() {
        return jobId;
    }

    String pmiAddress() {
        for (Host h : hosts) {
            if (h.local && h.proxy != null) {
                return h.spec == null ? "" : h.proxy.pmiAddress();
            }
        }
        return "";
    }

    List<Long> pids() {
        List<Long> out = new ArrayList<>(size);
        for (int r = 0; r < size; r++) {
            out.add(pids.get(r));
        }
        return out;
    }

    boolean isDone() {
        return result.isDone();
    }

    LaunchResult await() throws InterruptedException {
        try {
            return result.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the job monitor failed", e.getCause());
        }
    }

    Optional<LaunchResult> await(Duration timeout) throws InterruptedException {
        try {
            return Optional.of(result.get(timeout.toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            return Optional.empty();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the job monitor failed", e.getCause());
        }
    }

    void request(Request r) {
        events.add(new Req(r));
    }

    int dumpStacks() {
        int n = 0;
        for (Host h : hosts) {
            if (h.local) {
                if (h.proxy != null) {
                    n += h.proxy.liveRanks();
                    h.proxy.signal(Signal.QUIT);
                }
            } else if (!h.writeFailed) {
                h.send(new Signal(Signal.QUIT));
                n += h.ranks.length;
            }
        }
        return n;
    }

    // ------------------------------------------------------------------------------------------------ start

    void start() throws IOException {
        boolean spans = false;
        for (Host h : hosts) {
            spans |= !h.local;
        }
        String localTcpHost = spans ? addressTowardsRemote() : null;
        for (Host h : hosts) {
            h.spec = spec(h, spans ? (h.local ? localTcpHost : "@ssh") : null);
        }
        shutdownHook = new Thread(this::emergencyKill, "jmpi-job-killer-" + jobId);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            for (Host h : hosts) {
                if (h.local) {
                    h.proxy = new HostProxy(h.spec, cfg.environment, m -> fromHost(h, m), () -> {});
                    h.proxy.start();
                } else {
                    startRemote(h);
                }
            }
        } catch (IOException | RuntimeException e) {
            emergencyKill();
            removeShutdownHook();
            throw e;
        }
        if (cfg.stdinToRank0 && !hosts[hostOfRank[0]].local) {
            Host h = hosts[hostOfRank[0]];
            Thread.ofPlatform().daemon().name("jmpi-stdin-forwarder").start(() -> forwardStdin(h));
        }
        Thread.ofPlatform().daemon().name("jmpi-job-monitor-" + jobId).start(this::monitor);
    }

    /** The address of this machine on the route to the first remote host, or "*" when it cannot tell. */
    private String addressTowardsRemote() {
        for (Host h : hosts) {
            if (!h.local) {
                try (DatagramSocket s = new DatagramSocket()) {
                    s.connect(new InetSocketAddress(InetAddress.getByName(h.name), 9));
                    InetAddress a = s.getLocalAddress();
                    if (a != null && !a.isAnyLocalAddress() && !a.isLoopbackAddress()) {
                        return a.getHostAddress();
                    }
                } catch (IOException | RuntimeException e) {
                    // cannot resolve or route: fall through
                }
                break;
            }
        }
        return "*";
    }

    private ProxySpec spec(Host h, String tcpHost) {
        List<RankLaunch> launches = new ArrayList<>();
        int[] appnums = new int[size];
        List<App> apps = cfg.apps;
        int[] appOf = new int[size];
        for (int a = 0, r = 0; a < apps.size(); a++) {
            for (int k = 0; k < apps.get(a).ranks(); k++, r++) {
                appOf[r] = a;
                appnums[r] = a;
            }
        }
        StringBuilder appSizes = new StringBuilder();
        for (App a : apps) {
            appSizes.append(appSizes.isEmpty() ? "" : " ").append(a.ranks());
        }
        String wdirDefault = Path.of("").toAbsolutePath().toString();
        for (int i = 0; i < h.ranks.length; i++) {
            int r = h.ranks[i];
            App app = apps.get(appOf[r]);
            Map<String, String> env = new LinkedHashMap<>(app.env());
            String rs = Integer.toString(r);
            env.put("JMPI_RANK", rs);
            env.put("JMPI_SIZE", Integer.toString(size));
            env.put("JMPI_JOBID", jobId);
            env.put("JMPI_LOCAL_RANK", Integer.toString(i));
            env.put("JMPI_LOCAL_SIZE", Integer.toString(h.ranks.length));
            env.put("JMPI_NODE_ID", Integer.toString(h.index));
            env.put("JMPI_APPNUM", Integer.toString(appOf[r]));
            env.put("JMPI_APP_SIZES", appSizes.toString());
            env.put("MPI_LOCALRANKID", Integer.toString(i));
            env.put("MPI_LOCALNRANKS", Integer.toString(h.ranks.length));
            if (cfg.tcpHost != null) {
                env.put("JMPI_TCP_HOST", cfg.tcpHost);
            }
            ProxySpec.Stdin in = ProxySpec.Stdin.NONE;
            if (r == 0 && cfg.stdinToRank0) {
                in = h.local ? ProxySpec.Stdin.INHERIT : ProxySpec.Stdin.FORWARDED;
            }
            String wdir = app.workingDirectory() != null ? app.workingDirectory().toAbsolutePath().toString()
                    : wdirDefault;
            launches.add(new RankLaunch(r, i, cfg.command(app), env, wdir, in));
        }
        Map<String, String> forwarded = new LinkedHashMap<>();
        if (!h.local) {
            for (Map.Entry<String, String> e : cfg.environment.entrySet()) {
                String k = e.getKey();
                if (cfg.forwardAllEnvironment || k.startsWith("JMPI_") || k.equals("CLASSPATH")) {
                    forwarded.put(k, e.getValue());
                }
            }
            if (cfg.forwardAllEnvironment) {
                for (String k : List.of("HOSTNAME", "HOME", "USER", "LOGNAME", "SHELL", "PWD", "OLDPWD", "SHLVL",
                        "_", "SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY", "DISPLAY", "TERM")) {
                    forwarded.remove(k);
                }
            }
            forwarded.keySet().removeIf(k -> k.startsWith("PMI_") || k.startsWith("PMIX_") || k.equals("JMPI_KVS")
                    || k.equals("JMPI_SECRET"));
        }
        return new ProxySpec(jobId, secret, size, h.index, h.name, cfg.placement.processMapping(), appnums,
                cfg.terminationGrace.toMillis(), h.local ? 0 : 1000, cfg.linkTimeout.toMillis(),
                cfg.continueOnFailure, tcpHost, forwarded, launches);
    }

    private void startRemote(Host h) throws IOException {
        Path java = cfg.remoteJava != null ? cfg.remoteJava : cfg.javaExecutable;
        List<String> proxy = new ArrayList<>();
        proxy.add(java.toString());
        proxy.addAll(PROXY_JVM);
        List<String> cached = AotCache.proxyOptions(java); // the class cache and the class path it was made for
        if (cached.isEmpty()) {
            proxy.add("-Xshare:auto");
            proxy.add("-cp");
            proxy.add(String.join(File.pathSeparator, Launcher.proxyClassPath().stream().map(Path::toString).toList()));
        } else {
            proxy.addAll(cached);
        }
        proxy.add(ProxyMain.class.getName());
        String wdir = h.spec.ranks().get(0).workingDirectory();
        List<String> cmd = cfg.agent.commandFor(h.name, proxy, wdir);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IOException("cannot start '" + cmd.get(0) + "' to reach host " + h.name + ": " + e.getMessage(),
                    e);
        }
        h.agent = p;
        h.toProxy = new DataOutputStream(new BufferedOutputStream(p.getOutputStream(), 1 << 16));
        Thread.ofPlatform().daemon().name("jmpi-agent-err-" + h.name).start(() -> agentErrors(h, p));
        Thread.ofPlatform().daemon().name("jmpi-proxy-in-" + h.name).start(() -> readProxy(h, p));
        h.send(new ControlMessage.Spec(h.spec));
    }

    /** The agent's standard error (ssh's complaints, the remote proxy's notes) becomes notices. */
    private void agentErrors(Host h, Process p) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(),
                StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                synchronized (h.agentErrors) {
                    h.agentErrors.addLast(line);
                    if (h.agentErrors.size() > 2) {
                        h.agentErrors.removeFirst();
                    }
                }
                cfg.notices.accept("jmpirun: host " + h.name + ": " + line);
            }
        } catch (IOException e) {
            // the agent is gone
        }
    }

    /** Reads a remote proxy's output: lines up to the greeting (login noise), then control frames. */
    private void readProxy(Host h, Process p) {
        String why;
        try (InputStream raw = new BufferedInputStream(p.getInputStream(), 1 << 16)) {
            while (true) {
                String line = readRawLine(raw);
                if (line == null) {
                    throw new EOFException();
                }
                if (line.equals(ControlMessage.GREETING)) {
                    break;
                }
                cfg.notices.accept("jmpirun: host " + h.name + " printed: " + line);
            }
            h.greeted = true;
            h.lastHeard = System.nanoTime();
            DataInputStream in = new DataInputStream(raw);
            while (true) {
                ControlMessage m = ControlMessage.read(in);
                h.lastHeard = System.nanoTime();
                fromHost(h, m);
            }
        } catch (EOFException e) {
            why = "its proxy ended";
        } catch (IOException e) {
            why = "the connection to its proxy failed: " + e.getMessage();
        }
        try {
            if (p.waitFor(2, TimeUnit.SECONDS)) {
                why += " (" + Path.of(cfg.agent.command().isEmpty() ? "agent" : cfg.agent.command().get(0))
                        .getFileName() + " exit code " + p.exitValue() + ")";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        events.add(new Lost(h.index, why + h.lastAgentError()));
    }

    private static String readRawLine(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c >= 0; c = in.read()) {
            if (c == '\n') {
                return b.toString(StandardCharsets.UTF_8);
            }
            if (b.size() < 4096) {
                b.write(c);
            }
        }
        return b.size() == 0 ? null : b.toString(StandardCharsets.UTF_8);
    }

    private void forwardStdin(Host h) {
        byte[] buf = new byte[8192];
        try {
            for (int n = System.in.read(buf); n >= 0; n = System.in.read(buf)) {
                if (n > 0) {
                    h.send(new Stdin(Arrays.copyOf(buf, n)));
                }
            }
        } catch (IOException e) {
            // treat as end of input
        }
        h.send(new StdinEof());
    }

    /** A message from a proxy, on the proxy's thread. */
    private void fromHost(Host h, ControlMessage m) {
        switch (m) {
            case Output o -> {
                try {
                    cfg.output.line(o.rank(), o.stderr(), o.line());
                } catch (RuntimeException e) {
                    // a failing consumer must not stop the job
                }
            }
            case Started s -> pids.set(s.rank(), s.pid());
            case Notice n -> cfg.notices.accept("jmpirun: " + n.message());
            case ControlMessage.AgreementRequest a -> {
                if (agreements != null && a.rank() >= 0 && a.rank() < size) {
                    agreements.contribute(a.rank(), a.line());
                }
            }
            case ControlMessage.Heartbeat hb -> {
                // lastHeard was updated by the reader
            }
            default -> events.add(new FromHost(h.index, m));
        }
    }

    // ------------------------------------------------------------------------------------------------ monitor

    private void monitor() {
        LaunchResult r;
        try {
            r = supervise();
        } catch (Throwable t) {
            emergencyKill();
            result.completeExceptionally(t);
            removeShutdownHook();
            return;
        }
        removeShutdownHook();
        result.complete(r);
    }

    /** The monitor's state of the job, with the decisions of the failure policy. */
    private final class State {
        final int[] codes = new int[size];
        final boolean[] accounted = new boolean[size];
        int remaining = size;
        boolean tearingDown;
        long teardownStart;
        int runningAtTeardown;
        int hostsAtTeardown;
        boolean timedOut;
        boolean killedByCaller;
        boolean interrupted;
        int interrupts;
        Aborted abort;
        /**
         * An abort with MPI_ERR_PROC_FAILED's code: a rank reacting to another's failure. It is held back briefly so
         * that the failure it reacts to, usually reported a moment later from another host, is the one named.
         */
        Aborted heldAbort;
        long heldUntil = NEVER;
        /** Ranks that aborted with MPI_ERR_PROC_FAILED's code: their own exits are echoes, not causes. */
        final boolean[] echo = new boolean[size];
        int failedRank = -1;
        int failedCode;
        String failure;
        /** The first failure was a lost host ({@code failure} then names the host). */
        boolean hostFailure;
        long killAt = NEVER;
        long giveUpAt = NEVER;

        void account(int rank, int code) {
            if (!accounted[rank]) {
                accounted[rank] = true;
                codes[rank] = code;
                remaining--;
                hosts[hostOfRank[rank]].live--;
            }
        }

        void teardown(long now) {
            if (tearingDown) {
                return;
            }
            tearingDown = true;
            teardownStart = now;
            // the ranks the summary says were killed: not a rank that called abort, which ends by itself (its exit
            // is usually reported just after its abort)
            int aborter = abort != null && abort.rank() >= 0 && abort.rank() < size && !accounted[abort.rank()]
                    ? abort.rank() : -1;
            runningAtTeardown = remaining - (aborter >= 0 ? 1 : 0);
            hostsAtTeardown = 0;
            for (Host h : hosts) {
                if (!h.lost && h.live > 0) {
                    if (h.live > 1 || aborter < 0 || hosts[hostOfRank[aborter]] != h) {
                        hostsAtTeardown++;
                    }
                    h.send(new Signal(Signal.TERM));
                }
            }
            killAt = now + cfg.terminationGrace.toNanos() + BACKSTOP_NANOS;
        }

        /** A rank failed: end the job, or (continue-on-failure) tell the others. */
        void failed(int rank, int code, String what, long now) {
            if (tearingDown || timedOut) {
                return;
            }
            heldAbort = null;
            heldUntil = NEVER;
            if (failure == null && abort == null) {
                failedRank = rank;
                failedCode = code;
                failure = what;
            }
            if (cfg.continueOnFailure) {
                for (Host h : hosts) {
                    if (!h.lost && h.live > 0) {
                        h.send(new RankFailed(rank, what));
                    }
                }
                agreements.failed(rank);
            } else {
                teardown(now);
            }
        }

        void checkFence() {
            boolean any = false;
            for (Host h : hosts) {
                // without continue-on-failure a fence waits for every host: a failure ends the job anyway
                if (!h.lost && (h.live > 0 || !cfg.continueOnFailure)) {
                    if (h.fence == null) {
                        return;
                    }
                    any = true;
                }
            }
            if (!any) {
                return;
            }
            Map<String, String> all = new HashMap<>();
            for (Host h : hosts) {
                if (h.fence != null) {
                    all.putAll(h.fence);
                }
            }
            for (Host h : hosts) {
                if (h.fence != null) {
                    h.fence = null;
                    if (!h.lost && h.live > 0) {
                        h.send(new FenceOut(all));
                    }
                }
            }
        }

        void hostLost(Host h, String reason, long now) {
            if (h.lost) {
                return;
            }
            h.lost = true;
            int first = -1;
            for (int r : h.ranks) {
                if (!accounted[r]) {
                    if (first < 0) {
                        first = r;
                    }
                    account(r, LaunchResult.HOST_LOST_EXIT_CODE);
                }
            }
            if (h.agent != null) {
                h.agent.descendants().forEach(ProcessHandle::destroyForcibly);
                h.agent.destroyForcibly();
            }
            if (first >= 0) {
                boolean firstFailure = failure == null && abort == null && !tearingDown && !timedOut;
                String what = "host " + h.name + " was lost (" + reason + "); its ranks " + rankList(h.ranks);
                failed(first, LaunchResult.HOST_LOST_EXIT_CODE, what, now);
                hostFailure |= firstFailure;
                if (cfg.continueOnFailure && !tearingDown && !timedOut) {
                    // the survivors must hear of every rank of the host, not only the first
                    for (int r : h.ranks) {
                        if (r != first && codes[r] == LaunchResult.HOST_LOST_EXIT_CODE) {
                            for (Host other : hosts) {
                                if (!other.lost && other.live > 0) {
                                    other.send(new RankFailed(r, what));
                                }
                            }
                            agreements.failed(r);
                        }
                    }
                }
            }
            checkFence();
        }
    }

    private LaunchResult supervise() throws InterruptedException {
        State st = new State();
        long deadline = cfg.timeout == null ? NEVER : startNanos + cfg.timeout.toNanos();
        long teardownAt = NEVER; // a teardown waiting for stack dumps
        boolean anyRemote = Arrays.stream(hosts).anyMatch(h -> !h.local);
        long beatNanos = TimeUnit.SECONDS.toNanos(1);
        long nextBeat = anyRemote ? System.nanoTime() + beatNanos : NEVER;
        long linkTimeout = cfg.linkTimeout.toNanos();

        while (st.remaining > 0) {
            long wake = Math.min(Math.min(Math.min(deadline, teardownAt), st.heldUntil),
                    Math.min(Math.min(st.killAt, st.giveUpAt), nextBeat));
            Event ev = wake == NEVER ? events.take()
                    : events.poll(Math.max(0, wake - System.nanoTime()), TimeUnit.NANOSECONDS);
            long now = System.nanoTime();
            if (now >= nextBeat) {
                nextBeat = now + beatNanos;
                for (Host h : hosts) {
                    if (!h.local && !h.lost) {
                        h.send(new Heartbeat());
                        if (h.greeted && h.live > 0 && now - h.lastHeard > linkTimeout) {
                            st.hostLost(h, "no word from its proxy for " + seconds(now - h.lastHeard), now);
                        }
                    }
                }
            }
            if (!st.tearingDown && !st.timedOut && now >= deadline) {
                st.timedOut = true;
                deadline = NEVER;
                if (cfg.dumpStacksOnTimeout) {
                    dumpStacks();
                    teardownAt = now + TimeUnit.SECONDS.toNanos(1);
                } else {
                    st.teardown(now);
                }
            }
            if (now >= teardownAt) {
                teardownAt = NEVER;
                st.teardown(now);
            }
            if (now >= st.heldUntil) {
                st.heldUntil = NEVER;
                if (st.heldAbort != null && !st.tearingDown) {
                    st.abort = st.heldAbort;
                    st.teardown(now);
                }
                st.heldAbort = null;
            }
            if (now >= st.killAt) {
                st.killAt = NEVER;
                for (Host h : hosts) {
                    if (!h.lost && h.live > 0) {
                        h.send(new Signal(Signal.KILL));
                    }
                }
                st.giveUpAt = now + BACKSTOP_NANOS;
            }
            if (now >= st.giveUpAt) {
                st.giveUpAt = NEVER;
                for (Host h : hosts) {
                    if (!h.lost && h.live > 0) {
                        st.hostLost(h, "its ranks did not end after SIGKILL", now);
                    }
                }
            }
            if (ev != null) {
                handle(st, ev, now);
            }
        }
        long end = System.nanoTime();
        finish(st.tearingDown);
        return result(st, end);
    }

    private void handle(State st, Event ev, long now) {
        switch (ev) {
            case FromHost(int hi, Exited e) -> {
                if (st.accounted[e.rank()]) {
                    return;
                }
                st.account(e.rank(), e.code());
                if (st.abort == null && !st.tearingDown && !st.timedOut && !st.echo[e.rank()]) {
                    if (e.code() != 0) {
                        st.failed(e.rank(), e.code(), "exited with code " + e.code() + signalNote(e.code()), now);
                    } else if (e.initialized() && !e.finalized()) {
                        st.failed(e.rank(), 1, "exited with code 0 without finalizing (no MPI.Finalize, or it "
                                + "exited during it)", now);
                    }
                }
                st.checkFence();
            }
            case FromHost(int hi, Aborted a) -> {
                if (a.code() == PROC_FAILED && a.rank() >= 0 && a.rank() < size) {
                    st.echo[a.rank()] = true;
                }
                if (!st.tearingDown && !st.timedOut && st.abort == null) {
                    if (a.code() == PROC_FAILED && st.failure == null) {
                        if (st.heldAbort == null) {
                            st.heldAbort = a;
                            st.heldUntil = now + HOLD_PROC_FAILED_ABORT_NANOS;
                        }
                    } else {
                        st.abort = a;
                        st.teardown(now);
                    }
                }
            }
            case FromHost(int hi, ProtocolError p) -> {
                if (!st.tearingDown && !st.timedOut && st.failure == null && st.abort == null) {
                    st.failedRank = p.rank();
                    st.failedCode = 1;
                    st.failure = "broke the PMI protocol: " + p.message();
                    st.teardown(now);
                }
            }
            case FromHost(int hi, FenceIn f) -> {
                hosts[hi].fence = f.values();
                st.checkFence();
            }
            case FromHost(int hi, Fatal f) -> st.hostLost(hosts[hi], f.message(), now);
            case FromHost(int hi, ControlMessage other) -> cfg.notices.accept("jmpirun: host " + hosts[hi].name
                    + " sent an unexpected " + other.getClass().getSimpleName());
            case Lost(int hi, String reason) -> {
                Host h = hosts[hi];
                if (h.live > 0) {
                    st.hostLost(h, reason, now);
                }
            }
            case Req(Request r) -> {
                switch (r) {
                    case KILL, TERMINATE -> {
                        if (!st.tearingDown && !st.timedOut && st.failure == null && st.abort == null) {
                            st.killedByCaller = true;
                        }
                        st.teardown(now);
                    }
                    case INTERRUPT -> {
                        st.interrupts++;
                        if (st.interrupts == 1) {
                            if (!st.tearingDown && !st.timedOut && st.failure == null && st.abort == null) {
                                st.interrupted = true;
                            }
                            for (Host h : hosts) {
                                if (!h.lost && h.live > 0) {
                                    h.send(new Signal(Signal.INT));
                                }
                            }
                            if (st.remaining > 0) {
                                // as Hydra does: say that the first Ctrl-C arrived and what a second one does
                                cfg.notices.accept("jmpirun: Ctrl-C passed on to the " + (st.remaining == 1
                                        ? "1 rank" : st.remaining + " ranks") + " still running; Ctrl-C again"
                                        + " kills them at once");
                            }
                            st.teardown(now);
                        } else {
                            for (Host h : hosts) {
                                if (!h.lost && h.live > 0) {
                                    h.send(new Signal(Signal.KILL));
                                }
                            }
                            st.killAt = NEVER;
                            st.giveUpAt = Math.min(st.giveUpAt, now + TimeUnit.SECONDS.toNanos(2));
                        }
                    }
                }
            }
        }
    }

    /** After the last rank: closes local proxies, lets remote proxies exit (killing their agents if they linger). */
    private void finish(boolean toreDown) throws InterruptedException {
        for (Host h : hosts) {
            if (h.local && h.proxy != null) {
                h.proxy.awaitExits(Duration.ofSeconds(2));
                h.proxy.close();
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(toreDown ? 3 : 10);
        for (Host h : hosts) {
            if (h.agent != null) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !h.agent.waitFor(left, TimeUnit.NANOSECONDS)) {
                    h.agent.descendants().forEach(ProcessHandle::destroyForcibly);
                    h.agent.destroyForcibly();
                }
                closeQuietly(h.toProxy);
            }
        }
    }

    private LaunchResult result(State st, long end) {
        int exitCode;
        int culprit = -1;
        String summary;
        String tail = "";
        if (st.tearingDown && st.runningAtTeardown > 0) {
            tail = "; killed " + (st.runningAtTeardown == 1 ? "the 1 rank" : "the " + st.runningAtTeardown + " ranks")
                    + " still running" + (hosts.length > 1 ? " on " + st.hostsAtTeardown + " host"
                            + (st.hostsAtTeardown == 1 ? "" : "s") : "") + " (teardown " + seconds(end
                            - st.teardownStart) + ")";
        }
        if (st.timedOut) {
            exitCode = LaunchResult.TIMEOUT_EXIT_CODE;
            summary = "jmpirun: the job did not finish within " + seconds(cfg.timeout.toNanos()) + " (timeout)" + tail;
        } else if (st.abort != null) {
            exitCode = st.abort.code();
            culprit = st.abort.rank();
            // the message as the rank gave it (jmpi ranks send it encoded; others' '_' for spaces are left alone)
            summary = "jmpirun: rank " + st.abort.rank() + where(st.abort.rank()) + " called abort with exit code "
                    + st.abort.code() + (st.abort.message().isEmpty() ? "" : ": " + st.abort.message()) + tail;
        } else if (st.failure != null) {
            exitCode = st.failedCode;
            culprit = st.failedRank;
            summary = st.hostFailure ? "jmpirun: " + st.failure + tail
                    : "jmpirun: rank " + st.failedRank + where(st.failedRank) + " " + st.failure + tail;
        } else if (st.interrupted) {
            exitCode = LaunchResult.INTERRUPTED_EXIT_CODE;
            summary = "jmpirun: interrupted" + tail;
        } else if (st.killedByCaller) {
            exitCode = LaunchResult.KILLED_EXIT_CODE;
            summary = "jmpirun: the job was killed on request" + tail;
        } else {
            exitCode = 0;
            summary = "";
        }
        List<Integer> rankCodes = Arrays.stream(st.codes).boxed().toList();
        return new LaunchResult(exitCode, rankCodes, st.timedOut, st.abort != null, culprit, summary,
                Duration.ofNanos(end - startNanos), st.tearingDown ? Duration.ofNanos(end - st.teardownStart)
                        : Duration.ZERO);
    }

    private String where(int rank) {
        if (rank < 0 || rank >= size) {
            return "";
        }
        long pid = pids.get(rank);
        String host = hosts.length > 1 || !hosts[hostOfRank[rank]].local ? "host " + hosts[hostOfRank[rank]].name
                : "";
        String p = pid > 0 ? "pid " + pid : "";
        String both = host.isEmpty() ? p : p.isEmpty() ? host : host + ", " + p;
        return both.isEmpty() ? "" : " (" + both + ")";
    }

    /** "2, 3" or "4-7" for a run. */
    private static String rankList(int[] ranks) {
        if (ranks.length > 2 && ranks[ranks.length - 1] - ranks[0] == ranks.length - 1) {
            return ranks[0] + "-" + ranks[ranks.length - 1];
        }
        StringBuilder sb = new StringBuilder();
        for (int r : ranks) {
            sb.append(sb.isEmpty() ? "" : ", ").append(r);
        }
        return sb.toString();
    }

    private static String signalNote(int code) {
        return code > 128 && code < 128 + 65 ? " (killed by signal " + (code - 128) + ")" : "";
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    /** Shutdown hook and start-up failure: SIGKILL everything here, and make remote proxies kill theirs. */
    private void emergencyKill() {
        for (Host h : hosts) {
            if (h.local && h.proxy != null) {
                h.proxy.terminate();
            } else if (!h.local && h.agent != null) {
                h.send(new Signal(Signal.KILL));
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        for (Host h : hosts) {
            try {
                if (h.local && h.proxy != null) {
                    h.proxy.awaitExits(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
                    h.proxy.close();
                } else if (h.agent != null) {
                    h.agent.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    h.agent.descendants().forEach(ProcessHandle::destroyForcibly);
                    h.agent.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void removeShutdownHook() {
        try {
            if (shutdownHook != null) {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            }
        } catch (IllegalStateException e) {
            // the JVM is already shutting down; the hook runs and finds nothing alive
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                // closing anyway
            }
        }
    }
}
