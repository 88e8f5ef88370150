package org.jmpi.dl;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * A Horovod-style gradient all-reduce: every rank submits named tensors as back-propagation produces them, and gets
 * each back, in place, holding the sum or average over the ranks.
 *
 * <pre>{@code
 * MPI.InitThread(args, MPI.THREAD_MULTIPLE);
 * try (GradientReducer reducer = GradientReducer.create(MPI.COMM_WORLD)) {
 *     reducer.broadcast(weights, 0);                       // same start on every rank
 *     for (...) {
 *         List<CompletableFuture<float[]>> done = new ArrayList<>();
 *         for (Parameter p : model.backward(batch)) {      // last layer first
 *             done.add(reducer.submit(p.name(), p.gradients()));
 *         }
 *         done.forEach(CompletableFuture::join);         // gradients now averaged
 *         optimizer.step(model);
 *     }
 * }
 * }</pre>
 *
 * <h2>How it works</h2>
 * A background thread per rank runs a negotiation cycle {@link ReducerOptions#cycleTime()} after its rank submits
 * something (so that the tensors submitted in quick succession share the cycle), and every 100 ms when idle: it
 * sends rank 0 the names of
 * the tensors submitted since the last cycle (with their length, operation and compression); rank 0 answers every
 * rank with the tensors that are now ready on all ranks, grouped into fused buffers (see {@link Coordinator}); then
 * every rank copies each group into a buffer of at most {@link ReducerOptions#fusionBytes()}, all-reduces it with the
 * {@link Algorithm} chosen at creation and copies the results out, completing the tensors' futures. Tensors may be
 * submitted in any order on each rank: they are matched by name. A tensor name may be reused once its future has
 * completed (the usual case: the same parameter in every step).
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li>MPI must run with {@link MPI#THREAD_MULTIPLE} support (jmpi always provides it): the background thread calls
 *       MPI while the user's threads do. The reducer works on duplicates of the communicator, so the caller may go on
 *       using the original one.</li>
 *   <li>A submitted tensor must not be touched until its future completes; the future's value is the same object.
 *       Floats are read and written in native byte order ({@code FloatBuffer} from its position to its limit,
 *       {@code MemorySegment} whole).</li>
 *   <li>NaN and infinities are reduced like any value (IEEE rules: a NaN anywhere gives NaN) and passed through;
 *       nothing checks for them.</li>
 *   <li>{@link #create}, {@link #broadcast}, {@link #allgather}, {@link #join} and {@link #close} are collective:
 *       every rank of the communicator calls them, in the same order.</li>
 * </ul>
 */
public final class GradientReducer implements AutoCloseable {
    /** Longest tensor name, in characters. */
    public static final int MAX_NAME_LENGTH = 1024;
    /** Most elements in one tensor (its fp32 bytes must fit a Java array index). */
    public static final int MAX_ELEMENTS = (Integer.MAX_VALUE - 64) / 4;

    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    /**
     * How long a waiting thread of the reducer polls before it sleeps: the negotiation's first step, the background
     * thread after a cycle that did work (the next step's tensors often follow at once), {@link #synchronize}. It
     * polls with {@code Thread.yield()}, not a busy spin: a rank's two threads (the program's and the reducer's) often
     * share one core, and the poller must not keep the other one from running.
     */
    static final long SPIN_NANOS = 50_000;
    /** How often an idle rank negotiates (see run()). */
    static final long IDLE_CYCLE_NANOS = 100_000_000;

    private final ReducerOptions options;
    private final Intracomm ctrl;
    private final Intracomm user;
    private final int rank;
    private final int size;
    private final FusedAllreduce allreduce;
    private final Coordinator coordinator;
    private final Timeline timeline;
    private final Thread thread;

    /** Submitted, not yet seen by the background thread. */
    private final ConcurrentLinkedQueue<Entry> submitted = new ConcurrentLinkedQueue<>();
    /** Every tensor name between submit and completion (to refuse a second submit under the same name). */
    private final ConcurrentHashMap<String, Entry> inFlight = new ConcurrentHashMap<>();
    private volatile boolean joinRequested;
    private volatile CompletableFuture<Integer> joinFuture;
    private volatile boolean closeRequested;
    private volatile Throwable failure;

    // Background thread only:
    private final Map<String, Entry> waiting = new HashMap<>();
    private final Map<String, float[]> residuals = new HashMap<>();
    private ByteBuffer fusion;
    private ByteBuffer fusion16;
    private final java.nio.IntBuffer lengthOut = MPI.newIntBuffer(1);
    private final java.nio.IntBuffer lengthsIn;
    private boolean joinSent;
    private boolean lastCycleReduced;
    private long cycles;
    private final Stats stats = new Stats();

    /** Counters of the background thread, read with {@link #stats()}. */
    public static final class Stats {
        private volatile long cycles;
        private volatile long fusedBuffers;
        private volatile long tensors;
        private volatile long bytes;
        private volatile long negotiationNanos;
        private volatile long reductionNanos;

        /** Time the background thread spent negotiating (all cycles, waiting for other ranks included). */
        public long negotiationNanos() {
            return negotiationNanos;
        }

        /** Time the background thread spent copying and all-reducing fused buffers. */
        public long reductionNanos() {
            return reductionNanos;
        }

        public long cycles() {
            return cycles;
        }

        /** All-reduces done (one per fused buffer). */
        public long fusedBuffers() {
            return fusedBuffers;
        }

        public long tensors() {
            return tensors;
        }

        /** fp32 bytes of the tensors reduced. */
        public long bytes() {
            return bytes;
        }

        @Override
        public String toString() {
            return "cycles=" + cycles + " fusedBuffers=" + fusedBuffers + " tensors=" + tensors + " bytes=" + bytes
                    + " negotiating=" + negotiationNanos / 1_000_000 + "ms reducing=" + reductionNanos / 1_000_000
                    + "ms";
        }
    }

    private static final class Entry {
        final String name;
        final Object tensor;
        final MemorySegment data;
        final int elements;
        final ReduceOp op;
        final Compression compression;
        final CompletableFuture<Object> future = new CompletableFuture<>();
        final long submitted = System.nanoTime();

        Entry(String name, Object tensor, MemorySegment data, ReduceOp op, Compression compression) {
            this.name = name;
            this.tensor = tensor;
            this.data = data;
            this.elements = (int) (data.byteSize() / 4);
            this.op = op;
            this.compression = compression;
        }
    }

    private GradientReducer(Intracomm comm, ReducerOptions options) throws MPIException {
        this.options = options;
        rank = comm.getRank();
        size = comm.getSize();
        // The timeline file is checked on every rank before anything starts, and the verdict agreed on, so a bad
        // path fails every rank's create() with the same message instead of one rank only.
        String problem = null;
        if (options.timeline() != null) {
            try {
                Timeline.check(options.timeline(), rank);
            } catch (IOException e) {
                problem = e.getMessage();
            }
        }
        int[] bad = {problem == null ? 0 : 1};
        int[] anyBad = new int[1];
        comm.allReduce(bad, anyBad, 1, MPI.INT, MPI.MAX);
        if (anyBad[0] != 0) {
            throw new IllegalArgumentException(problem != null ? problem
                    : "the timeline file " + options.timeline() + " cannot be written on another rank");
        }
        ctrl = comm.dup();
        user = comm.dup();
        lengthsIn = MPI.newIntBuffer(size);
        allreduce = new FusedAllreduce(ctrl, options.algorithm(), options.ranksPerHost());
        coordinator = rank == 0 ? new Coordinator(size, options) : null;
        try {
            timeline = options.timeline() == null ? null : Timeline.open(options.timeline(), rank);
        } catch (IOException e) {
            throw new UncheckedIOException("timeline " + options.timeline() + ": " + e.getMessage(), e);
        }
        thread = Thread.ofPlatform().daemon().name("jmpi-dl-reducer-" + rank).unstarted(this::run);
        thread.start();
    }

    /** A reducer on {@code comm} with {@link ReducerOptions#fromEnvironment()}. Collective. */
    public static GradientReducer create(Intracomm comm) throws MPIException {
        return create(comm, ReducerOptions.fromEnvironment());
    }

    /** A reducer on {@code comm} with these options. Collective: every rank passes the same options. */
    public static GradientReducer create(Intracomm comm, ReducerOptions options) throws MPIException {
        Objects.requireNonNull(comm, "comm");
        Objects.requireNonNull(options, "options");
        return new GradientReducer(comm, options);
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    public ReducerOptions options() {
        return options;
    }

    /** The all-reduce algorithm in use (never {@link Algorithm#AUTO}). */
    public Algorithm algorithm() {
        return allreduce.algorithm;
    }

    /** How many hosts the ranks span (as the reducer groups them). */
    public int hosts() {
        return allreduce.hosts;
    }

    public Stats stats() {
        return stats;
    }

    /** Averages {@code tensor} over the ranks, in place, with the default compression. */
    public CompletableFuture<float[]> submit(String name, float[] tensor) {
        return submit(name, tensor, ReduceOp.AVERAGE, options.compression());
    }

    public CompletableFuture<float[]> submit(String name, float[] tensor, ReduceOp op) {
        return submit(name, tensor, op, options.compression());
    }

    /** Reduces {@code tensor} over the ranks, in place; the future completes with {@code tensor}. */
    public CompletableFuture<float[]> submit(String name, float[] tensor, ReduceOp op, Compression compression) {
        Objects.requireNonNull(tensor, "tensor");
        return cast(enqueue(name, tensor, MemorySegment.ofArray(tensor), op, compression));
    }

    /** Reduces the floats from {@code tensor}'s position to its limit, in place (heap or direct buffer). */
    public CompletableFuture<FloatBuffer> submit(String name, FloatBuffer tensor, ReduceOp op,
            Compression compression) {
        Objects.requireNonNull(tensor, "tensor");
        if (tensor.isReadOnly()) {
            throw new IllegalArgumentException("tensor '" + name + "': read-only buffer");
        }
        if (tensor.order() != ByteOrder.nativeOrder()) {
            throw new IllegalArgumentException("tensor '" + name + "': FloatBuffer in " + tensor.order()
                    + ", not the native order " + ByteOrder.nativeOrder());
        }
        MemorySegment all = MemorySegment.ofBuffer(tensor);
        return cast(enqueue(name, tensor, all, op, compression));
    }

    /**
     * Reduces the segment's floats (native order; its size a multiple of 4 bytes), in place. The segment must be
     * accessible from other threads (not from {@code Arena.ofConfined()}).
     */
    public CompletableFuture<MemorySegment> submit(String name, MemorySegment tensor, ReduceOp op,
            Compression compression) {
        Objects.requireNonNull(tensor, "tensor");
        if (tensor.isReadOnly()) {
            throw new IllegalArgumentException("tensor '" + name + "': read-only segment");
        }
        if (!tensor.isAccessibleBy(thread)) {
            throw new IllegalArgumentException("tensor '" + name + "': the segment is confined to one thread; the"
                    + " reducer's thread must reach it (allocate it in Arena.ofShared(), ofAuto() or global())");
        }
        if (tensor.byteSize() % 4 != 0) {
            throw new IllegalArgumentException("tensor '" + name + "': " + tensor.byteSize()
                    + " bytes is not a whole number of floats");
        }
        return cast(enqueue(name, tensor, tensor, op, compression));
    }

    @SuppressWarnings("unchecked")
    private static <T> CompletableFuture<T> cast(CompletableFuture<Object> f) {
        return (CompletableFuture<T>) (CompletableFuture<?>) f;
    }

    private CompletableFuture<Object> enqueue(String name, Object tensor, MemorySegment data, ReduceOp op,
            Compression compression) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(compression, "compression");
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("tensor name must have 1 to " + MAX_NAME_LENGTH + " characters, got "
                    + name.length());
        }
        if (data.byteSize() / 4 > MAX_ELEMENTS) {
            throw new IllegalArgumentException("tensor '" + name + "': " + data.byteSize() / 4
                    + " elements, more than " + MAX_ELEMENTS);
        }
        checkUsable();
        if (joinRequested) {
            throw new IllegalStateException("tensor '" + name + "': this rank has joined; submit nothing until join()"
                    + " returns");
        }
        Entry e = new Entry(name, tensor, data, op, compression);
        if (inFlight.putIfAbsent(name, e) != null) {
            throw new IllegalStateException("tensor '" + name + "' is already in flight: wait for its future before"
                    + " submitting it again");
        }
        submitted.add(e);
        LockSupport.unpark(thread);
        return e.future;
    }

    private void checkUsable() {
        if (closeRequested) {
            throw new IllegalStateException("the reducer is closed");
        }
        Throwable f = failure;
        if (f != null) {
            throw new ReducerException("the reducer failed: " + f, f);
        }
    }

    /**
     * Tells the other ranks that this one has no more data this epoch, and waits until every rank has said so.
     * Meanwhile this rank takes part in the others' all-reduces with zeros (not counted in averages). Collective.
     *
     * @return the rank that joined last
     */
    public int join() {
        checkUsable();
        CompletableFuture<Integer> f = new CompletableFuture<>();
        joinFuture = f;
        joinRequested = true; // the background thread clears it when every rank has joined
        LockSupport.unpark(thread);
        return f.join();
    }

    /** Copies {@code values} of rank {@code root} to every rank (for the initial parameters). Collective. */
    public void broadcast(float[] values, int root) throws MPIException {
        checkRoot(root);
        int[] len = {values.length};
        user.bcast(len, 1, MPI.INT, root);
        if (len[0] != values.length) {
            throw new IllegalArgumentException("broadcast: root " + root + " has " + len[0] + " floats, rank " + rank
                    + " has " + values.length);
        }
        user.bcast(values, values.length, MPI.FLOAT, root);
    }

    /** Broadcasts every array of {@code tensors} (in name order) from rank {@code root}. Collective. */
    public void broadcast(Map<String, float[]> tensors, int root) throws MPIException {
        for (Map.Entry<String, float[]> e : new java.util.TreeMap<>(tensors).entrySet()) {
            broadcast(e.getValue(), root);
        }
    }

    /** Every rank's {@code values}, concatenated in rank order (for metrics). Collective; equal lengths. */
    public double[] allgather(double... values) throws MPIException {
        int[] len = {values.length};
        int[] all = new int[size];
        user.allGather(len, 1, MPI.INT, all, 1, MPI.INT);
        for (int r = 0; r < size; r++) {
            if (all[r] != values.length) {
                throw new IllegalArgumentException("allgather: rank " + r + " passed " + all[r] + " values, rank "
                        + rank + " passed " + values.length);
            }
        }
        double[] out = new double[values.length * size];
        user.allGather(values, values.length, MPI.DOUBLE, out, values.length, MPI.DOUBLE);
        return out;
    }

    private void checkRoot(int root) {
        if (root < 0 || root >= size) {
            throw new IllegalArgumentException("root " + root + " is not a rank of a communicator of " + size);
        }
    }

    /**
     * Stops the background thread once every rank has closed its reducer, and frees the duplicated communicators.
     * Tensors still pending fail with a {@link ReducerException}. Collective.
     */
    @Override
    public void close() throws MPIException {
        if (closeRequested) {
            return;
        }
        closeRequested = true;
        LockSupport.unpark(thread);
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (timeline != null) {
            try {
                timeline.close();
            } catch (IOException e) {
                options.warnings().accept("jmpi-dl: timeline " + options.timeline() + ": " + e.getMessage());
            }
        }
        if (failure == null) {
            allreduce.close();
            user.free();
            ctrl.free();
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Background thread

    private void run() {
        long windowNanos = options.cycleTime().toNanos();
        long last = System.nanoTime();
        long busyUntil = 0; // poll instead of sleeping until then: work tends to follow work
        try {
            while (true) {
                // When a cycle starts:
                // - a submission starts one cycleTime after it was made (the batching window), so that the tensors
                //   a program submits in a loop or in quick succession share the cycle and the fused buffer;
                // - tensors of this rank that still wait for other ranks start one at once, and so does a pending
                //   join (a joined rank must take part in the others' reductions), a close: the first step of the
                //   cycle sleeps until the other ranks come, which they do as soon as they have something to say;
                // - otherwise, idle, every IDLE_CYCLE_NANOS: rare, because a rank that starts a cycle alone waits
                //   in it until every other rank starts one too, and meanwhile cannot take its own rank's new
                //   submissions. The idle cycles let rank 0 warn about stalls and fail stalled tensors.
                // Until then the thread polls for a while after a busy cycle (the next step's tensors often follow
                // at once, sooner than a sleeping thread wakes), else sleeps and is woken by submit.
                long now = System.nanoTime();
                Entry oldest = submitted.peek();
                long wait;
                boolean joined = joinSent;
                if ((joinRequested && !joinSent) || joined || closeRequested
                        || (oldest == null && !waiting.isEmpty())) {
                    wait = 0;
                } else if (oldest != null) {
                    wait = windowNanos - (now - oldest.submitted);
                } else {
                    wait = IDLE_CYCLE_NANOS - (now - last);
                }
                if (wait > 0) {
                    if (now - busyUntil < 0 || (oldest != null && wait < SPIN_NANOS)) {
                        Thread.yield();
                    } else {
                        LockSupport.parkNanos(this, wait);
                    }
                    continue;
                }
                last = now;
                if (cycle()) {
                    break;
                }
                if (!waiting.isEmpty() || lastCycleReduced) {
                    busyUntil = System.nanoTime() + SPIN_NANOS;
                }
            }
        } catch (Throwable t) {
            failure = t;
            options.warnings().accept("jmpi-dl: rank " + rank + ": the reducer's background thread failed: " + t);
            ReducerException e = new ReducerException("the reducer's background thread failed: " + t, t);
            failAll(e);
            CompletableFuture<Integer> j = joinFuture;
            if (j != null) {
                j.completeExceptionally(e);
            }
            return;
        }
        failAll(new ReducerException("the reducer was closed"));
    }

    private void failAll(ReducerException e) {
        for (Entry x : waiting.values()) {
            finish(x, e);
        }
        waiting.clear();
        Entry x;
        while ((x = submitted.poll()) != null) {
            finish(x, e);
        }
    }

    private void finish(Entry e, Throwable error) {
        inFlight.remove(e.name, e);
        if (error == null) {
            e.future.complete(e.tensor);
        } else {
            e.future.completeExceptionally(error);
        }
    }

    /** One negotiation cycle and the work it yields; true when the reducer shuts down. */
    private boolean cycle() throws MPIException, IOException {
        List<Negotiation.Descriptor> fresh = new ArrayList<>();
        Entry e;
        while ((e = submitted.poll()) != null) {
            waiting.put(e.name, e);
            fresh.add(new Negotiation.Descriptor(e.name, e.elements, e.op, e.compression));
        }
        int flags = 0;
        if (joinRequested && !joinSent) {
            flags |= Negotiation.FLAG_JOIN;
            joinSent = true;
        }
        if (closeRequested) {
            flags |= Negotiation.FLAG_SHUTDOWN;
        }
        long t0 = System.nanoTime();
        byte[] mine = Negotiation.encode(new Negotiation.Requests(flags, fresh));
        byte[] answer = negotiate(mine);
        List<Negotiation.Response> responses = Negotiation.decodeResponses(answer, answer.length);
        long now = System.nanoTime();
        stats.negotiationNanos = stats.negotiationNanos + (now - t0);
        cycles++;
        stats.cycles = cycles;
        lastCycleReduced = false;
        boolean shutdown = false;
        for (Negotiation.Response r : responses) {
            switch (r) {
                case Negotiation.Allreduce a -> {
                    long r0 = System.nanoTime();
                    reduce(a, now);
                    stats.reductionNanos = stats.reductionNanos + (System.nanoTime() - r0);
                    lastCycleReduced = true;
                }
                case Negotiation.Error err -> {
                    for (String name : err.names()) {
                        Entry x = waiting.remove(name);
                        if (x != null) {
                            finish(x, new ReducerException(err.message()));
                        }
                    }
                }
                case Negotiation.Joined j -> {
                    joinSent = false;
                    joinRequested = false; // before the future: a join() that returns may submit at once
                    CompletableFuture<Integer> f = joinFuture;
                    joinFuture = null;
                    if (f != null) {
                        f.complete(j.lastRank());
                    }
                }
                case Negotiation.Shutdown s -> shutdown = true;
            }
        }
        if (timeline != null && !responses.isEmpty()) {
            timeline.flush();
        }
        return shutdown;
    }

    /**
     * Gather every rank's request bytes at rank 0, run the coordinator there, broadcast its answer. Only the first
     * step waits for the slowest rank (which may be computing for a while): it is non-blocking and waited for
     * politely ({@link #await}), so that this thread does not take a core from the ranks' compute threads. The
     * other steps find every rank present and are blocking.
     */
    private byte[] negotiate(byte[] mine) throws MPIException {
        lengthOut.put(0, mine.length);
        await(ctrl.iGather(lengthOut, 1, MPI.INT, lengthsIn, 1, MPI.INT, 0));
        byte[] answer;
        int[] answerLen = new int[1];
        if (rank == 0) {
            int[] lens = new int[size];
            int[] displs = new int[size];
            int total = 0;
            for (int r = 0; r < size; r++) {
                lens[r] = lengthsIn.get(r);
                displs[r] = total;
                total += lens[r];
            }
            byte[] all = new byte[total];
            ctrl.gatherv(mine, mine.length, MPI.BYTE, all, lens, displs, MPI.BYTE, 0);
            Negotiation.Requests[] requests = new Negotiation.Requests[size];
            for (int r = 0; r < size; r++) {
                requests[r] = Negotiation.decodeRequests(all, displs[r], lens[r]);
            }
            answer = Negotiation.encode(coordinator.cycle(requests, System.nanoTime()));
            answerLen[0] = answer.length;
            ctrl.bcast(answerLen, 1, MPI.INT, 0);
        } else {
            ctrl.gatherv(mine, mine.length, MPI.BYTE, 0);
            ctrl.bcast(answerLen, 1, MPI.INT, 0);
            answer = new byte[answerLen[0]];
        }
        ctrl.bcast(answer, answerLen[0], MPI.BYTE, 0);
        return answer;
    }

    /** Waits for {@code r}: polls briefly, then parks between polls for 2 us doubling up to 100 us. */
    private static void await(mpi.Request r) throws MPIException {
        long start = System.nanoTime();
        long park = 2_000;
        while (!r.test()) {
            if (System.nanoTime() - start < SPIN_NANOS) {
                Thread.yield();
                continue;
            }
            LockSupport.parkNanos(park);
            park = Math.min(2 * park, 100_000);
        }
    }

    /**
     * Waits for a tensor's future and returns its value, like {@code future.join()}, but polls (yielding) for a few
     * tens of microseconds first: a thread that goes to sleep at once takes longer to wake (tens of microseconds on a
     * virtual machine) than a short all-reduce takes. Horovod's {@code synchronize(handle)}.
     *
     * @throws java.util.concurrent.CompletionException with the {@link ReducerException} when the reduction failed
     */
    public static <T> T synchronize(CompletableFuture<T> future) {
        long start = System.nanoTime();
        while (!future.isDone() && System.nanoTime() - start < SPIN_NANOS) {
            Thread.yield();
        }
        return future.join();
    }

    /** Copy in, all-reduce, copy out one fused buffer; completes its tensors' futures. */
    private void reduce(Negotiation.Allreduce a, long negotiated) throws MPIException, IOException {
        int count = a.names().size();
        Entry[] entries = new Entry[count];
        for (int i = 0; i < count; i++) {
            entries[i] = waiting.remove(a.names().get(i));
            // null: this rank has joined and adds zeros
        }
        try {
            reduce(a, negotiated, entries);
        } catch (MPIException | IOException | RuntimeException | Error e) {
            ReducerException x = new ReducerException("all-reduce of " + a.names() + " failed: " + e, e);
            for (Entry entry : entries) {
                if (entry != null) {
                    finish(entry, x);
                }
            }
            throw e;
        }
    }

    private void reduce(Negotiation.Allreduce a, long negotiated, Entry[] entries) throws MPIException, IOException {
        int count = entries.length;
        long total = a.totalElements();
        Compression c = a.compression();
        boolean average = a.op() == ReduceOp.AVERAGE;
        float scale = average ? 1.0f / a.contributors() : 1.0f;
        long copyIn = System.nanoTime();
        ByteBuffer buf;
        if (c == Compression.NONE) {
            buf = fusion = ensure(fusion, total * 4);
            MemorySegment seg = MemorySegment.ofBuffer(buf);
            long at = 0;
            for (int i = 0; i < count; i++) {
                long bytes = 4L * a.elements()[i];
                if (entries[i] != null) {
                    MemorySegment.copy(entries[i].data, 0, seg, at, bytes);
                } else {
                    seg.asSlice(at, bytes).fill((byte) 0);
                }
                at += bytes;
            }
        } else {
            // Prescale for averages so that fp16 sums stay in range; the residual is kept in unscaled units.
            buf = fusion16 = ensure(fusion16, total * 2);
            MemorySegment seg = MemorySegment.ofBuffer(buf);
            long at = 0;
            boolean feedback = options.errorFeedback();
            for (int i = 0; i < count; i++) {
                int n = a.elements()[i];
                Entry x = entries[i];
                if (x == null) {
                    seg.asSlice(at, 2L * n).fill((byte) 0);
                } else {
                    float[] res = feedback ? residuals.get(x.name) : null;
                    if (feedback && (res == null || res.length != n)) {
                        res = new float[n]; // first step of this tensor, or its length changed: no carried error
                        residuals.put(x.name, res);
                    }
                    MemorySegment d = x.data;
                    for (int k = 0; k < n; k++) {
                        float v = d.getAtIndex(F32, k);
                        if (res != null) {
                            v += res[k];
                        }
                        short h = c.encode(v * scale);
                        if (res != null) {
                            float sent = c.decode(h) / scale;
                            res[k] = Float.isFinite(sent) && Float.isFinite(v) ? v - sent : 0f;
                        }
                        seg.set(I16, at + 2L * k, h);
                    }
                }
                at += 2L * n;
            }
        }
        long start = System.nanoTime();
        allreduce.sum(buf, (int) total, c);
        long copyOut = System.nanoTime();
        MemorySegment seg = MemorySegment.ofBuffer(buf);
        long at = 0;
        for (int i = 0; i < count; i++) {
            int n = a.elements()[i];
            Entry x = entries[i];
            if (x != null) {
                MemorySegment d = x.data;
                if (c == Compression.NONE) {
                    if (!average || scale == 1.0f) {
                        MemorySegment.copy(seg, at, d, 0, 4L * n);
                    } else if (x.tensor instanceof float[] arr) {
                        for (int k = 0; k < n; k++) {
                            arr[k] = seg.get(F32, at + 4L * k) * scale;
                        }
                    } else {
                        for (int k = 0; k < n; k++) {
                            d.setAtIndex(F32, k, seg.get(F32, at + 4L * k) * scale);
                        }
                    }
                } else {
                    for (int k = 0; k < n; k++) {
                        d.setAtIndex(F32, k, c.decode(seg.get(I16, at + 2L * k)));
                    }
                }
            }
            at += (long) n * c.wireBytes();
        }
        long end = System.nanoTime();
        if (timeline != null) {
            timeline.fused(count, total * 4, allreduce.algorithm.name(), start, copyOut);
            for (int i = 0; i < count; i++) {
                Entry x = entries[i];
                String name = a.names().get(i);
                if (x != null) {
                    timeline.span(name, "NEGOTIATE", x.submitted, Math.max(x.submitted, negotiated));
                    if (copyIn > negotiated) {
                        timeline.span(name, "WAIT_FOR_FUSION", negotiated, copyIn);
                    }
                }
                timeline.span(name, "COPY_IN", copyIn, start);
                timeline.span(name, "ALLREDUCE", start, copyOut);
                timeline.span(name, "COPY_OUT", copyOut, end);
            }
        }
        stats.fusedBuffers = stats.fusedBuffers + 1;
        stats.tensors = stats.tensors + count;
        stats.bytes = stats.bytes + total * 4;
        for (Entry x : entries) {
            if (x != null) {
                finish(x, null);
            }
        }
    }

    private static ByteBuffer ensure(ByteBuffer b, long bytes) {
        if (b != null && b.capacity() >= bytes) {
            return b;
        }
        long cap = Math.max(bytes, b == null ? 4096 : Math.min(2L * b.capacity(), Integer.MAX_VALUE - 64));
        cap = Math.max(cap, bytes);
        return MPI.newByteBuffer((int) cap);
    }
}
