package org.jmpi.coll;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import org.jmpi.datatype.MessageData;
import org.jmpi.pt2pt.Engine;
import org.jmpi.pt2pt.SendMode;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;
import org.jmpi.runtime.Progress;
import org.jmpi.runtime.RequestImpl;
import org.jmpi.shared.JobAbortedError;

/**
 * A collective operation as a list of {@link Round}s, and the request that completes when the last round has. Each
 * round runs its local steps (copies, reductions) in order, then posts its receives and starts its sends; the next
 * round starts once every message of this one has completed. Every collective is a schedule: a blocking call starts
 * one and waits for it, a non-blocking call returns it.
 *
 * <p><b>Building.</b> An algorithm class appends rounds with {@link #round()} before {@link #start()}; building
 * never communicates. Temporary arrays come from {@link #tempArray} and go back to the {@link ArrayPool} when the
 * schedule completes.
 *
 * <p><b>Progress.</b> Every request of a round gets the same completion callback, {@link #signal()}, which advances
 * the schedule as far as it can without blocking: it runs in the thread that completed the request (in threads mode
 * possibly another rank's thread, between processes the thread polling the transport, often the one waiting in
 * {@code test} or {@code wait} on an unrelated request). So a schedule moves on while its owner computes, and never
 * needs a poller or a helper thread.
 *
 * <p><b>Tags and order.</b> Messages travel on the communicator's collective context with the tag
 * {@code sequence}, which comes from {@link Communicator#nextCollective()}: the messages of
 * collectives in flight at the same time on one communicator never match each other. Inside one collective the
 * messages between two ranks match in the order they were sent (MPI's non-overtaking rule), so an algorithm must
 * add the receives from a peer in the order that peer adds its sends to it. Ranks may build different rounds (a
 * leaf of a tree has fewer than the root), which is why the round number is not part of the tag.
 *
 * <p><b>Errors.</b> A failed message or local step (say a user function that throws) is recorded and the schedule
 * goes on, so that peers are not left waiting; the first error becomes the request's error.
 *
 * <p>Threading: the rounds are built by one thread before {@link #start()} and not changed afterwards. Execution
 * state ({@code next}, {@code current}, {@code cursor}) is touched only by the thread that holds the drain, which
 * {@code wip} hands over: whoever raises it from 0 drains, others only count their signal and leave, and the drainer
 * loops until the count drops back to 0. The atomic updates of {@code wip} order one drainer's writes before the
 * next drainer's reads. Data written into buffers by a completing receive is published by the request's volatile
 * {@code done}, read in {@link #roundDone()} before any local step touches the data.
 */
public final class Schedule extends RequestImpl {
    private static final VarHandle WIP;

