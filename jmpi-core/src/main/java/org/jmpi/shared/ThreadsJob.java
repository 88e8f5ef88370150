package org.jmpi.shared;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A job whose ranks are threads of this JVM ("threads mode"). Each rank runs in a thread of its own with a
 * {@link RankClassLoader} of its own, so the statics of package {@code mpi} are per rank. The job object is the
 * shared fabric: the key-value space and fence used for bootstrap, the table of {@link InprocEndpoint}s through
 * which ranks hand messages to each other, and the abort state.
 *
 * <p>Jobs spawned by a rank of a threads-mode job (MPI_Comm_spawn) are threads-mode jobs of this JVM too: every job
 * that runs is listed by its id ({@link #live}), so that a rank of another job can reach this job's endpoints once
 * the two are connected; {@link #addLossListener} tells such a rank when ranks of this job are gone, and
 * {@link #endWith} ties a spawned job's life to its parents'.
 *
 * <p>Threading: rank threads and the thread that started the job share this object. {@code kvs} and
 * {@code endpoints} are concurrent structures (an endpoint is registered before the rank enters the first fence,
 * and the fence's lock orders that write before any read by another rank). {@code abortCode} is volatile: written
 * once by the first abort, read by every waiting thread. The listener and child lists are copy-on-write; listeners
 * run in the thread that ends a rank or aborts the job, outside the job's lock.
 */
public final class ThreadsJob {
    /** What each rank thread runs. */
    @FunctionalInterface
    public interface RankBody {
        /** Runs rank {@code rank}; {@code loader} is that rank's own class loader (also the context loader). */
        void run(int rank, ClassLoader loader) throws Throwable;
    }

    /** Hears that ranks of a job are gone before they finalized. */
    @FunctionalInterface
    public interface LossListener {
        /**
         * Called in the thread that ended the rank or aborted the job; must be short and must not block.
         *
         * @param rank the rank that is gone, or -1 when the whole job is (it aborted)
         * @param why one line for error messages
         */
        void lost(int rank, String why);
    }

    private static final AtomicInteger JOB_COUNTER = new AtomicInteger();
    private static final InheritableThreadLocal<Integer> CURRENT_RANK = new InheritableThreadLocal<>();
    /** Jobs of this JVM whose ranks have not all ended, by id. */
    private static final ConcurrentHashMap<String, ThreadsJob> LIVE = new ConcurrentHashMap<>();
    /** Names this JVM among others (a process id can repeat across hosts and namespaces; this cannot). */
    private static final String JVM_ID = Long.toHexString(ProcessHandle.current().pid()) + "-"
            + Long.toHexString(new java.security.SecureRandom().nextLong());

    private final int size;
    private final String jobId;
    private final ConcurrentHashMap<String, String> kvs = new ConcurrentHashMap<>();
    private final InprocEndpoint[] endpoints;
    private final Thread[] threads;
    /** By rank: the thread parked in that rank's shared-memory transport, or null (see {@link #sleeping}). */
    private final java.util.concurrent.atomic.AtomicReferenceArray<Thread> sleepers;
    private final Throwable[] failures;
    private final int[] exitCodes;
    private final boolean[] finalized;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private int fenceArrived;
    private long fenceGeneration;
    private int finished;
    private volatile int abortCode = Integer.MIN_VALUE;
    private volatile String abortMessage;
    private volatile int abortRank = -1;
    private volatile int runningAtAbort;
    private final CopyOnWriteArrayList<LossListener> lossListeners = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<ThreadsJob> children = new CopyOnWriteArrayList<>();
    /** Set once a rank of another job was connected to a rank of this one (see {@link #markLinked}). */
    private volatile boolean linked;
    /** Objects one rank left for another to take by key ({@link #leave}); keys start at a random value. */
    private final ConcurrentHashMap<Long, Object[]> parcels = new ConcurrentHashMap<>();
    private final AtomicLong nextParcel = new AtomicLong(ThreadLocalRandom.current().nextLong());

    private ThreadsJob(int size) {
        this.size = size;
        this.jobId = "t" + ProcessHandle.current().pid() + "-" + JOB_COUNTER.incrementAndGet();
        this.endpoints = new InprocEndpoint[size];
        this.threads = new Thread[size];
        this.sleepers = new java.util.concurrent.atomic.AtomicReferenceArray<>(size);
        this.failures = new Throwable[size];
        this.exitCodes = new int[size];
        this.finalized = new boolean[size];
    }

    /**
     * Starts {@code size} rank threads, each with a fresh {@link RankClassLoader} over {@code classPath} (parent:
     * {@code parent}), each running {@code body}.
     */
    public static ThreadsJob start(int size, URL[] classPath, ClassLoader parent, RankBody body) {
        return start(size, classPath, parent, Map.of(), body);
    }

    /**
     * {@link #start(int, URL[], ClassLoader, RankBody)} with {@code seed} in the key-value space before any rank runs
     * (what a spawned job learns from its parents: their port, each rank's application number).
     */
    public static ThreadsJob start(int size, URL[] classPath, ClassLoader parent, Map<String, String> seed,
            RankBody body) {
        return start(size, rank -> classPath, parent, seed, body);
    }

    /**
     * {@link #start(int, URL[], ClassLoader, Map, RankBody)} with a class path per rank (the commands of a
     * spawnMultiple may each name their own).
     */
    public static ThreadsJob start(int size, java.util.function.IntFunction<URL[]> classPath, ClassLoader parent,
            Map<String, String> seed, RankBody body) {
        if (size < 1) {
            throw new IllegalArgumentException("a job needs at least one rank, not " + size);
        }
        ThreadsJob job = new ThreadsJob(size);
        job.kvs.putAll(seed);
        LIVE.put(job.jobId, job);
        for (int r = 0; r < size; r++) {
            final int rank = r;
            RankClassLoader loader = new RankClassLoader(classPath.apply(rank), parent, job, rank);
            Thread t = new Thread(null, () -> job.runRank(rank, loader, body), "jmpi-rank-" + rank, 0);
            t.setDaemon(true);
            t.setContextClassLoader(loader);
            job.threads[rank] = t;
        }
        for (Thread t : job.threads) {
            t.start();
        }
        return job;
    }

    private void runRank(int rank, RankClassLoader loader, RankBody body) {
        CURRENT_RANK.set(rank);
        int code = 0;
        Throwable failure = null;
        try {
            body.run(rank, loader);
        } catch (InvocationTargetException e) {
            failure = e.getCause();
        } catch (Throwable t) {
            failure = t;
        }
        if (failure instanceof JobAbortedError a) {
            code = a.exitCode();
            if (abortCode == Integer.MIN_VALUE) {
                abort(rank, code, a.getMessage());
            }
        } else if (failure != null) {
            code = 1;
            abort(rank, 1, "rank " + rank + " failed: " + failure);
        }
        boolean last;
        boolean unfinalized;
        lock.lock();
        try {
            failures[rank] = failure;
            exitCodes[rank] = code;
            unfinalized = !finalized[rank];
            last = ++finished == size;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (unfinalized && failure == null && !aborted()) {
            for (LossListener l : lossListeners) {
                l.lost(rank, "rank " + rank + " of job " + jobId + " ended without calling MPI_Finalize");
            }
        }
        if (last) {
            LIVE.remove(jobId);
            for (ThreadsJob c : children) {
                if (c.ranksRunning() > 0) {
                    c.end(1, "the job that spawned it (" + jobId + ") has ended");
                }
            }
            children.clear();
            // only now: other ranks' threads run code of this rank's loader (they deliver into its engine). Ranks of
            // other jobs connected to this one may still do so (a late or erroneous send): the loaders of a linked
            // job are left to the garbage collector, which closes their jars once nothing reaches them.
            for (Thread t : linked ? new Thread[0] : threads) {
                if (t.getContextClassLoader() instanceof RankClassLoader l) {
                    try {
                        l.close();
                    } catch (java.io.IOException ignored) {
                        // nothing to do: the loader only reads jars
                    }
                }
            }
        }
    }

    /** The rank of the calling thread (inherited by threads a rank starts), or -1 outside any rank. */
    public static int currentRank() {
        Integer r = CURRENT_RANK.get();
        return r == null ? -1 : r;
    }

    public int size() {
        return size;
    }

    /** The running job with this id in this JVM, or null (it never ran here, or all its ranks have ended). */
    public static ThreadsJob live(String jobId) {
        return LIVE.get(jobId);
    }

    /** This JVM's name among JVMs (its process id and 64 random bits). */
    public static String jvmId() {
        return JVM_ID;
    }

    /**
     * Records that ranks of another job now hand messages to this job's engines (dynamic processes): on abort, this
     * job's engines refuse such messages; its ranks' class loaders are not closed when the job ends.
     */
    public void markLinked() {
        linked = true;
    }

    /** Registers {@code l}, told of ranks of this job that are gone before finalizing (see {@link LossListener}). */
    public void addLossListener(LossListener l) {
        lossListeners.add(l);
    }

    public void removeLossListener(LossListener l) {
        lossListeners.remove(l);
    }

    /**
     * Ties {@code child} (a job a rank of this job spawned) to this job: when this job aborts, or its last rank ends
     * while the child still runs, the child is ended too.
     */
    public void endWith(ThreadsJob child) {
        children.add(child);
        children.removeIf(c -> c.ranksRunning() == 0);
        if (aborted()) {
            child.end(1, "the job that spawned it (" + jobId + ") aborted");
        }
    }

    public String jobId() {
        return jobId;
    }

    /**
     * Leaves objects for another rank of this job, which takes them with {@link #take} and the returned key: how an
     * {@code MPI.OBJECT} message between ranks of one JVM travels (the message carries the key; the objects are the
     * sender's copies). Objects nobody takes stay until the job is gone.
     */
    public long leave(Object[] items) {
        long key = nextParcel.getAndIncrement();
        parcels.put(key, items);
        return key;
    }

    /** Takes (removes) the objects left under {@code key}; null if there are none (never left, or taken). */
    public Object[] take(long key) {
        return parcels.remove(key);
    }

    // ---- bootstrap: key-value space and fence ----

    public void put(String key, String value) {
        kvs.put(key, value);
    }

    public String get(String key) {
        return kvs.get(key);
    }

    /** Barrier over every rank of the job. Throws {@link JobAbortedError} if the job aborts meanwhile. */
    public void fence() {
        lock.lock();
        try {
            checkAborted();
            long gen = fenceGeneration;
            if (++fenceArrived == size) {
                fenceArrived = 0;
                fenceGeneration++;
                changed.signalAll();
                return;
            }
            while (gen == fenceGeneration) {
                changed.await(100, TimeUnit.MILLISECONDS);
                checkAborted();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JobAbortedError(1, "interrupted in the bootstrap fence");
        } finally {
            lock.unlock();
        }
    }

    // ---- endpoints ----

    public void register(int rank, InprocEndpoint endpoint) {
        endpoints[rank] = endpoint;
    }

    /**
     * Rank {@code rank}'s shared-memory transport parks {@code t} until a peer wakes it (null: no longer). One thread
     * of a rank sleeps there at a time (the one that drives its progress).
     */
    public void sleeping(int rank, Thread t) {
        sleepers.set(rank, t);
    }

    /** Unparks the thread parked in rank {@code rank}'s shared-memory transport, if any. */
    public void wakeSleeper(int rank) {
        Thread t = rank >= 0 && rank < sleepers.length() ? sleepers.get(rank) : null;
        if (t != null) {
            java.util.concurrent.locks.LockSupport.unpark(t);
        }
    }

    public InprocEndpoint endpoint(int rank) {
        return endpoints[rank];
    }

    /** Records that a rank called MPI.Finalize. */
    public void finalized(int rank) {
        lock.lock();
        try {
            finalized[rank] = true;
        } finally {
            lock.unlock();
        }
    }

    // ---- abort ----

    /** Aborts the job: the first call wins; every rank waiting inside MPI gets a {@link JobAbortedError}. */
    public void abort(int rank, int exitCode, String message) {
        lock.lock();
        try {
            if (abortCode != Integer.MIN_VALUE) {
                return;
            }
            abortMessage = message;
            abortRank = rank;
            runningAtAbort = size - finished - (rank >= 0 ? 1 : 0);
            abortCode = exitCode;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (linked) {
            // before the ranks are woken: a rank that ends may be the last, and the last closes nothing of a linked
            // job, but the refusal must reach every engine while it still runs
            for (InprocEndpoint e : endpoints) {
                if (e != null) {
                    e.refuseOtherJobs();
                }
            }
        }
        for (InprocEndpoint e : endpoints) {
            if (e != null) {
                e.wakeAll();
            }
        }
        String why = "job " + jobId + " aborted: " + message;
        for (LossListener l : lossListeners) {
            l.lost(-1, why);
        }
        for (ThreadsJob c : children) {
            c.end(exitCode, "the job that spawned it (" + jobId + ") aborted");
        }
    }

    /** Why a job ends when a rank's main returns after MPI_Init and before MPI_Finalize (as processes mode says). */
    private static final String UNFINALIZED = "exited with code 0 without finalizing (no MPI.Finalize, or it exited "
            + "during it)";

    /**
     * jmpirun --threads: a rank whose main returned after MPI_Init without MPI_Finalize ends the job with exit code 1,
     * as the JVM of a rank that does so ends a job in processes mode (the ranks waiting for it would wait forever).
     */
    private void failIfUnfinalized(int rank) {
        boolean unfinalized;
        lock.lock();
        try {
            unfinalized = endpoints[rank] != null && !finalized[rank];
        } finally {
            lock.unlock();
        }
        if (unfinalized && !aborted()) {
            abort(rank, 1, UNFINALIZED);
        }
    }

    /** Ranks whose thread has not ended yet. */
    public int ranksRunning() {
        lock.lock();
        try {
            return size - finished;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends the job from outside (jmpirun after a signal or a timeout): like an abort by no rank, with exit code
     * {@code exitCode}; ranks blocked in MPI wake and end.
     */
    public void end(int exitCode, String reason) {
        abort(-1, exitCode, reason);
    }

    public boolean aborted() {
        return abortCode != Integer.MIN_VALUE;
    }

    /** Throws {@link JobAbortedError} when the job has been aborted. Cheap: one volatile read. */
    public void checkAborted() {
        int c = abortCode;
        if (c != Integer.MIN_VALUE) {
            throw new JobAbortedError(c, abortMessage);
        }
    }

    public String abortMessage() {
        return abortMessage;
    }

    // ---- results ----

    /** Waits until every rank thread has ended or the timeout elapses; returns whether all ended. */
    public boolean awaitCompletion(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        lock.lock();
        try {
            while (finished < size) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                changed.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Per-rank failure (null where the rank ended normally), as far as ranks have ended. */
    public Throwable[] failures() {
        lock.lock();
        try {
            return failures.clone();
        } finally {
            lock.unlock();
        }
    }

    /** Per-rank exit codes (0 normal, the abort code, or 1 for an uncaught exception). */
    public int[] exitCodes() {
        lock.lock();
        try {
            return exitCodes.clone();
        } finally {
            lock.unlock();
        }
    }

    /** The job's exit code: the abort code if it aborted, else the first non-zero rank code, else 0. */
    public int exitCode() {
        if (aborted()) {
            return abortCode;
        }
        for (int c : exitCodes()) {
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** The rank threads (for stack dumps). */
    public Thread[] threads() {
        return threads.clone();
    }

    // ---- running a main class (jmpirun --threads) ----

    /**
     * Runs {@code mainClass.main(args)} on {@code n} rank threads and returns the job's exit code. With
     * {@code tagOutput}, every line a rank prints is prefixed with {@code [rank]}. After an abort, ranks still
     * computing get {@code graceMillis} to end; then the result is returned regardless (rank threads are daemons).
     */
    public static int runMain(int n, URL[] classPath, String mainClass, String[] args, boolean tagOutput,
            long graceMillis) throws InterruptedException {
        return runMain(n, classPath, mainClass, args, tagOutput, graceMillis, job -> {});
    }

    /** {@link #runMain(int, URL[], String, String[], boolean, long)}, telling {@code started} the job once it runs. */
    public static int runMain(int n, URL[] classPath, String mainClass, String[] args, boolean tagOutput,
            long graceMillis, java.util.function.Consumer<ThreadsJob> started) throws InterruptedException {
        PrintStream out = System.out;
        PrintStream err = System.err;
        if (tagOutput) {
            System.setOut(new PrintStream(new RankTaggingStream(out), true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(new RankTaggingStream(err), true, StandardCharsets.UTF_8));
        }
        try {
            ThreadsJob job = start(n, classPath, ThreadsJob.class.getClassLoader(), (rank, loader) -> {
                StartupTrace.mark("threads mode: rank thread running");
                MainMethod m = MainMethod.of(mainClass, loader);
                StartupTrace.mark("threads mode: main class loaded");
                m.invoke(args.clone());
                ((RankClassLoader) loader).job().failIfUnfinalized(rank);
            });
            started.accept(job);
            while (!job.awaitCompletion(100, TimeUnit.MILLISECONDS)) {
                if (job.aborted()) {
                    job.awaitCompletion(graceMillis, TimeUnit.MILLISECONDS);
                    break;
                }
            }
            Throwable[] f = job.failures();
            for (Throwable t : f) {
                if (t instanceof MainMethod.NotFound nf) {
                    // as java says it, once (every rank met the same)
                    System.err.println(nf.getMessage());
                    return 1;
                }
            }
            for (int r = 0; r < n; r++) {
                if (f[r] != null && !(f[r] instanceof JobAbortedError)) {
                    System.err.println("jmpirun: rank " + r + " ended with an exception:");
                    f[r].printStackTrace();
                }
            }
            int culprit = job.abortRank;
            if (job.aborted() && culprit >= 0) {
                // the aborting rank printed its reason already; this closes the story as processes mode does
                int still = job.runningAtAbort;
                boolean failed = f[culprit] != null && !(f[culprit] instanceof JobAbortedError);
                System.err.println("jmpirun: rank " + culprit + (failed ? " ended with an exception (exit code "
                        + job.exitCode() + ")" : UNFINALIZED.equals(job.abortMessage) ? " " + UNFINALIZED
                        : " called abort with exit code " + job.exitCode())
                        + (still <= 0 ? "" : "; killed " + (still == 1 ? "the 1 rank" : "the " + still + " ranks")
                                + " still running"));
            }
            return job.exitCode();
        } finally {
            System.out.flush();
            System.err.flush();
            System.setOut(out);
            System.setErr(err);
        }
    }

    /** Prefixes each line with the writing thread's rank; lines are buffered per thread. */
    private static final class RankTaggingStream extends OutputStream {
        private final PrintStream target;
        private final ThreadLocal<ByteArrayOutputStream> line = ThreadLocal.withInitial(ByteArrayOutputStream::new);

        RankTaggingStream(PrintStream target) {
            this.target = target;
        }

        @Override
        public void write(int b) {
            ByteArrayOutputStream l = line.get();
            l.write(b);
            if (b == '\n') {
                emit(l);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ByteArrayOutputStream l = line.get();
            int start = off;
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    l.write(b, start, i + 1 - start);
                    emit(l);
                    start = i + 1;
                }
            }
            l.write(b, start, off + len - start);
        }

        @Override
        public void flush() {
            // partial lines stay buffered until their newline, so that ranks' lines never interleave
            target.flush();
        }

        private void emit(ByteArrayOutputStream l) {
            int r = currentRank();
            byte[] prefix = (r >= 0 ? "[" + r + "] " : "").getBytes(StandardCharsets.UTF_8);
            byte[] body = l.toByteArray();
            byte[] all = Arrays.copyOf(prefix, prefix.length + body.length);
            System.arraycopy(body, 0, all, prefix.length, body.length);
            target.write(all, 0, all.length);
            l.reset();
        }
    }
}
