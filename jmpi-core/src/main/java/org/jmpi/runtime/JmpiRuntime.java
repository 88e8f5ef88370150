package org.jmpi.runtime;

import java.net.InetAddress;
import org.jmpi.bootstrap.Bootstrap;
import org.jmpi.bootstrap.BootstrapFactory;
import org.jmpi.bootstrap.ThreadsBootstrap;
import org.jmpi.datatype.MessageData;
import org.jmpi.pt2pt.Engine;
import org.jmpi.pt2pt.RecvRequest;
import org.jmpi.pt2pt.SendMode;
import org.jmpi.pt2pt.SendRequest;
import org.jmpi.shared.JobAbortedError;
import org.jmpi.shared.StartupTrace;
import org.jmpi.shared.ThreadsJob;
import org.jmpi.transport.Transport;

/**
 * The runtime of one rank: bootstrap, progress engine, point-to-point engine, transports, and the predefined
 * communicators. There is one per rank: a static of this class, which in threads mode is per rank because each
 * rank has its own class loader.
 *
 * <p>Threading: {@link #current()} is a volatile read; the runtime is fully built before it is published by
 * {@link #init}. {@code state} changes under the class lock.
 */
public final class JmpiRuntime {
    /** Context ids of the predefined communicators; each uses two (point-to-point and collective). */
    public static final int WORLD_CONTEXT = 0;
    public static final int SELF_CONTEXT = 2;
    /** Reserved for the runtime's own traffic (the barrier in finalize). */
    static final int RUNTIME_CONTEXT = 4;
    /** First context id free for new communicators. */
    public static final int FIRST_FREE_CONTEXT = 16;

    private static volatile JmpiRuntime current;
    private static volatile boolean finalized;

    private final Bootstrap bootstrap;
    private final Config config;
    private final Progress progress;
    private final Engine engine;
    private final Failures failures;
    private final Revocation revocation;
    private final ThreadsJob job;
    private final Communicator world;
    private final Communicator self;
    private final int threadLevel;
    /** Set in the constructor, or later by {@link #transportForOtherJobs()} in a job of one process. */
    private volatile Transport transport;

    private JmpiRuntime(Bootstrap bootstrap, Config config, int threadLevel) {
        this.bootstrap = bootstrap;
        this.config = config;
        this.threadLevel = threadLevel;
        this.job = bootstrap instanceof ThreadsBootstrap tb ? tb.job() : null;
        boolean crowded = oversubscribed(bootstrap);
        // processes only: in threads mode the slices memmove's arguments need would be garbage on every large copy
        // between two ranks' buffers (48 bytes per 256 KiB send/recv of direct buffers become 128), and that path was
        // not measured with it. Not on a crowded host either, where the start-up has no idle core to link in (see
        // FastCopy, "When it is linked")
        boolean localPeer = job == null && !crowded && hasLocalPeer(bootstrap);
        if (localPeer) {
            org.jmpi.shared.FastCopy.linkInBackground(); // in the start-up's waits (see FastCopy, "When it is linked")
        }
        this.progress = new Progress(job,
                crowded && Config.raw("jmpi.spin.iterations") == null ? 0 : config.spinIterations(),
                config.yieldIterations(), jfrCounters());
        int rank = bootstrap.rank();
        int size = bootstrap.size();
        this.engine = new Engine(rank, size, progress, job, config);
        this.failures = new Failures(engine);
        this.revocation = new Revocation(engine, rank);
        engine.setFailureListener(failures::onFailure);
        engine.setControlHandler(revocation);
        engine.setAnySourceBlocked(context -> {
            Communicator c = Communicator.forContext(context);
            return c != null && c.context() == context && failures.unacknowledged(c);
        });
        // Failed ranks (jmpirun --continue-on-failure tells us; so does a broken connection, or in threads mode the end
        // of a connected job): operations that name them fail with ERR_PROC_FAILED instead of waiting for ever.
        engine.setWorldRankResolver((context, source) -> {
            if (context == RUNTIME_CONTEXT) {
                return source;
            }
            Communicator c = Communicator.forContext(context);
            return c != null && source >= 0 && source < c.size() ? c.worldRank(source) : -1;
        });
        int[] all = new int[size];
        for (int i = 0; i < size; i++) {
            all[i] = i;
        }
        this.world = new Communicator(WORLD_CONTEXT, all, rank);
        this.self = new Communicator(SELF_CONTEXT, new int[] {rank}, 0);
        org.jmpi.transport.shm.ShmTransport rings = null;
        if (job != null) {
            job.register(rank, engine);
            rings = threadsRings(bootstrap, engine); // used once every rank has made its own (below)
            this.transport = null;
        } else if (size > 1) {
            // shared memory to the ranks of this host, TCP to the others (jmpi.transport=tcp forces TCP)
            this.transport = attachTransport(org.jmpi.transport.select.Transports.open(bootstrap, engine));
            bootstrap.onPeerFailure((failed, why) -> engine.onPeerFailure(failed,
                    new java.io.IOException("rank " + failed + " " + why)));
        } else {
            this.transport = null;
        }
        StartupTrace.mark("MPI_Init: transports open");
        bootstrap.fence();
        StartupTrace.mark("MPI_Init: start-up fence passed");
        if (rings != null) {
            if (rings.everyRankPublished()) { // every rank sees the same cards after the fence: all decide alike
                this.transport = attachTransport(rings);
            } else {
                rings.close();
            }
        }
        if (transport != null) {
            transport.afterStartFence();
        }
        if (localPeer) {
            org.jmpi.shared.FastCopy.link(); // waits for the link begun above: none of it in the program's time
        }
        StartupTrace.mark("MPI_Init: done");
    }