    static {
        try {
            WIP = MethodHandles.lookup().findVarHandle(Schedule.class, "wip", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Communicator comm;
    private final Engine engine;
    private final int context;
    private final int tagBase;
    private final String name;
    private final List<Round> rounds = new ArrayList<>();
    private final List<Object> temps = new ArrayList<>();
    private final Runnable signal = this::signal;
    /** While building: the group the rounds address (see {@link #within}), or null for the whole communicator. */
    private int[] view;
    private int viewRank;

    @SuppressWarnings("unused") // through WIP
    private volatile int wip;
    private boolean started;
    private int next;
    private Round current;
    private RequestImpl[] requests;
    private int cursor;
    private boolean finished;
    /** A persistent collective's schedule: started again by {@link #restart()}, temporaries kept until {@link #release()}. */
    private boolean persistent;
    /** A finished request of this schedule that had not settled when its round ended; see {@link #roundDone}. */
    private RequestImpl lingering;
    private int firstError;
    private String firstErrorMessage;

    /**
     * @param name the MPI call, for error messages (e.g. {@code MPI_Allreduce})
     */
    public Schedule(Communicator comm, Engine engine, Progress progress, String name) {
        this(comm, engine, progress, name, comm.nextCollective());
    }

    /**
     * A schedule for a call that has already taken its collective sequence number.
     *
     * @param sequence the call's {@link Communicator#nextCollective()}
     */
    public Schedule(Communicator comm, Engine engine, Progress progress, String name, int sequence) {
        super(progress);
        this.comm = comm;
        this.engine = engine;
        this.context = comm.collectiveContext();
        this.tagBase = sequence & Integer.MAX_VALUE;
        this.name = name;
    }

    public Communicator comm() {
        return comm;
    }

    /** The rank that the rounds being built address (in the group of {@link #within}, else in the communicator). */
    public int rank() {
        return view == null ? comm.rank() : viewRank;
    }

    /** The size of the group the rounds being built address. */
    public int size() {
        return view == null ? comm.size() : view.length;
    }

    /**
     * Builds the following rounds over a part of the communicator: an algorithm then sees {@code members} (comm
     * ranks, which must include this rank) as its whole group, {@link #rank()} and {@link #size()} in it, and its
     * peers are translated into comm ranks as it adds them. With null, the whole communicator again. How the
     * hierarchical collectives run the usual algorithms among the ranks of one host and among the hosts' leaders
     * ({@link Hierarchical}); the messages keep the call's context and tag.
     */
    void within(int[] members) {
        view = members;
        viewRank = members == null ? -1 : Hosts.indexOf(members, comm.rank());
    }

    public String name() {
        return name;
    }

    /** Appends a new, empty round. */
    public Round round() {
        if (started) {
            throw new IllegalStateException("schedule already started");
        }
        Round r = new Round(rounds.size(), view);
        rounds.add(r);
        return r;
    }

    /**
     * A zeroed-or-recycled array of {@code arrayType} with at least {@code length} entries, returned to the pool when
     * the schedule completes. Its contents are undefined.
     */
    public Object tempArray(Class<?> arrayType, int length) {
        Object a = ArrayPool.take(arrayType, length);
        temps.add(a);
        return a;
    }

    /** Temporary native memory of at least {@code bytes} bytes, returned to the pool when the schedule completes. */
    public java.lang.foreign.MemorySegment tempNative(long bytes) {
        java.lang.foreign.MemorySegment m = ArrayPool.takeNative(bytes);
        temps.add(m);
        return m.asSlice(0, bytes);
    }

    /** A temporary byte buffer of {@code bytes} bytes, as message data. */
    public MessageData tempBytes(long bytes) {
        if (bytes > Integer.MAX_VALUE - 16) {
            throw new MpiError(ErrorClass.ERR_COUNT, name + ": a temporary buffer of " + bytes
                    + " bytes is more than 2 GiB, which is not supported");
        }
        if (bytes == 0) {
            return MessageData.EMPTY;
        }
        byte[] a = (byte[]) tempArray(byte[].class, (int) bytes);
        return Blocks.of(a, 0, bytes);
    }

    /**
     * Makes this schedule a persistent collective's (MPI 4.0 section 6.13): built once, started any number of times by
     * {@link #restart()} with the same rounds, buffers and tag (the tag of the collective sequence number it was built
     * with: activations of one request never overlap, and messages between two ranks match in order, so an
     * activation's messages cannot meet another's; different requests have different tags, so they may start in any
     * order). Its temporaries stay with it until {@link #release()}. Returns this.
     */
    public Schedule persistent() {
        persistent = true;
        return this;
    }

    /**
     * Starts a persistent schedule again (the first call starts it): the previous activation must have completed.
     * Allocates nothing. Returns this.
     */
    public Schedule restart() {
        if (!persistent) {
            throw new IllegalStateException("not a persistent schedule");
        }
        if (!started) {
            return start();
        }
        if (!isDone() || !finished) { // done first: its volatile read orders the read of finished
            throw new MpiError(ErrorClass.ERR_REQUEST, name + ": started while its previous activation is active");
        }
        while (!settled()) {
            Thread.onSpinWait(); // the completing thread is still inside complete(): a few instructions
        }
        recycle();
        if (lingering != null) {
            engine.release(lingering);
            lingering = null;
        }
        next = 0;
        current = null;
        cursor = 0;
        firstError = 0;
        firstErrorMessage = null;
        finished = false;
        signal(); // its atomic update publishes the stores above to whichever thread drains
        return this;
    }

    /** Gives a persistent schedule's temporaries back to the pool (the request was freed); not started again. */
    public void release() {
        for (Object t : temps) {
            ArrayPool.give(t);
        }
        temps.clear();
    }

    /** Starts the schedule: runs as many rounds as can run at once. Returns this. */
    public Schedule start() {
        if (started) {
            throw new IllegalStateException("schedule already started");
        }
        started = true;
        signal();
        return this;
    }

    /**
     * Runs the schedule to its end in the calling thread, for a blocking call, instead of {@link #start()} and a wait:
     * round by round, each message through the engine's lane when the lane takes it (an eager send goes at once; a
     * receive takes the peer's next frame straight from the ring), the others as requests, waited for before the next
     * round. The same messages, order and errors as {@link #start()}; no callbacks, no drain.
     */
    public void run() {
        if (started) {
            throw new IllegalStateException("schedule already started");
        }
        started = true;
        try {
            for (int i = 0; i < rounds.size(); i++) {
                Round r = rounds.get(i);
                runLocals(r);
                runMessages(r);
            }
        } catch (JobAbortedError e) {
            throw e;
        } catch (MpiError e) {
            recordError(e.errorClass(), name + ": " + e.getMessage());
        } catch (RuntimeException e) {
            recordError(ErrorClass.ERR_INTERN, name + ": internal error in the collective schedule: " + e);
        }
        finish();
    }

    /** Ops of a round {@link #runMessages} tries the lane for at most (a bit each). */
    private static final int LANE_OPS = 64;

    /**
     * A round's messages for {@link #run}: sends through the lane first; receives through the lane while every send
     * went that way and every earlier receive too (so that receives from one peer keep their order, and nobody spins
     * for a message its peer sends only after its own receive); the rest posted (receives first) and waited for.
     */
    private void runMessages(Round r) {
        int n = r.opCount;
        if (n == 0) {
            return;
        }
        int tag = tagBase;
        int me = comm.rank();
        long rest = n > LANE_OPS ? -1L : 0L;
        if (n <= LANE_OPS) {
            boolean lane = true;
            for (int i = 0; i < n; i++) {
                if (r.isSend[i] && !engine.sendNow(r.data[i], comm.worldRank(r.peers[i]), context, me, tag)) {
                    rest |= 1L << i;
                    lane = false;
                }
            }
            for (int i = 0; i < n; i++) {
                if (!r.isSend[i] && (!lane || engine.receiveNow(r.data[i], context, comm.worldRank(r.peers[i]),
                        r.peers[i], tag) < 0)) {
                    rest |= 1L << i;
                    lane = false;
                }
            }
            if (rest == 0) {
                return;
            }
        }
        RequestImpl[] reqs = requests == null || requests.length < n ? new RequestImpl[Math.max(n, 4)] : requests;
        requests = reqs;
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (!r.isSend[i] && (rest & 1L << Math.min(i, 63)) != 0) {
                reqs[k++] = engine.irecv(r.data[i], context, r.peers[i], tag);
            }
        }
        for (int i = 0; i < n; i++) {
            if (r.isSend[i] && (rest & 1L << Math.min(i, 63)) != 0) {
                reqs[k++] = engine.isend(r.data[i], comm.worldRank(r.peers[i]), context, me, tag,
                        SendMode.STANDARD);
            }
        }
        Progress progress = progress();
        for (int i = 0; i < k; i++) {
            RequestImpl q = reqs[i];
            progress.await(q);
            if (q.error() != 0) {
                recordError(q.error(), name + ": " + q.errorMessage());
            }
            reqs[i] = null;
            engine.release(q);
        }
    }

    private void runLocals(Round r) {
        for (int i = 0; i < r.localCount; i++) {
            try {
                r.locals[i].run();
            } catch (MpiError e) {
                recordError(e.errorClass(), e.getMessage());
            } catch (RuntimeException e) {
                recordError(ErrorClass.ERR_OTHER, name + ": " + e);
            }
        }
    }

    /**
     * Advances the schedule as far as possible. Idempotent and thread-safe; the completion callback of every request
     * the schedule starts.
     */
    void signal() {
        if ((int) WIP.getAndAdd(this, 1) != 0) {
            return;
        }
        int missed = 1;
        do {
            drain();
            missed = (int) WIP.getAndAdd(this, -missed) - missed;
        } while (missed != 0);
    }

    private void drain() {
        try {
            while (!finished) {
                if (current != null) {
                    if (!roundDone()) {
                        return;
                    }
                    current = null;
                }
                if (next == rounds.size()) {
                    finish();
                    return;
                }
                startRound(rounds.get(next++));
            }
        } catch (JobAbortedError e) {
            throw e;
        } catch (MpiError e) {
            // the engine refused a message (a failed peer, say): the schedule cannot go on
            recordError(e.errorClass(), name + ": " + e.getMessage());
            if (!finished) {
                finish();
            }
        } catch (Throwable t) {
            // a bug or an unexpected failure: report it rather than leave the owner waiting forever
            recordError(ErrorClass.ERR_INTERN, name + ": internal error in the collective schedule: " + t);
            if (!finished) {
                finish();
            }
        }
    }

    private void startRound(Round r) {
        runLocals(r);
        int n = r.opCount;
        if (n == 0) {
            return;
        }
        RequestImpl[] reqs = requests == null || requests.length < n ? new RequestImpl[Math.max(n, 4)] : requests;
        requests = reqs;
        int tag = tagBase;
        // receives first, so that a peer's send can land straight in place
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (!r.isSend[i]) {
                reqs[k++] = engine.irecv(r.data[i], context, r.peers[i], tag);
            }
        }
        for (int i = 0; i < n; i++) {
            if (r.isSend[i]) {
                reqs[k++] = engine.isend(r.data[i], comm.worldRank(r.peers[i]), context, comm.rank(), tag,
                        SendMode.STANDARD);
            }
        }
        current = r;
        cursor = 0;
        for (int i = 0; i < n; i++) {
            reqs[i].whenDone(signal);
        }
    }

    /** True when every request of the current round is complete; records their errors. */
    private boolean roundDone() {
        RequestImpl[] reqs = requests;
        int n = current.opCount;
        while (cursor < n) {
            RequestImpl q = reqs[cursor];
            if (!q.isDone()) {
                return false;
            }
            if (q.error() != 0) {
                recordError(q.error(), name + ": " + q.errorMessage());
            }
            reqs[cursor++] = null;
            if (persistent && !q.settled()) {
                // most often the request whose completion runs this drain (its complete() is on the stack): kept
                // until the next start of this persistent schedule, by when it has settled, instead of being dropped
                RequestImpl kept = lingering;
                lingering = q;
                q = kept;
            }
            if (q != null) {
                engine.release(q); // nobody else holds it: reused if its completer is done with it
            }
        }
        return true;
    }

    private void recordError(int errorClass, String message) {
        if (firstError == 0) {
            firstError = errorClass;
            firstErrorMessage = message;
        }
    }

    private void finish() {
        finished = true;
        if (!persistent) {
            release();
        }
        if (firstError != 0) {
            error = firstError;
            errorMessage = firstErrorMessage;
        }
        complete();
    }

    @Override
    public boolean cancel() {
        return false; // MPI: cancelling a non-blocking collective is erroneous; it runs to completion
    }
}