    /**
     * Threads mode: the shared-memory rings between the ranks of this JVM, as between processes of a host, or null
     * when they cannot be set up (then messages go from thread to thread, {@link org.jmpi.shared.InprocEndpoint}),
     * and for jobs of more than {@link #THREADS_RINGS_MAX_RANKS} ranks, whose n<sup>2</sup> mappings of n segments
     * would approach the kernel's limit of mappings per process ({@code vm.max_map_count}, 65,530) and whose files
     * would take gigabytes. The rings are used only when every rank has made its own (see the constructor).
     * Small messages take the rings' lane; a larger one, the rendezvous, whose data the receiver copies once, straight
     * from the sender's buffer. Against messages handed from thread to thread (cold OMB-J, 2 ranks, ungated,
     * 2026-11-29): bcast 0.50 and allgather 0.42 of the time (geometric means over the sizes), 0.24-0.3 us instead
     * of 0.4-2.5 below 4 KiB, and in a window of small messages 1.2-1.7 times the bandwidth. jmpi.threads.transport =
     * inproc keeps them all from thread to thread.
     */
    private static org.jmpi.transport.shm.ShmTransport threadsRings(Bootstrap bootstrap, Engine engine) {
        if (bootstrap.size() < 2 || bootstrap.size() > THREADS_RINGS_MAX_RANKS
                || "inproc".equals(Config.raw("jmpi.threads.transport"))) {
            return null;
        }
        int[] all = new int[bootstrap.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        try {
            return org.jmpi.transport.shm.ShmTransport.open(bootstrap, engine,
                    org.jmpi.transport.shm.ShmConfig.fromEnvironment(), all);
        } catch (java.io.UncheckedIOException e) {
            return null;
        }
    }

    /** The most ranks a threads-mode job has for its ranks to talk through rings (see {@link #threadsRings}). */
    static final int THREADS_RINGS_MAX_RANKS = 64;

    /** Whether the periodic JFR counters are asked for ({@code jmpi.jfr.counters}, {@code JMPI_JFR_COUNTERS}). */
    private static boolean jfrCounters() {
        String v = Config.raw("jmpi.jfr.counters");
        return v != null && !"0".equals(v);
    }

    private Transport attachTransport(Transport t) {
        engine.setTransport(t);
        progress.setTransport(t);
        if (t instanceof org.jmpi.transport.select.SelectingTransport st) {
            engine.countInto(st.traffic());
            if (jfrCounters()) {
                org.jmpi.runtime.events.Periodic.register(st, engine, progress, this::onFinalize);
            }
        }
        return t;
    }

    /**
     * The transport that reaches processes of other jobs (dynamic processes), opened now when this job has one
     * process and so had none (TCP only; there is no other rank of this job to share memory with).
     *
     * @throws MpiError ERR_UNSUPPORTED_OPERATION in threads mode
     */
    public synchronized Transport transportForOtherJobs() {
        if (job != null) {
            throw new MpiError(ErrorClass.ERR_UNSUPPORTED_OPERATION,
                    "dynamic processes are not available in threads mode (run the job as processes)");
        }
        if (transport == null) {
            transport = attachTransport(org.jmpi.transport.select.Transports.open(bootstrap, engine));
            bootstrap.fence(); // a job of one: makes the card just put readable
        }
        return transport;
    }

    /** Whether another rank of the job runs on this host. */
    private static boolean hasLocalPeer(Bootstrap bootstrap) {
        for (int p = 0; p < bootstrap.size(); p++) {
            if (p != bootstrap.rank() && bootstrap.isLocal(p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether more ranks of the job run on this host than it has processors. Then the peer a waiting rank waits for
     * is probably waiting for this rank's core: unless {@code jmpi.spin.iterations} is set, waiting threads do not
     * spin but yield the processor from their first look on (and sleep after the yield phase, as always). Measured
     * on 2 cores, Jacobi 256 x 5,000 (cold, ungated, 2026-11-28): 4 ranks 0.54-0.58 s against 1.13-1.17 with a short
     * spin, then sleeping at once; 8 ranks 1.18 against 2.79 (Open MPI Java, which yields: 0.24-0.30 and 0.44).
     */
    private static boolean oversubscribed(Bootstrap bootstrap) {
        int local = 0;
        for (int p = 0; p < bootstrap.size(); p++) {
            if (p == bootstrap.rank() || bootstrap.isLocal(p)) {
                local++;
            }
        }
        return local > hostProcessors();
    }

    /**
     * The processors the ranks of this host share: {@code jmpi.host.cpus} when set (the launcher sets it when it
     * binds each rank to one CPU, so that a bound rank, which sees a single processor, does not think itself
     * crowded), else what this JVM may use.
     */
    private static int hostProcessors() {
        long n = Config.longParam("jmpi.host.cpus", 0, 0, 1 << 20);
        return n > 0 ? (int) n : Runtime.getRuntime().availableProcessors();
    }

    /**
     * Initialises the runtime of this rank.
     *
     * @return the thread level provided
     */
    public static synchronized JmpiRuntime init(int requiredThreadLevel) {
        if (worldStarted) {
            throw MpiError.state(worldEnded ? "MPI is finalized." : "MPI is already initialized.");
        }
        JmpiRuntime rt = acquire(requiredThreadLevel);
        worldStarted = true;
        return rt;
    }

    /**
     * Users of the runtime: the world model (MPI_Init ... MPI_Finalize) and each open MPI 4.0 session. The runtime
     * starts with the first and ends, with the barrier over the world, when the last one leaves; it cannot start again
     * in the same process (the process manager has been told that this rank is done).
     */
    private static int users;
    /** Read without the lock by MPI_Initialized/MPI_Finalized, from any thread. */
    private static volatile boolean worldStarted;
    private static volatile boolean worldEnded;

    /**
     * Starts the runtime for one more user (a session, or the world model through {@link #init}), or joins the one
     * running; the thread level is the running runtime's when it runs already.
     */
    public static synchronized JmpiRuntime acquire(int requiredThreadLevel) {
        if (current == null) {
            if (finalized) {
                throw MpiError.state("MPI was finalized in this process and cannot start again.");
            }
            current = start(requiredThreadLevel);
        }
        users++;
        return current;
    }

    private static JmpiRuntime start(int requiredThreadLevel) {
        StartupTrace.mark("MPI_Init: start");
        JitHints.applyInBackground();
        Config config = Config.fromEnvironment();
        org.jmpi.shared.FastCopy.setNativeMin(Config.copyNativeMin());
        Bootstrap b = BootstrapFactory.detect();
        StartupTrace.mark("MPI_Init: process manager connected");
        return new JmpiRuntime(b, config, Math.max(0, Math.min(3, requiredThreadLevel)));
    }

    /** The runtime, or an error when MPI is not initialised or already finalised. */
    public static JmpiRuntime get() {
        JmpiRuntime rt = current;
        if (rt == null) {
            throw MpiError.state(finalized ? "MPI is finalized." : "MPI is not initialized.");
        }
        return rt;
    }

    public static JmpiRuntime current() {
        return current;
    }

    /** Whether the world model was initialized (MPI_Initialized: also after MPI_Finalize; sessions do not count). */
    public static boolean isInitialized() {
        return worldStarted;
    }

    /** Whether the world model was finalized (MPI_Finalized). */
    public static boolean isFinalized() {
        return worldEnded;
    }

    /** MPI_Finalize: the world model's user leaves; see {@link #release()}. */
    public static synchronized void finalizeRuntime() {
        get();
        if (!worldStarted || worldEnded) {
            throw MpiError.state(worldEnded ? "MPI is finalized." : "MPI is not initialized.");
        }
        worldEnded = true;
        release();
    }

    /**
     * One user leaves (MPI_Finalize, or a session's finalize). When it was the last, ends this rank's part in MPI: a
     * barrier over the world (so no rank closes while others still talk), then the transports close.
     */
    public static synchronized void release() {
        JmpiRuntime rt = get();
        if (--users > 0) {
            return;
        }
        for (Runnable hook : rt.finalizeHooks) {
            hook.run();
        }
        StartupTrace.mark("MPI_Finalize: start");
        try {
            rt.barrier(rt.world, RUNTIME_CONTEXT);
            StartupTrace.mark("MPI_Finalize: barrier passed");
            rt.bootstrap.finalizeJob();
            StartupTrace.mark("MPI_Finalize: process manager told");
        } finally {
            if (rt.transport != null) {
                rt.transport.close();
            }
            rt.bootstrap.close();
            current = null;
            finalized = true;
            StartupTrace.mark("MPI_Finalize: done");
        }
    }

    /** Run at the start of {@link #finalizeRuntime()}, in registration order (e.g. to stop background threads). */
    private final java.util.List<Runnable> finalizeHooks = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Registers {@code hook} to run once when this rank finalizes, before the final barrier. */
    public void onFinalize(Runnable hook) {
        finalizeHooks.add(hook);
    }

    /** A dissemination barrier over {@code comm} on the given context: ceil(log2 P) rounds. */
    public void barrier(Communicator comm, int context) {
        int n = comm.size();
        int r = comm.rank();
        for (int k = 1, round = 0; k < n; k <<= 1, round++) {
            int to = (r + k) % n;
            int from = (r - k + n) % n;
            RecvRequest rr = engine.irecv(MessageData.EMPTY, context, from, round);
            SendRequest sr = engine.isend(MessageData.EMPTY, comm.worldRank(to), context, r, round,
                    SendMode.STANDARD);
            progress.await(sr);
            progress.await(rr);
        }
    }

    /**
     * Ends the whole job with {@code exitCode}. In threads mode the calling thread unwinds with a
     * {@link JobAbortedError}; in processes mode the process manager kills every rank, and this process exits.
     */
    public void abort(int exitCode, String message) {
        try {
            bootstrap.abort(exitCode, message);
        } catch (JobAbortedError e) {
            throw e;
        } catch (RuntimeException e) {
            // the process manager is unreachable: end this process at least
        }
        if (job != null) {
            throw new JobAbortedError(exitCode, message);
        }
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(exitCode);
    }

    public Bootstrap bootstrap() {
        return bootstrap;
    }

    public Config config() {
        return config;
    }

    public Progress progress() {
        return progress;
    }

    /** What this rank knows of failed processes (ULFM). */
    public Failures failures() {
        return failures;
    }

    /** Revocation of communicators (ULFM). */
    public Revocation revocation() {
        return revocation;
    }

    public Engine engine() {
        return engine;
    }

    public Communicator world() {
        return world;
    }

    public Communicator self() {
        return self;
    }

    public int threadLevel() {
        return threadLevel;
    }

    public int rank() {
        return world.rank();
    }

    public int size() {
        return world.size();
    }

    /** True in threads mode. */
    public boolean threadsMode() {
        return job != null;
    }

    /**
     * Which host world rank {@code r} runs on, the same answer at every rank ({@link Bootstrap#host}), or null when
     * that cannot be told: then, and in threads mode (one JVM), callers take the ranks for one host.
     */
    public Object hostOf(int r) {
        return threadsMode() ? null : bootstrap.host(r);
    }

    /** The host name reported by MPI.getProcessorName. */
    public static String processorName() {
        String name = processorName;
        if (name == null) {
            name = hostName();
            processorName = name;
        }
        return name;
    }

    private static volatile String processorName;

    /**
     * The host's name as {@code gethostname()} gives it (what MPICH reports): on Linux the kernel's
     * {@code /proc/sys/kernel/hostname}, read directly (asking the resolver, as {@code InetAddress.getLocalHost()}
     * does, cost a rank several milliseconds at start-up); elsewhere the resolver's.
     */
    private static String hostName() {
        try {
            String n = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/kernel/hostname")).strip();
            if (!n.isEmpty()) {
                return n;
            }
        } catch (java.io.IOException | RuntimeException e) {
            // not Linux
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }
}
