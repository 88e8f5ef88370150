package org.jmpi.pt2pt;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jmpi.datatype.MessageData;
import org.jmpi.runtime.Config;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.Progress;
import org.jmpi.runtime.RequestImpl;
import org.jmpi.shared.InprocEndpoint;
import org.jmpi.shared.InprocMessage;
import org.jmpi.shared.SmallPayload;
import org.jmpi.shared.ThreadsJob;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.FrameSink;
import org.jmpi.transport.HeaderCopies;
import org.jmpi.transport.Lane;
import org.jmpi.transport.Transport;

/**
 * The point-to-point engine of one rank: matching (posted and unexpected queues), and the protocols that move a
 * message to a peer.
 *
 * <p>Routes: a message to oneself is handed to this engine's own {@link #deliver}; in threads mode, to the peer
 * rank's engine through the job's {@link InprocEndpoint} table (the receiver copies straight out of the sender's
 * buffer, one copy); between processes, over the {@link Transport} with an eager protocol for small messages and
 * rendezvous (RTS, CTS, DATA chunks) for large or synchronous ones.
 *
 * <p>Ordering: messages from one sender are entered into this engine's matching in the order they were sent
 * (in-JVM senders call {@code deliver} in program order; a transport delivers frames of one peer in order), and
 * the earliest match is taken from each queue ({@link MatchingQueues}: indexed by exact envelope, with arrival and
 * posting order kept for wildcards), which gives MPI's non-overtaking rule.
 *
 * <p>Threading: {@code lock} guards the posted and unexpected queues (and the {@code queued} flags). Any thread
 * may call {@link #isend}, {@link #irecv}, {@link #iprobe} and the {@link InprocEndpoint} methods. Frames are
 * handled by the progress owner. Once a receive is taken off the posted queue, only the thread that took it
 * touches it until it completes. {@code rendezvousSends} and {@code activeRecvs} are thread-safe tables of the
 * requests in flight by id ({@link org.jmpi.shared.LongTable}).
 */
public final class Engine implements InprocEndpoint, FrameSink {
    /** Wildcard source and tag (MPI.ANY_SOURCE and MPI.ANY_TAG). */
    public static final int ANY = -1;

    private final int worldRank;
    private final Progress progress;
    /** The request of every send the lane wrote at once ({@link #isendNow}). */
    private final RequestImpl sent;
    private final ThreadsJob job;
    private final long eagerLimit;
    private final long chunkBytes;
    private final long flowWindow;
    private final long unexpectedLimit;
    private volatile Transport transport;
    /** Flow-control state per peer over a transport; created on first use (index: world rank). */
    private final PeerFlow[] flows;
    /**
     * Streamed eager messages on their way in, a list per sending world rank (usually empty or one long), and a few
     * recycled entries; guarded by {@code lock}.
     */
    private final IncomingStream[] streams;
    private IncomingStream freeStreams;
    /** Flow state and failure marks of processes of other jobs (peer indices from the world size up). */
    private final ConcurrentHashMap<Integer, PeerFlow> foreignFlows = new ConcurrentHashMap<>();
    private final java.util.Set<Integer> foreignFailed = ConcurrentHashMap.newKeySet();
    /** In threads mode, the engines of processes of other jobs in this JVM, by peer index (dynamic processes). */
    private final ConcurrentHashMap<Integer, InprocEndpoint> foreignEndpoints = new ConcurrentHashMap<>();
    /** Set when this rank's job aborted: in-JVM messages from other jobs are refused ({@link #refuseOtherJobs}). */
    private volatile boolean refusingOtherJobs;
    /** Bytes (plus overhead) of in-JVM unexpected messages copied and held here; guarded by {@code lock}. */
    private long unexpectedCopied;

    /**
     * Guards the matching queues, as a monitor ({@code synchronized (lock)}): C1, which compiles jmpi's runtime, takes
     * and gives back an uncontended monitor inline, where a {@code ReentrantLock}'s methods are calls into the JDK that
     * the JIT compiles on their own (a receiver of small non-blocking messages spent 3-4 % of its time in them); the
     * JVM spins a while before a contended thread blocks. Package-private for PoisonRaceTest.
     */
    final Object lock = new Object();

    /** Posted receives and unexpected messages, indexed by envelope; guarded by {@code lock}. */
    final MatchingQueues queues = new MatchingQueues();
    /** Used unexpected entries kept for reuse (linked through {@code next}); guarded by {@code lock}. */
    private Unexpected freeUnexpected;
    private int freeUnexpectedCount;
    /** A burst of eager messages (a root flooded by a loop of small reduces, credits returned in a batch) fits. */
    private static final int FREE_UNEXPECTED_MAX = 2048;
    /**
     * Bytes of copy buffers over 1 KiB that the kept entries may hold ({@link #keptLarge}, guarded by {@code lock}):
     * an exchange of messages between 1 and 64 KiB (a collective's step, a sendrecv) finds one unexpected about every
     * other time, and allocating its buffer each time cost more than the copy (threads mode, 2-rank sendrecv of 2 KiB,
     * 6-8 us a call against 2.3 with the buffer kept, 2026-11-28).
     */
    private static final long KEPT_LARGE_MAX = 1L << 20;
    private long keptLarge;
    /**
     * The buffer of the last in-JVM message whose receive came while {@link #bufferUnexpected} copied it (at most the
     * eager limit); guarded by {@code lock}.
     */
    private MemorySegment spareBuffer;

    private final AtomicLong ids = new AtomicLong(1);
    /** The send id an EAGER_ANSWERED message is matched under: none of {@link #ids}; answered MATCHED, not DONE. */
    private static final long ANSWERED = -1;
    private final org.jmpi.shared.LongTable<SendRequest> rendezvousSends = new org.jmpi.shared.LongTable<>();
    private final org.jmpi.shared.LongTable<RecvRequest> activeRecvs = new org.jmpi.shared.LongTable<>();
    private final org.jmpi.shared.FirstThreadLocal<MemorySegment> headers =
            new org.jmpi.shared.FirstThreadLocal<>(() -> Arena.ofAuto().allocate(FrameLayout.HEADER_BYTES, 8));
    /** Recycled requests of each thread (see {@link #release}). */
    private final org.jmpi.shared.FirstThreadLocal<RequestPool> pools =
            new org.jmpi.shared.FirstThreadLocal<>(RequestPool::new);
    /**
     * Failed peers (world ranks; 1 = failed), from the transport or the launcher's failure notices. New sends to a
     * failed peer and receives naming it fail at once with ERR_PROC_FAILED. {@code anyFailed} keeps the check off
     * the common path: one volatile read of false.
     */
    private final java.util.concurrent.atomic.AtomicIntegerArray failedPeers;
    private volatile boolean anyFailed;
    /** (context, source rank in its communicator) to world rank, or -1 when unknown; set by the runtime. */
    private volatile java.util.function.IntBinaryOperator worldRankOf = (context, source) -> -1;
    /**
     * Poisoned contexts (ULFM): context id to the MPI error class every operation on it now fails with. A revoked
     * communicator's contexts get ERR_REVOKED; the collective context of a communicator with a failed process gets
     * ERR_PROC_FAILED. {@code anyPoisoned} keeps the check off the common path.
     */
    private final ConcurrentHashMap<Integer, Integer> poisoned = new ConcurrentHashMap<>();
    private volatile boolean anyPoisoned;
    /**
     * Set when a frame completed a posted receive, read and cleared by the transport's poll through
     * {@link #takeCompletion()}. Touched by the polling thread only; a stale value costs one read more or less.
     */
    private boolean completedInPoll;
    /**
     * Whether a receive from ANY_SOURCE on a context must not wait (its group has a failed process whose failure the
     * communicator has not acknowledged); set by the runtime, asked only once a peer has failed.
     */
    private volatile java.util.function.IntPredicate anySourceBlocked = context -> false;
    /** Told of every failed world rank before the engine fails the operations that involve it; set by the runtime. */
    private volatile java.util.function.IntConsumer failureListener = peer -> {};
    /** Handler of control messages (negative contexts: never matched), set by the runtime; null drops them. */
    private volatile ControlHandler controlHandler;

    /** Receives a control message: a message on a negative context, handled on arrival instead of matched. */
    @FunctionalInterface
    public interface ControlHandler {
        /**
         * Called in the thread that delivers the message (a sender's thread in threads mode, the progress owner
         * otherwise): must be short and must not block. {@code payload} is valid during the call only.
         */
        void onControl(int context, int source, int tag, MemorySegment payload);
    }

    public Engine(int worldRank, int worldSize, Progress progress, ThreadsJob job, Config config) {
        this.worldRank = worldRank;
        this.progress = progress;
        this.sent = RequestImpl.sharedCompleted(progress);
        this.job = job;
        this.eagerLimit = config.eagerLimit();
        this.chunkBytes = config.chunkBytes();
        this.flowWindow = config.flowWindow();
        this.unexpectedLimit = config.unexpectedLimit();
        this.flows = new PeerFlow[worldSize];
        this.laneRoutes = new byte[worldSize];
        this.lanes = new Lane[worldSize];
        this.laneSpinNanos = progress.spins() ? LANE_SPIN_NANOS : -1;
        this.streams = new IncomingStream[worldSize];
        this.failedPeers = new java.util.concurrent.atomic.AtomicIntegerArray(worldSize);
    }

    /** How a receive's (context, source) maps to a world rank, so receives from a failed rank can be failed. */
    public void setWorldRankResolver(java.util.function.IntBinaryOperator resolver) {
        this.worldRankOf = resolver;
    }

    /** Sets the test of {@link #anySourceBlocked} (see there). */
    public void setAnySourceBlocked(java.util.function.IntPredicate test) {
        this.anySourceBlocked = test;
    }

    /** Sets the listener told of failed world ranks (see {@link #onPeerFailure}). */
    public void setFailureListener(java.util.function.IntConsumer listener) {
        this.failureListener = listener;
    }

    /** Sets the handler of control messages (negative contexts). */
    public void setControlHandler(ControlHandler handler) {
        this.controlHandler = handler;
    }

    /** The error class operations on {@code context} fail with, or 0 (see {@link #poison}). */
    public int poisonOf(int context) {
        if (!anyPoisoned) {
            return 0;
        }
        Integer e = poisoned.get(context);
        return e == null ? 0 : e;
    }

    private static String poisonMessage(int errorClass) {
        return errorClass == ErrorClass.ERR_REVOKED ? "the communicator has been revoked"
                : "a process of the communicator has failed: its collective operations cannot complete";
    }

    /**
     * Poisons {@code context} (ULFM): from now on every send and receive on it fails at once with {@code errorClass};
     * posted receives on it fail now; unexpected messages on it are dropped (an unmatched rendezvous is refused, so
     * its sender fails too instead of waiting for ever); messages that arrive later are dropped or refused the same
     * way. Rendezvous transfers already matched run to completion. Poisoning twice keeps the first error class.
     */
    public void poison(int context, int errorClass) {
        if (poisoned.putIfAbsent(context, errorClass) != null) {
            return;
        }
        anyPoisoned = true;
        java.util.List<RecvRequest> doomed = new java.util.ArrayList<>();
        java.util.List<Unexpected> purged = new java.util.ArrayList<>();
        synchronized (lock) {
            queues.forEachPosted(r -> {
                if (r.context == context) {
                    queues.unpost(r);
                    doomed.add(r);
                }
            });
            queues.takeAllUnexpected(context, purged);
            for (Unexpected u : purged) {
                if (u.peer < 0 && u.copied) {
                    unexpectedCopied -= u.bytes + Protocol.OVERHEAD;
                }
                if (u.stream != null) { // its remaining pieces are dropped on arrival
                    u.stream.unexpected = null;
                    u.stream = null;
                }
            }
        }
        String why = poisonMessage(errorClass);
        for (RecvRequest r : doomed) {
            r.fail(errorClass, why);
        }
        for (Unexpected u : purged) {
            if (u.inproc != null) {
                refuseInproc(u.inproc, errorClass);
            } else if (u.peer >= 0) {
                if (u.sendId != 0 || u.syncId != 0) {
                    refuseRts(u.peer, u.sendId != 0 ? u.sendId : u.syncId, errorClass);
                }
                consumed(u.peer, charge(u));
            }
            recycle(u);
        }
    }

    /**
     * Lifts the poison of {@code context}: its communicator was freed and the context may be given to a new one.
     * Nothing pending on it remains (poisoning failed it all).
     */
    public void unpoison(int context) {
        if (anyPoisoned) {
            poisoned.remove(context);
        }
    }

    /**
     * Whether {@code context} is poisoned, asked under the matching lock by a message that found no posted receive and
     * is about to become an unexpected entry. Its arrival checked before taking the lock; a {@link #poison} that ran
     * in between has already purged the unexpected entries, and one added now would stay for ever, holding its
     * sender's flow-control credit (or, for a rendezvous, leaving the sender waiting for an answer).
     */
    private boolean poisonedMeanwhile(int context) {
        return anyPoisoned && poisonOf(context) != 0;
    }

    private static void refuseInproc(InprocMessage m, int errorClass) {
        m.refusal = errorClass;
        m.onConsumed.accept(Boolean.FALSE);
    }

    /** Tells the sender of an eager synchronous message that a receive has matched it (DONE). */
    private void matchedSynchronous(int peer, long syncId) {
        if (syncId == ANSWERED) {
            answer(peer);
            return;
        }
        transport.send(peer, control(Protocol.DONE, 0, syncId, 0, 0), null, null);
    }

    /** Tells the sender of an unmatched RTS that its message is refused (a CANCELLED frame with the error class). */
    private void refuseRts(int peer, long sendId, int errorClass) {
        if (sendId == ANSWERED) { // an EAGER_ANSWERED message dropped: its sender counts it as answered
            answer(peer);
            return;
        }
        MemorySegment h = control(Protocol.CANCELLED, 0, sendId, 0, errorClass);
        FrameLayout.putInt(h, FrameLayout.FLAGS, Protocol.CANCELLED_REFUSED);
        transport.send(peer, h, null, null);
    }

    /** Whether world rank {@code peer} is known to have failed. */
    public boolean peerFailed(int peer) {
        return anyFailed && failed(peer);
    }

    private boolean failed(int peer) {
        return peer < failedPeers.length() ? failedPeers.get(peer) != 0 : foreignFailed.contains(peer);
    }

    /** Forgets a process of another job that was disconnected (its flow state, failure mark and in-JVM endpoint). */
    public void forgetPeer(int peer) {
        if (peer >= flows.length) {
            foreignFlows.remove(peer);
            foreignFailed.remove(peer);
            foreignEndpoints.remove(peer);
        }
    }

    /**
     * Threads mode: messages to peer index {@code peer} (a process of another job in this JVM, at or above the world
     * size) are handed to {@code endpoint}, as to the ranks of this job.
     */
    public void addForeignEndpoint(int peer, InprocEndpoint endpoint) {
        foreignEndpoints.put(peer, endpoint);
    }

    /** The in-JVM receiver of world rank or peer index {@code peer}, or null for a process of another job now gone. */
    private InprocEndpoint endpointOf(int peer) {
        if (peer == worldRank) {
            return this;
        }
        return peer < flows.length ? job.endpoint(peer) : foreignEndpoints.get(peer);
    }

    /**
     * Credit-based flow control towards one peer over a transport. Threading: every field is guarded by the object's
     * monitor ({@code synchronized (f)}: C1, which compiles jmpi's runtime, locks and unlocks a monitor inline, where a
     * {@code ReentrantLock}'s methods are calls that the JIT compiles again), and queued frames of EAGER and RTS kind
     * to this peer are handed to the transport only while holding it, so that they never overtake each other (see
     * {@link Engine#sendCharged}).
     */
    private static final class PeerFlow {
        /** Bytes this rank may still send to the peer. */
        long credits;
        /** Frames waiting for credit, in send order. */
        final java.util.ArrayDeque<Pending> queue = new java.util.ArrayDeque<>();
        /**
         * Bytes consumed from the peer's messages and not yet returned as credit. Not guarded by the lock: added to
         * and taken atomically, one locked instruction per received message instead of the lock (an atomic object, not
         * a var handle: plain calls down to {@code Unsafe}, cheap before the JIT compiles them).
         */
        final java.util.concurrent.atomic.AtomicLong consumed = new java.util.concurrent.atomic.AtomicLong();
        /**
         * {@link #consumed} at which the next credit goes back: {@link #FIRST_CREDIT} at first, doubled after each
         * credit up to a quarter of the window (see {@link Engine#consumed}). Raised only; a lost update between two
         * receiving threads costs one more early credit.
         */
        volatile long creditAt = FIRST_CREDIT;
        /** Header copies of the frames in {@link #queue} (native, reused). */
        final HeaderCopies headers = new HeaderCopies();
        /** Sent {@link Pending}s for reuse. */
        final java.util.ArrayDeque<Pending> spare = new java.util.ArrayDeque<>();
        /** EAGER_ANSWERED messages sent to the peer ({@link #sendAnswered}). */
        long answeredSent;
        /** MATCHED answers from the peer; written by the progress owner. */
        volatile long answers;
        /**
         * The receive the peer's EAGER frame was matched to while the transport places its payload there
         * ({@link Engine#placement}); taken by {@link Engine#onPlaced} or, if the peer fails first, by the failure.
         */
        final java.util.concurrent.atomic.AtomicReference<RecvRequest> placedEager =
                new java.util.concurrent.atomic.AtomicReference<>();

        /** A frame to queue for credit (a reused record when there is one). Caller holds the lock. */
        Pending pending(MemorySegment h, MemorySegment payload, Runnable onWritten, long cost, SendRequest s) {
            Pending p = spare.poll();
            if (p == null) {
                p = new Pending();
            }
            p.header = headers.copyOf(h);
            p.payload = payload;
            p.onWritten = onWritten;
            p.cost = cost;
            p.request = s;
            return p;
        }

        /** A sent frame's header copy and record go back for reuse. Caller holds the lock. */
        void recycle(Pending p) {
            headers.giveBack(p.header);
            p.header = null;
            p.payload = null;
            p.onWritten = null;
            p.request = null;
            if (spare.size() < SPARE_PENDING) {
                spare.add(p);
            }
        }

        /**
         * {@link Engine#sendAnswered}'s wait condition: every answer in, or the peer failed. Made with the flow, not as
         * a lambda at the wait: a lambda's class is spun at its first evaluation, which for this wait (a bcast root
         * ahead of its receiver) came in a cold OMB-J bcast's timed loop (at its 2-byte size: the JDK generating the
         * class and two method handle forms, a few milliseconds of the rank's core), since the build's training run
         * never waits there and so its class cache has no copy of that class. This class is loaded with the first
         * flow, in every run (training included).
         */
        final java.util.function.BooleanSupplier answersIn;

        PeerFlow(long window, Engine engine, int peer) {
            credits = window;
            answersIn = new AnswersIn(this, engine, peer);
        }
    }

    /** {@link PeerFlow#answersIn}. */
    private static final class AnswersIn implements java.util.function.BooleanSupplier {
        private final PeerFlow f;
        private final Engine engine;
        private final int peer;

        AnswersIn(PeerFlow f, Engine engine, int peer) {
            this.f = f;
            this.engine = engine;
            this.peer = peer;
        }

        @Override
        public boolean getAsBoolean() {
            return f.answers >= f.answeredSent || engine.peerFailed(peer);
        }
    }

    /** Consumed bytes after which a peer's first credit goes back (see {@link #consumed}). */
    static final long FIRST_CREDIT = 1 << 10;


    /**
     * Settled requests of one thread, ready for reuse: a blocking call or a completed non-blocking one gives its
     * request back ({@link #release}) and the thread's next call takes it, so steady-state traffic allocates no
     * request objects. Threading: confined to its thread.
     *
     * <p>{@link #CAPACITY} covers a window of 64 non-blocking calls (OSU's bandwidth and message-rate windows): with 8,
     * each window of 64 made 56 new requests of each kind, every one with its callbacks and in-JVM message. A pooled
     * request is some 200 bytes, so a thread keeps at most about 26 KiB.
     */
    private static final class RequestPool {
        static final int CAPACITY = 64;
        final SendRequest[] sends = new SendRequest[CAPACITY];
        int sendCount;
        final RecvRequest[] recvs = new RecvRequest[CAPACITY];
        int recvCount;
    }

    private SendRequest newSend() {
        RequestPool p = pools.get();
        return p.sendCount > 0 ? p.sends[--p.sendCount] : new SendRequest(this, progress);
    }

    private RecvRequest newRecv() {
        RequestPool p = pools.get();
        return p.recvCount > 0 ? p.recvs[--p.recvCount] : new RecvRequest(this, progress);
    }

    /**
     * Gives back a point-to-point request of this engine whose completion its owner has observed and that nobody
     * else holds (the request behind a blocking call, or behind a non-blocking one whose user handle has become
     * null). It is reused by this thread's next send or receive if it is settled; otherwise it is left to the
     * garbage collector. Other requests are ignored.
     */
    public void release(RequestImpl r) {
        if (!r.settled() && !awaitSettled(r)) {
            return;
        }
        if (r instanceof SendRequest s && s.engine == this) {
            RequestPool p = pools.get();
            if (p.sendCount < RequestPool.CAPACITY) {
                s.clear();
                p.sends[p.sendCount++] = s;
            }
        } else if (r instanceof RecvRequest q && q.engine == this) {
            RequestPool p = pools.get();
            if (p.recvCount < RequestPool.CAPACITY) {
                q.clear();
                p.recvs[p.recvCount++] = q;
            }
        }
    }

    /** Spins given to a completing thread to leave {@link RequestImpl#complete()} (see {@link #awaitSettled}). */
    private static final int SETTLE_SPINS = 64;

    /**
     * Waits briefly for a done request to become settled: an owner that spun on its request sees {@code done} with
     * the cache line that carries it and, one load later, still the old {@code settled} of that line while the
     * completing thread (another rank's, in threads mode) is a few instructions from storing it. Dropping the request
     * then cost a new one (and its callbacks) for every second 256 KiB message in threads mode. A completer that
     * does not settle within the spins (descheduled) loses the request to the garbage collector, as before.
     */
    private static boolean awaitSettled(RequestImpl r) {
        if (!r.isDone()) {
            return false;
        }
        for (int i = 0; i < SETTLE_SPINS; i++) {
            Thread.onSpinWait();
            if (r.settled()) {
                return true;
            }
        }
        return false;
    }

    /**
     * A frame waiting for credit: its header (copied), payload, completion and charge. Reused once sent (under the
     * peer's lock), so that a rank that keeps running out of credit, e.g. the root of a loop of scatters, allocates
     * nothing per frame.
     */
    private static final class Pending {
        MemorySegment header;
        MemorySegment payload;
        Runnable onWritten;
        long cost;
        SendRequest request;
    }

    /** Most sent {@link Pending}s a peer's flow keeps for reuse. */
    private static final int SPARE_PENDING = 256;

    /**
     * For diagnostics (the JFR counters): {bytes sent to {@code peer} and not yet returned as credit, frames waiting
     * for credit}; zeros for a peer never sent to.
     */
    public long[] flowState(int peer) {
        PeerFlow f = peer >= 0 && peer < flows.length ? flows[peer] : null;
        if (f == null) {
            return new long[2];
        }
        synchronized (f) {
            return new long[] {flowWindow - f.credits, f.queue.size()};
        }
    }

    /** Unexpected messages queued now (diagnostics). */
    public int unexpectedMessages() {
        synchronized (lock) {
            return queues.unexpectedCount;
        }
    }

    private PeerFlow flow(int peer) {
        if (peer >= flows.length) {
            return foreignFlows.computeIfAbsent(peer, k -> new PeerFlow(flowWindow, this, k));
        }
        PeerFlow f = flows[peer];
        if (f == null) {
            synchronized (flows) {
                f = flows[peer];
                if (f == null) {
                    f = new PeerFlow(flowWindow, this, peer);
                    flows[peer] = f;
                }
            }
        }
        return f;
    }

    /**
     * Hands an EAGER or RTS frame to the transport if the peer has credit, else queues it (in order).
     *
     * <p>The frame is handed over after the peer's lock is released: the release is a locked instruction, which right
     * after the transport's store of a record (a cache line the receiver polls) would wait, once per message, until
     * that line is back at this core. Order is kept: a frame goes at once only when
     * nothing of this peer waits for credit, and queued frames are handed over under the lock ({@link #onCredit}), so
     * every earlier frame of this thread has reached the transport when a later one finds the queue empty. Frames of
     * different threads have no order to keep.
     */
    private void sendCharged(Transport t, int peer, MemorySegment h, MemorySegment payload, Runnable onWritten,
            long cost, SendRequest s) {
        PeerFlow f = flow(peer);
        boolean now;
        synchronized (f) {
            now = f.queue.isEmpty() && f.credits >= cost;
            if (now) {
                f.credits -= cost;
            } else {
                f.queue.add(f.pending(h, payload, onWritten, cost, s));
            }
        }
        if (now) {
            t.send(peer, h, payload, onWritten);
        }
    }

    /**
     * Sends an eager message larger than the engine's own eager limit ({@code jmpi.eager.limit}; a transport may take
     * larger ones eagerly, shared memory up to 256 KiB) now if it leaves at least half the flow window to the peer
     * free, else nothing (false: the caller streams it or takes the rendezvous), as {@link #trySendStream} does: an
     * unmatched message holds its credit, and large ones must not take the half of the window that small blocking
     * sends rely on (with 80 KB messages eager, an 8-thread-per-rank test hung: every thread blocked in a small send
     * behind credit that unmatched large messages for other, equally blocked threads held).
     */
    private boolean trySendLargeEager(Transport t, int peer, MemorySegment h, MessageData data, SendRequest s) {
        long bytes = data.bytes();
        long cost = bytes + Protocol.OVERHEAD;
        PeerFlow f = flow(peer);
        synchronized (f) {
            if (!chargeLeavingHalf(f, cost)) {
                return false;
            }
        }
        FrameLayout.putInt(h, FrameLayout.KIND, Protocol.EAGER);
        FrameLayout.putInt(h, FrameLayout.PAYLOAD, (int) bytes);
        FrameLayout.putLong(h, FrameLayout.SEND_ID, 0L);
        t.send(peer, h, contiguousOrPacked(data), s.written);
        return true;
    }

    /**
     * Sends a whole streamed message now if it leaves at least half the flow window to the peer free, else nothing
     * (false: the caller uses the rendezvous). A streamed message holds its credit until the receiver matches it, so
     * streams never wait for credit and never take the half of the window that eager messages rely on: a blocking
     * small send must not queue behind unmatched streams whose receivers are themselves blocked sending (that hung
     * an 8-thread-per-rank test), which a rendezvous, charged almost nothing, never caused.
     */
    private boolean trySendStream(Transport t, int peer, MemorySegment h, MessageData data, long piece,
            Runnable onWritten, long cost) {
        PeerFlow f = flow(peer);
        synchronized (f) {
            if (!chargeLeavingHalf(f, cost)) {
                return false;
            }
            // packed (a datatype with gaps) only now that it goes: the rendezvous packs chunk by chunk
            sendStream(t, peer, h, contiguousOrPacked(data), piece, onWritten);
            return true;
        }
    }

    /**
     * Charges {@code cost} to the peer's flow window if nothing waits for credit and at least half the window stays
     * free, as a message that holds its credit until it is matched must (large eager and streamed messages). Called
     * with the peer's flow lock held.
     */
    private boolean chargeLeavingHalf(PeerFlow f, long cost) {
        if (!leavesHalf(f, cost)) {
            return false;
        }
        f.credits -= cost;
        return true;
    }

    /** Whether nothing waits for credit and {@code cost} leaves half the window free. Caller holds the flow lock. */
    private boolean leavesHalf(PeerFlow f, long cost) {
        return f.queue.isEmpty() && f.credits - cost >= flowWindow / 2;
    }

    /**
     * Writes a streamed message: the STREAM frame {@code h} (envelope, length and id filled in) with the first piece,
     * then the rest as STREAM_DATA frames. {@code onWritten} runs once the last piece is written. Called with the
     * peer's flow lock held, so the pieces of one message are handed to the transport in order.
     * <p>
     * Each piece's header is written whole: a transport's send may run the completions of earlier frames before it
     * returns, and what they start on this thread (a non-blocking collective's next send, a receive that returns flow
     * credit) fills this thread's header {@code h} for its own frames. Pieces sent with what was left there went out
     * as parts of an unknown message (a 4-rank non-blocking collective test, once in CI).
     */
    private static void sendStream(Transport t, int peer, MemorySegment h, MemorySegment data, long piece,
            Runnable onWritten) {
        int context = FrameLayout.getInt(h, FrameLayout.CONTEXT);
        int source = FrameLayout.getInt(h, FrameLayout.SOURCE);
        int tag = FrameLayout.getInt(h, FrameLayout.TAG);
        int flags = FrameLayout.getInt(h, FrameLayout.FLAGS);
        long id = FrameLayout.getLong(h, FrameLayout.SEND_ID);
        long recvId = FrameLayout.getLong(h, FrameLayout.RECV_ID);
        long total = data.byteSize();
        long len = Math.min(piece, total);
        FrameLayout.putInt(h, FrameLayout.PAYLOAD, (int) len);
        t.send(peer, h, data.asSlice(0, len), len == total ? onWritten : null);
        for (long off = len; off < total; off += len) {
            len = Math.min(piece, total - off);
            FrameLayout.putInt(h, FrameLayout.KIND, Protocol.STREAM_DATA);
            FrameLayout.putInt(h, FrameLayout.CONTEXT, context);
            FrameLayout.putInt(h, FrameLayout.SOURCE, source);
            FrameLayout.putInt(h, FrameLayout.TAG, tag);
            FrameLayout.putInt(h, FrameLayout.FLAGS, flags);
            FrameLayout.putInt(h, FrameLayout.PAYLOAD, (int) len);
            FrameLayout.putLong(h, FrameLayout.SEND_ID, id);
            FrameLayout.putLong(h, FrameLayout.RECV_ID, recvId);
            FrameLayout.putLong(h, FrameLayout.TOTAL, off);
            t.send(peer, h, data.asSlice(off, len), off + len == total ? onWritten : null);
        }
    }

    /** The peer returned {@code amount} bytes of credit: send what now fits. */
    private void onCredit(int peer, long amount) {
        Transport t = transport;
        PeerFlow f = flow(peer);
        synchronized (f) {
            f.credits += amount;
            Pending p;
            while ((p = f.queue.peek()) != null && f.credits >= p.cost) {
                f.queue.poll();
                f.credits -= p.cost;
                t.send(peer, p.header, p.payload, p.onWritten);
                f.recycle(p);
            }
        }
    }

    /**
     * This rank consumed {@code cost} bytes of a peer's messages: return credit once enough has built up, a quarter of
     * the window in steady state. The first credits go back sooner, after {@link #FIRST_CREDIT} bytes and then after
     * twice as much each time: the credit is a path that a steady stream takes only every ten thousand small messages
     * or so (on both sides: the control frame's send, a record that is not short, the peer's handling of it), and
     * when its first use came after the JIT had compiled the message path without it, the compiled code was thrown
     * away and compiled again on both ranks (some 100 ms on two cores) in the middle of the program's first seconds.
     * Taken at exponentially spaced points from the first messages, it is in every profile the JIT compiles from.
     * Measured again with the message path left to C1 (2026-11-28): without the early credits, a ping-pong of 8 bytes
     * with a barrier before its timed half took 0.39 us one way against 0.33 (medians of five cold runs), for reasons
     * not found; so they stay.
     */
    private void consumed(int peer, long cost) {
        PeerFlow f = flow(peer);
        long at = f.creditAt;
        if (f.consumed.getAndAdd(cost) + cost >= at) {
            returnCredit(peer, f, at);
        }
    }

    /**
     * {@link #consumed}'s credit, out of line: C1 (which compiles jmpi's runtime) inlines whatever it can bind, on
     * rare paths too, and the header writes here inline some 150 of the JDK's methods (memory segment accessors),
     * 5 ms of compilation a rank in the program's first second when they were part of every received message's
     * method.
     */
    private void returnCredit(int peer, PeerFlow f, long at) {
        if (at < flowWindow / 4) {
            f.creditAt = Math.min(at * 2, flowWindow / 4);
        }
        long give = f.consumed.getAndSet(0L); // another thread past the threshold may have taken it
        if (give <= 0) {
            return;
        }
        // as the lane's record without payload, its amount in the envelope's context (high half) and tag (low half):
        // the methods a message takes anyway, where the control frame's path (the transport's general send, the
        // peer's frame dispatch) was compiled only once enough credits had gone, inside a program's timed loops (a
        // cold OMB-J latency lost 10-20 ms at 256 B so, in stalls of 2-6 ms while the compiler took a core from one
        // of two ranks); until 2026-12-06 the amount was an 8-byte payload written and read by FrameLayout, whose
        // accessor (5 KB of C1 code) a program of lane messages then compiled for its credits alone
        Lane l = laneTo(peer);
        if (l == null || !l.sendShort(peer, Protocol.CREDIT, (int) (give >>> 32), worldRank, (int) give,
                MemorySegment.NULL, 0, 0, null)) {
            transport.send(peer, control(Protocol.CREDIT, 0, 0, 0, give), null, null);
        }
    }

    /**
     * This thread's header, cleared, for a control frame of {@code kind} (the transport copies it before it returns),
     * with the fields a control frame's receiver reads: {@code payload} bytes follow, the two ids and the total. Every
     * header the engine writes is native memory: the periodic CREDIT frame in a heap array made the header accessors
     * ({@code FrameLayout.putInt}, ...) see two segment classes, and C2 code compiled for one was thrown away
     * (class_check deoptimisation) each time the other came, every few thousand messages.
     */
    private MemorySegment control(int kind, int payload, long sendId, long recvId, long total) {
        MemorySegment h = headers.get();
        h.fill((byte) 0);
        FrameLayout.putInt(h, FrameLayout.PAYLOAD, payload);
        FrameLayout.putInt(h, FrameLayout.KIND, kind);
        FrameLayout.putLong(h, FrameLayout.SEND_ID, sendId);
        FrameLayout.putLong(h, FrameLayout.RECV_ID, recvId);
        FrameLayout.putLong(h, FrameLayout.TOTAL, total);
        return h;
    }

    private static long charge(Unexpected u) {
        return (u.sendId == 0 ? u.bytes : 0) + Protocol.OVERHEAD;
    }

    public void setTransport(Transport t) {
        this.transport = t;
        java.util.Arrays.fill(laneRoutes, (byte) 0);
    }

    // ================================================================================================ the lane

    /**
     * Per world rank of this job: whether eager messages to and from it may take the transport's {@link Lane}
     * ({@link #LANE}), may not ({@link #NO_LANE}) or nobody has looked yet (0). Racing writers write the same value.
     */
    private final byte[] laneRoutes;
    private static final byte LANE = 1;
    private static final byte NO_LANE = 2;
    /** Per world rank: its lane once {@link #laneRoutes} says {@link #LANE} (shared memory's or TCP's). */
    private final Lane[] lanes;
    /** Looks {@link #receiveNow} takes at its peer's ring between looks at the clock and at other peers' frames. */
    static final int LANE_SPINS = 64;
    /** Looks between two full progress passes in {@link #receiveNow} (a power of two, a multiple of the above). */
    static final int LANE_POLL_ALL = 1024;
    /** How long {@link #receiveNow} spins before it yields the processor between looks. */
    static final long LANE_SPIN_NANOS = 20_000;
    /**
     * {@link #LANE_SPIN_NANOS}, or -1 when waiting threads do not spin ({@link Progress#spins()}: more ranks than
     * processors on this host, where the peer a rank waits for is probably waiting for this rank's core): yields
     * between looks from the first look on. A 20 us spin there cost every wait its length: a 4-rank allreduce of 8
     * bytes on 2 cores took 29 us against 7 us yielding at once (Open MPI Java 3.5 us).
     */
    private final long laneSpinNanos;
    /**
     * How long {@link #receiveNow} waits before it leaves the wait to the usual receive: about as long as the usual
     * wait yields before it sleeps ({@code jmpi.yield.iterations}), so that only a wait that long sleeps. With 1 ms
     * (until 2026-12-06) a rank whose partner lost a time slice or compiled a method in a program's first iterations
     * left the lane, and compiled the usual receive's wait in the middle of the program. Cold, against the same build
     * with 1 ms (5 interleaved gated rounds): Jacobi 1024^2 0.92 of the time, 256^2 and by columns 0.975, conjugate
     * gradient 0.95, the 8-byte ping-pong after a barrier 0.98.
     */
    static final long LANE_WAIT_NANOS = 100_000_000;

    /** The lane to {@code peer}, or null (threads mode without rings, another job, a transport without one). */
    private Lane laneTo(int peer) {
        if (peer >= laneRoutes.length || (job != null && transport == null)) {
            return null;
        }
        byte r = laneRoutes[peer];
        if (r == 0) {
            Transport t = transport;
            Lane l = t == null || peer == worldRank ? null : t.lane(peer);
            lanes[peer] = l;
            r = l == null ? NO_LANE : LANE;
            laneRoutes[peer] = r;
        }
        return r == LANE ? lanes[peer] : null; // null also when another thread's store of it is not seen yet
    }

    /**
     * A blocking standard send of a contiguous eager message, done now through the lane: written straight into the
     * peer's ring, charged to flow control as {@link #isend} charges it, no request. False when anything stands in the
     * way (no lane, too large, no credit, frames queued, no room, a failure or revocation known): nothing was done,
     * and the caller sends the usual way.
     */
    public boolean sendNow(MessageData data, int worldDest, int context, int source, int tag) {
        return sendNow(data, worldDest, Protocol.EAGER, context, source, tag, false, 0) >= 0;
    }

    /**
     * {@link #sendNow} for a blocking send, which may wait for its receiver: a message the lane takes by address
     * ({@link Lane#sendByAddress}: large, in native memory, a peer of this host) is copied by the receiver straight
     * out of {@code data}, once, instead of twice through the ring, and this returns once it has been (or the peer
     * failed). The receiver reads it as soon as it makes progress, whether a receive matches it yet or not, so this
     * waits no longer than an eager message waits for room.
     */
    public boolean sendNowWaiting(MessageData data, int worldDest, int context, int source, int tag) {
        long ticket = sendNow(data, worldDest, Protocol.EAGER, context, source, tag, true, 0);
        if (ticket > 0) {
            awaitRead(worldDest, ticket);
        }
        return ticket >= 0;
    }

    /**
     * {@link #sendNowWaiting} for the send of an {@code MPI_Sendrecv}, whose wait for the read comes after its
     * receive: both ranks of an exchange then write their records, and each reads the other's message straight into
     * its receive buffer. Answers -1 when the lane did not take the message (nothing done: the caller sends the usual
     * way), 0 when it is sent, or the ticket of a message the lane took by address: the caller must pass it to
     * {@link #awaitRead} before {@code data} changes or the call returns, whatever happens in between.
     *
     * <p>Unlike {@link #sendNowWaiting}'s, this message may go by address above the lane's short payloads too, up to
     * what the lane and the flow window take: in an exchange each rank reads the other's message while its own is
     * read, both cores copying, as a rendezvous's split copy has them do for a one-way message (which it keeps).
     * OMB-J's cold alltoall and allgather of 512 KiB on 2 ranks took 55 us against 75 and 68 with the rendezvous
     * (Open MPI Java 60 and 58; 6 interleaved gated rounds, 2026-12-05); at 1 MiB, above a quarter of the default
     * window, they keep it.
     */
    public long sendNowDeferred(MessageData data, int worldDest, int context, int source, int tag) {
        // above the short payloads only what the peer's credit comes back for before the next such message (a
        // quarter of the window, as sendNowWhenCredited): at 1 MiB a rendezvous every other call cost more
        long beyondShortMax = flowWindow / 4 - Protocol.OVERHEAD;
        return sendNow(data, worldDest, Protocol.EAGER, context, source, tag, true, beyondShortMax);
    }

    /**
     * -1 (not taken, nothing done), 0 (sent) or the ticket of a message sent by address: see the callers. By address
     * ({@code byAddress}) only from {@link #ADDRESS_MIN}, above the lane's short payloads only up to
     * {@code beyondShortMax} bytes.
     */
    private long sendNow(MessageData data, int worldDest, int kind, int context, int source, int tag,
            boolean byAddress, long beyondShortMax) {
        Lane l = laneTo(worldDest);
        if (l == null || anyPoisoned || anyFailed || context < 0) {
            return -1;
        }
        long bytes = data.bytes();
        boolean isShort = bytes <= l.shortPayloadMax();
        if (!isShort && !(byAddress && bytes <= beyondShortMax)) {
            return -1;
        }
        SmallPayload small = data.small();
        MemorySegment payload = laneMemory(l, data, small);
        if (payload == null && small == null) {
            return -1;
        }
        long cost = bytes + Protocol.OVERHEAD;
        PeerFlow f = flow(worldDest);
        long ticket = 0;
        synchronized (f) {
            // above the engine's eager limit (eager by the transport's larger one) only while it leaves half the
            // window free, as isend's large eager message (chargeLeavingHalf)
            if (!f.queue.isEmpty() || f.credits - cost < (bytes > eagerLimit ? flowWindow / 2 : 0)) {
                return -1;
            }
            if (byAddress && bytes >= ADDRESS_MIN) {
                ticket = l.sendByAddress(worldDest, kind, context, source, tag, payload);
            }
            if (ticket == 0 && (!isShort || !l.sendShort(worldDest, kind, context, source, tag, payload, 0,
                    (int) bytes, small))) {
                return -1;
            }
            f.credits -= cost;
            if (kind != Protocol.EAGER) {
                f.answeredSent++;
            }
        }
        countSent(worldDest, bytes);
        return ticket;
    }

    /**
     * The memory of {@code data} for the lane {@code l}: none (null) when the lane copies {@code small}, the data's
     * small payload, itself ({@link Lane#copiesSmall}), so that a small array's view makes no memory segment; else
     * the data's contiguous memory, null when it has none. A view's small payload is always of its whole length.
     */
    private static MemorySegment laneMemory(Lane l, MessageData data, SmallPayload small) {
        return small != null && l.copiesSmall() ? null : data.contiguous();
    }

    private void countSent(int worldDest, long bytes) {
        org.jmpi.transport.Traffic t = traffic;
        if (t != null) {
            t.sent(worldDest, bytes);
        }
    }

    /** Messages below this many bytes never go by address (jmpi.shm.address.min is at least this). */
    private static final long ADDRESS_MIN = 4096;

    /**
     * Waits until world rank {@code worldDest} has read the message that went by address with {@code ticket}
     * ({@link #sendNowDeferred}), or has failed.
     */
    public void awaitRead(int worldDest, long ticket) {
        Lane l = laneTo(worldDest);
        if (!l.wasRead(worldDest, ticket)) {
            ReadWatch w = readWatches.get();
            w.lane = l;
            w.peer = worldDest;
            w.ticket = ticket;
            progress.awaitUntil(w);
        }
    }

    /**
     * What {@link #awaitRead} waits for, one per thread and reused (a lambda capturing the three was 32 bytes of
     * garbage per message sent by address; AllocationPerCallTest).
     */
    private final class ReadWatch implements java.util.function.BooleanSupplier {
        Lane lane;
        int peer;
        long ticket;

        @Override
        public boolean getAsBoolean() {
            return lane.wasRead(peer, ticket) || peerFailed(peer);
        }
    }

    private final org.jmpi.shared.FirstThreadLocal<ReadWatch> readWatches =
            new org.jmpi.shared.FirstThreadLocal<>(ReadWatch::new);

    /**
     * {@link #sendNow} for a message above the engine's eager limit that only the flow window kept out of the lane
     * (such a message leaves half the window free): waits until the peer's credit lets it in, then sends it so. For
     * a rooted collective's message, whose receiver matches the ones before it in call order: a root that ran ahead
     * waits here for its receiver, where it would otherwise take a rendezvous per message (a cold OMB-J bcast of
     * 128 KiB took 37-61 us a call so, against 5-19 through the lane). The wait ends: what the peer holds unreturned is
     * at most a quarter of the window, and this message at most another quarter. False, having sent nothing, when the
     * lane cannot take it for another reason: the caller sends the usual way.
     */
    public boolean sendNowWhenCredited(MessageData data, int worldDest, int context, int source, int tag) {
        Lane l = laneTo(worldDest);
        long bytes = data.bytes();
        long cost = bytes + Protocol.OVERHEAD;
        if (l == null || bytes <= eagerLimit || bytes > l.shortPayloadMax() || cost > flowWindow / 4) {
            return false;
        }
        PeerFlow f = flow(worldDest);
        progress.awaitUntil(() -> peerFailed(worldDest) || leavesHalfLocked(f, cost));
        return sendNow(data, worldDest, context, source, tag);
    }

    private boolean leavesHalfLocked(PeerFlow f, long cost) {
        synchronized (f) {
            return leavesHalf(f, cost);
        }
    }

    /**
     * A non-blocking standard send done now through the lane, as {@link #sendNow} does it: {@link #sent}, the request
     * every such send shares (complete, with an empty status: the message is written, and a send's status says only
     * that it succeeded and was not cancelled), or null when the lane could not take the message and nothing was done
     * (the caller then starts it with {@link #isend}). Sharing it saves taking a request from the pool, arming,
     * completing, clearing and returning it per message: 40 ns of a 16-byte message's 210 in a window of 64
     * non-blocking sends (2026-12-05, ungated).
     */
    public RequestImpl isendNow(MessageData data, int worldDest, int context, int source, int tag) {
        return sendNow(data, worldDest, context, source, tag) ? sent : null;
    }

    /**
     * A rooted collective's paced message (see {@code coll.Immediate}) through the lane: first waits until the peer
     * has matched every such message this rank sent it before (its MATCHED answers come as lane records), then writes
     * this one as {@link #sendNow} does, marked so that the receiver answers once a receive has matched it, whether the
     * lane took it or the usual way did. The answer is counted, not tied to this send: nothing to complete or wait for
     * here, no request. False, having waited or not, when the lane cannot take it (or the peer failed meanwhile): the
     * caller then sends it eager synchronous the usual way.
     */
    public boolean sendAnswered(MessageData data, int worldDest, int context, int source, int tag) {
        Lane l = laneTo(worldDest);
        if (l == null) {
            return false;
        }
        PeerFlow f = flow(worldDest);
        if (f.answers < f.answeredSent && progress.tryOwn()) {
            try { // the answer is most likely the peer's next record (a bcast's root reads nothing else)
                while (f.answers < f.answeredSent && l.passOne(worldDest)) {
                    // handed to onShort or onFrame, which count answers
                }
            } finally {
                progress.disown();
            }
        }
        if (f.answers < f.answeredSent) {
            progress.awaitUntil(f.answersIn);
        }
        return !peerFailed(worldDest)
                && sendNow(data, worldDest, Protocol.EAGER_ANSWERED, context, source, tag, false, 0) >= 0;
    }

    /** EAGER_ANSWERED messages sent to world rank {@code peer} and not answered yet (as far as this rank has read). */
    long unanswered(int peer) {
        PeerFlow f = flow(peer);
        return f.answeredSent - f.answers;
    }

    /** Tells world rank {@code peer} that an EAGER_ANSWERED message of its own was matched here (or dropped). */
    private void answer(int peer) {
        Lane l = laneTo(peer);
        if (l != null && l.sendShort(peer, Protocol.MATCHED, 0, worldRank, 0, MemorySegment.NULL, 0, 0, null)) {
            return;
        }
        transport.send(peer, control(Protocol.MATCHED, 0, 0, 0, 0), null, null);
    }

    /**
     * A blocking receive with exact source and tag, done through the lane while no other receive is posted and no
     * message waits unmatched: the peer's next frame is then the one matching would give this receive, and its
     * payload goes straight from the ring into {@code data}. Waits for it up to {@link #LANE_WAIT_NANOS}, other peers'
     * frames handled meanwhile ({@link #takeNow}). Answers the bytes received, or -1: nothing was received (another
     * message came first, none came soon, the lane was busy or unavailable) and the caller receives the usual way.
     * A receive whose buffer is larger than the lane's short frames goes the usual way at once unless the lane
     * {@linkplain Lane#takesByAddress takes messages by address}; it then takes a short frame or a message by address
     * ({@link #sendNowDeferred}), hands the peer's other short frames over as usual (credits, small messages) and
     * leaves its long frames where they are, for the receive posted next: a message that large may come streamed or
     * by rendezvous, and handed over while no receive was posted it would be copied into a buffer allocated for it and
     * copied again (a cold OMB-J ping-pong of 128 KiB on {@code byte[]} took 580 us a round trip so, Open MPI Java
     * 22 us).
     */
    public long receiveNow(MessageData data, int context, int worldSource, int source, int tag) {
        Lane l = laneTo(worldSource);
        if (l == null) {
            return -1;
        }
        long capacity = data.bytes();
        SmallPayload small = data.small();
        MemorySegment into = laneMemory(l, data, small);
        if (into == null && small == null || capacity > l.shortPayloadMax() && !l.takesByAddress() || anyPoisoned
                || anyFailed || context < 0 || !progress.tryOwn()) {
            return -1;
        }
        long n;
        try {
            n = takeNow(l, context, worldSource, source, tag, into, capacity, small);
        } finally {
            progress.disown();
        }
        if (n < 0) {
            return -1;
        }
        if ((n & Lane.TAKEN_ANSWERED) != 0) {
            n &= ~Lane.TAKEN_ANSWERED;
            answer(worldSource);
        }
        org.jmpi.transport.Traffic t = traffic;
        if (t != null) {
            t.received(worldSource, n);
        }
        consumed(worldSource, n + Protocol.OVERHEAD);
        return n;
    }

    /**
     * {@link #receiveNow}'s wait for the peer's next frame. Takes it when it is the one asked for; another frame
     * first (a wrap of the ring, a credit, another message) goes to the engine as a poll would hand it over, and the
     * wait goes on (another message is then unexpected: the usual way). While nothing comes it only looks at the
     * ring ({@link #awaitFrame}, {@link #LANE_SPINS} looks at a time); between those spells it handles the other
     * peers' frames (everything, TCP too, every {@link #LANE_POLL_ALL} looks: that may make this frame unexpected,
     * the usual way), gives the processor to whoever needs it between looks once it has waited
     * {@link #laneSpinNanos} (on a full host the peer, or the compiler threads), and after
     * {@link #LANE_WAIT_NANOS} leaves the wait to the usual receive, which may sleep. Answers the bytes received or
     * -1. Caller owns the progress lock.
     *
     * <p>The spinning is in {@link #awaitFrame} alone, a few bytecodes, so that the loop the JIT compiles on the spot
     * (on-stack replacement) while a rank waits is that small loop, not the whole take with its copy.
     */
    private long takeNow(Lane l, int context, int worldSource, int source, int tag, MemorySegment into,
            long capacity, SmallPayload small) {
        long start = 0;
        boolean yielding = laneSpinNanos < 0;
        for (int spells = 0; ; ) {
            if (queues.anyPosted() || queues.unexpectedCount > 0) {
                return -1; // matching must decide: the usual way
            }
            long n = l.takeShort(worldSource, Protocol.EAGER, context, source, tag, into, 0, capacity, small);
            if (n >= 0) {
                return n;
            }
            if (n == Lane.OTHER) {
                // into a buffer above the short frames, the peer's long frames stay for the receive posted next
                if (capacity > l.shortPayloadMax() && !l.shortNext(worldSource) || !l.passOne(worldSource)) {
                    return -1;
                }
                continue;
            }
            if (awaitFrame(l, worldSource, yielding)) {
                continue;
            }
            spells++;
            if ((spells & (LANE_POLL_ALL / LANE_SPINS - 1)) == 0 && capacity <= l.shortPayloadMax()) {
                progress.pollOwned();
            } else {
                l.pollOthers(worldSource);
            }
            long now = System.nanoTime();
            if (start == 0) {
                start = now;
            }
            long waited = now - start;
            if (waited > LANE_WAIT_NANOS) {
                return -1;
            }
            yielding = waited > laneSpinNanos;
        }
    }

    /** Up to {@link #LANE_SPINS} looks at whether {@code peer}'s next frame is there; whether it is. */
    private static boolean awaitFrame(Lane l, int peer, boolean yielding) {
        for (int looks = 0; looks < LANE_SPINS; looks++) {
            if (yielding) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
            if (l.arrived(peer)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether this process may read and write the memory of world rank {@code peer} itself (single copy through the
     * transport, see {@link org.jmpi.transport.SingleCopy}): one-sided operations use it to reach a window of a rank
     * on this host without that rank's help. False in threads mode and to ranks on other hosts.
     */
    public boolean canAccessMemoryOf(int peer) {
        return transport instanceof org.jmpi.transport.SingleCopy sc && sc.canReadFrom(peer);
    }

    /**
     * Copies {@code into.byteSize()} bytes at {@code address} in world rank {@code peer}'s process into {@code into}
     * (native). Returns false when the kernel refused (nothing promised about {@code into}; later calls to
     * {@link #canAccessMemoryOf} for that peer answer false).
     */
    public boolean readMemoryOf(int peer, long address, MemorySegment into) {
        return transport instanceof org.jmpi.transport.SingleCopy sc && sc.read(peer, address, into);
    }

    /** Copies {@code from} (native) to {@code address} in world rank {@code peer}'s process; false when refused. */
    public boolean writeMemoryOf(int peer, MemorySegment from, long address) {
        return transport instanceof org.jmpi.transport.SingleCopy sc && sc.write(peer, from, address);
    }

    // ------------------------------------------------------------------ sends

    /**
     * Starts a send of {@code data} to world rank {@code worldDest}, enveloped as (context, source = the sender's
     * rank in the communicator, tag).
     */
    public SendRequest isend(MessageData data, int worldDest, int context, int source, int tag, SendMode mode) {
        SendRequest s = newSend().start(data, worldDest, tag);
        s.initiator = Thread.currentThread(); // completions inside this call need no fence (SendRequest.finish)
        try {
            return isend(s, data, worldDest, context, source, tag, mode);
        } finally {
            s.initiator = null;
        }
    }

    private SendRequest isend(SendRequest s, MessageData data, int worldDest, int context, int source, int tag,
            SendMode mode) {
        if (anyPoisoned && context >= 0) {
            int e = poisonOf(context);
            if (e != 0) {
                s.fail(e, poisonMessage(e));
                return s;
            }
        }
        if (worldDest == worldRank || (job != null && (transport == null || worldDest >= flows.length))) {
            return isendInproc(s, data, worldDest, context, source, tag, mode);
        }
        Transport t = transport;
        if (t == null) {
            s.fail(ErrorClass.ERR_INTERN, "no transport to rank " + worldDest);
            return s;
        }
        if (anyFailed && failed(worldDest)) {
            s.fail(ErrorClass.ERR_PROC_FAILED, "rank " + worldDest + " has failed");
            return s;
        }
        long bytes = data.bytes();
        // this thread's header, filled for every send
        MemorySegment h = headers.get();
        FrameLayout.putInt(h, FrameLayout.CONTEXT, context);
        FrameLayout.putInt(h, FrameLayout.SOURCE, source);
        FrameLayout.putInt(h, FrameLayout.TAG, tag);
        FrameLayout.putInt(h, FrameLayout.FLAGS, 0);
        FrameLayout.putLong(h, FrameLayout.TOTAL, bytes);
        FrameLayout.putLong(h, FrameLayout.RECV_ID, 0L);
        boolean eager = mode != SendMode.SYNCHRONOUS && bytes <= SingleCopyRendezvous.eagerLimit(t, worldDest,
                eagerLimit);
        if (eager && bytes > eagerLimit) { // eager only by the transport's larger limit
            if (mode == SendMode.STANDARD && trySendLargeEager(t, worldDest, h, data, s)) {
                return s;
            }
            eager = false; // streamed or rendezvous, below
        }
        if (eager) {
            FrameLayout.putInt(h, FrameLayout.KIND, Protocol.EAGER);
            FrameLayout.putInt(h, FrameLayout.PAYLOAD, (int) bytes);
            Runnable onWritten = s.written;
            if (mode == SendMode.EAGER_SYNCHRONOUS) {
                // completes on the receiver's DONE (which comes after the frame is written), not when written
                s.sendId = ids.getAndIncrement();
                rendezvousSends.put(s.sendId, s);
                onWritten = null;
            }
            FrameLayout.putLong(h, FrameLayout.SEND_ID, s.sendId);
            sendCharged(t, worldDest, h, bytes == 0 ? null : contiguousOrPacked(data), onWritten,
                    bytes + Protocol.OVERHEAD, s);
        } else {
            startLong(t, worldDest, h, s, data, context, mode);
        }
        return s;
    }

    /** {@link #isend} to a rank of this JVM (threads mode, or this rank itself): the message is handed over. */
    private SendRequest isendInproc(SendRequest s, MessageData data, int worldDest, int context, int source, int tag,
            SendMode mode) {
        InprocEndpoint target = endpointOf(worldDest);
        boolean crossJob = worldDest >= flows.length;
        if (crossJob && (target == null || (anyFailed && failed(worldDest)))) {
            s.fail(ErrorClass.ERR_PROC_FAILED, "process " + worldDest + " of another job is gone");
            return s;
        }
        InprocMessage m = s.message;
        m.context = context;
        m.source = source;
        m.tag = tag;
        m.bytes = data.bytes();
        MemorySegment contiguous = data.contiguous();
        m.data = contiguous;
        // a derived datatype: the receiver packs straight from this rank's memory (no packed copy here)
        m.layout = contiguous != null ? null : data::packTo;
        m.synchronous = mode == SendMode.SYNCHRONOUS || mode == SendMode.EAGER_SYNCHRONOUS;
        m.crossJob = crossJob;
        m.onConsumed = s.consumed;
        m.refusal = 0;
        s.inproc = m;
        target.deliver(m);
        return s;
    }

    /**
     * {@link #isend}'s message that does not go eager ({@code h} filled but for kind, payload and ids): streamed, or
     * by rendezvous, with the single copy where the peer can take it.
     */
    private void startLong(Transport t, int worldDest, MemorySegment h, SendRequest s, MessageData data, int context,
            SendMode mode) {
        long bytes = data.bytes();
        // Up to the stream limit a message the receiver cannot read itself (not native memory, no single copy
        // to that peer) is streamed (two copies, pipelined, no handshake); one it can read takes the single copy,
        // in an exchange too (sendrecv, a collective's step, whose streamed pieces wait for ring space behind the
        // other direction's: 2-rank sendrecv of direct buffers, medians per call, 128 KiB 6.9 us against 15.4
        // streamed, 256 KiB 10.6 against 31, 2026-11-28). Larger ones, and those the flow window cannot take now,
        // get the rendezvous, with the single copy if offered.
        // single copy: offer our buffer (in threads mode the receiver finds it by the send's id: readInJvm)
        long address = job != null ? (data.contiguous() != null ? 1 : 0)
                : SingleCopyRendezvous.offer(t, worldDest, data);
        if ((mode == SendMode.STANDARD || mode == SendMode.READY) && context >= 0 && worldDest < streams.length
                && bytes <= SingleCopyRendezvous.streamLimit(t, worldDest) && address == 0) {
            // streamed eager: no handshake, the pieces go into the posted buffer as they come
            FrameLayout.putInt(h, FrameLayout.KIND, Protocol.STREAM);
            FrameLayout.putLong(h, FrameLayout.SEND_ID, ids.getAndIncrement());
            long piece = SingleCopyRendezvous.dataChunk(t, worldDest, chunkBytes, bytes);
            if (trySendStream(t, worldDest, h, data, piece, s.written, bytes + Protocol.OVERHEAD)) {
                return;
            }
            FrameLayout.putInt(h, FrameLayout.FLAGS, 0); // not streamed now: rendezvous, as below
        }
        s.sendId = ids.getAndIncrement();
        rendezvousSends.put(s.sendId, s);
        FrameLayout.putInt(h, FrameLayout.KIND, Protocol.RTS);
        FrameLayout.putInt(h, FrameLayout.PAYLOAD, 0);
        FrameLayout.putLong(h, FrameLayout.SEND_ID, s.sendId);
        if (address != 0) {
            FrameLayout.putInt(h, FrameLayout.FLAGS, Protocol.FLAG_SINGLE_COPY);
            FrameLayout.putLong(h, FrameLayout.RECV_ID, address);
        }
        sendCharged(t, worldDest, h, null, null, Protocol.OVERHEAD, s);
    }

    private static MemorySegment contiguousOrPacked(MessageData data) {
        MemorySegment c = data.contiguous();
        if (c != null) {
            return c;
        }
        long n = data.bytes();
        if (n > Integer.MAX_VALUE - 8) {
            MemorySegment big = Arena.ofAuto().allocate(n);
            data.packTo(0, big, 0, n);
            return big;
        }
        MemorySegment packed = MemorySegment.ofArray(new byte[(int) n]);
        data.packTo(0, packed, 0, n);
        return packed;
    }

    boolean cancelSend(SendRequest s) {
        if (s.isDone()) {
            return false;
        }
        InprocMessage m = s.inproc;
        if (m == null) {
            return cancelTransportSend(s);
        }
        InprocEndpoint target = endpointOf(s.worldDest);
        if (target != null && target.withdraw(m)) {
            s.markCancelled();
            return true;
        }
        return false;
    }

    /**
     * A rendezvous send not yet matched can be withdrawn: still queued for credit, it is dropped here; already
     * sent, the receiver is asked (CANCEL) and answers CANCELLED. An eager send is never cancelled.
     */
    private boolean cancelTransportSend(SendRequest s) {
        if (rendezvousSends.get(s.sendId) == null) {
            return false;
        }
        PeerFlow f = flow(s.worldDest);
        synchronized (f) {
            for (java.util.Iterator<Pending> it = f.queue.iterator(); it.hasNext(); ) {
                Pending p = it.next();
                if (p.request == s) {
                    it.remove();
                    if (rendezvousSends.remove(s.sendId, s)) {
                        s.markCancelled();
                    }
                    return true;
                }
            }
        }
        transport.send(s.worldDest, control(Protocol.CANCEL, 0, s.sendId, 0, 0), null, null);
        return true;
    }

    private void onCancel(int peer, MemorySegment header) {
        long sendId = FrameLayout.getLong(header, FrameLayout.SEND_ID);
        Unexpected found = null;
        synchronized (lock) {
            found = queues.findRendezvous(peer, sendId);
            if (found != null) {
                queues.removeUnexpected(found);
            }
        }
        MemorySegment h = control(Protocol.CANCELLED, 0, sendId, 0, 0);
        FrameLayout.putInt(h, FrameLayout.FLAGS, found != null ? 1 : 0);
        transport.send(peer, h, null, null);
        if (found != null) {
            consumed(peer, charge(found));
        }
    }

    private void onCancelled(MemorySegment header) {
        long sendId = FrameLayout.getLong(header, FrameLayout.SEND_ID);
        if (FrameLayout.getInt(header, FrameLayout.FLAGS) == Protocol.CANCELLED_REFUSED) {
            SendRequest s = rendezvousSends.remove(sendId);
            if (s != null) {
                int e = (int) FrameLayout.getLong(header, FrameLayout.TOTAL);
                s.fail(e, "the receiver refused the message: " + poisonMessage(e));
            }
            return;
        }
        if (FrameLayout.getInt(header, FrameLayout.FLAGS) == 1) {
            SendRequest s = rendezvousSends.remove(sendId);
            if (s != null) {
                s.markCancelled();
            }
        }
    }

    // --------------------------------------------------------------- receives

    /** Posts a receive; matches an unexpected message at once when there is one. */
    public RecvRequest irecv(MessageData data, int context, int source, int tag) {
        RecvRequest r = newRecv().start(data, context, source, tag);
        return post(r);
    }

    /**
     * {@link #irecv} for the application's own receives (package mpi): ULFM's rule applies to them, a receive from
     * ANY_SOURCE on a communicator with an unacknowledged failed member ends with ERR_PROC_FAILED_PENDING.
     */
    public RecvRequest irecvFromApplication(MessageData data, int context, int source, int tag) {
        RecvRequest r = newRecv().start(data, context, source, tag);
        r.application = true;
        return post(r);
    }

    /**
     * A receive from ANY_SOURCE that ended with ERR_PROC_FAILED_PENDING (its group had an unacknowledged failure)
     * stays pending in MPI's terms: waiting on it again re-posts it here, where it waits, matches or fails anew.
     * Does nothing to a request that ended otherwise.
     */
    public void revive(RequestImpl request) {
        if (request instanceof RecvRequest r && r.isDone() && r.settled()
                && r.error() == ErrorClass.ERR_PROC_FAILED_PENDING) {
            r.rearm();
            post(r);
        }
    }

    /** Cancels a receive that ended with ERR_PROC_FAILED_PENDING (it is not posted): it completes as cancelled. */
    public void cancelPending(RequestImpl request) {
        if (request instanceof RecvRequest r && r.isDone() && r.settled()
                && r.error() == ErrorClass.ERR_PROC_FAILED_PENDING) {
            r.rearm();
            r.finishCancelled();
        }
    }

    private RecvRequest post(RecvRequest r) {
        int context = r.context;
        int source = r.sourceFilter;
        int tag = r.tagFilter;
        if (anyPoisoned) {
            int e = poisonOf(context);
            if (e != 0) {
                r.fail(e, poisonMessage(e));
                return r;
            }
        }
        Unexpected u;
        synchronized (lock) {
            u = queues.takeUnexpected(context, source, tag);
            if (u == null) {
                if (anyPoisoned) {
                    // again, under the lock: a poison() that ran between the check above and here scanned the posted
                    // receives before this one was among them, and would leave it waiting for ever (a survivor hung in
                    // a collective whose failure notice came while it posted its receive, seen by CI)
                    int e = poisonOf(context);
                    if (e != 0) {
                        r.fail(e, poisonMessage(e));
                        return r;
                    }
                }
                if (anyFailed) {
                    if (source != ANY) {
                        int w = worldRankOf.applyAsInt(context, source);
                        if (w >= 0 && failed(w)) {
                            r.fail(ErrorClass.ERR_PROC_FAILED, "rank " + w + " has failed");
                            return r;
                        }
                    } else if (r.application && anySourceBlocked.test(context)) {
                        r.fail(ErrorClass.ERR_PROC_FAILED_PENDING, ANY_SOURCE_PENDING);
                        return r;
                    }
                }
                queues.post(r);
                return r;
            }
            if (u.peer < 0 && u.copied) {
                unexpectedCopied -= u.bytes + Protocol.OVERHEAD;
            }
        }
        receiveUnexpected(r, u);
        recycle(u);
        return r;
    }

    private static final String ANY_SOURCE_PENDING = "a process of the communicator has failed and the failure is not"
            + " acknowledged: a receive from ANY_SOURCE cannot wait (acknowledge it with Ulfm.ackFailed)";

    /** An unexpected entry taken and fully used: back to the pool (with its small copy buffer). */
    private void recycle(Unexpected u) {
        u.clear();
        synchronized (lock) {
            if (freeUnexpectedCount < FREE_UNEXPECTED_MAX) {
                long large = u.largeBuffer();
                if (large > 0) {
                    if (keptLarge + large <= KEPT_LARGE_MAX) {
                        keptLarge += large;
                    } else {
                        u.eager = null;
                    }
                }
                u.next = freeUnexpected;
                freeUnexpected = u;
                freeUnexpectedCount++;
            }
        }
    }

    /** A fresh or recycled unexpected entry; called with {@code lock} held. */
    private Unexpected newUnexpected(int context, int source, int tag, long bytes) {
        Unexpected u = freeUnexpected;
        if (u == null) {
            u = new Unexpected();
        } else {
            freeUnexpected = u.next;
            u.next = null;
            freeUnexpectedCount--;
            keptLarge -= u.largeBuffer();
        }
        return u.set(context, source, tag, bytes);
    }

    private void receiveUnexpected(RecvRequest r, Unexpected u) {
        if (u.peer >= 0) {
            consumed(u.peer, charge(u));
        }
        long n = r.accept(u.source, u.tag, u.bytes);
        if (u.streamed) {
            receiveStreaming(r, u, n);
        } else if (u.copied) {
            r.data.unpackFrom(0, u.eager, 0, n);
            if (u.syncId != 0) {
                matchedSynchronous(u.peer, u.syncId);
            }
            r.finish();
        } else if (u.inproc != null) {
            copyInproc(u.inproc, r.data, n);
            u.inproc.onConsumed.accept(Boolean.TRUE);
            r.finish();
        } else {
            startRendezvousReceive(r, u.peer, u.sendId, n, u.remoteAddress);
        }
    }

    /**
     * A receive takes a streamed message that was unexpected: from now on its pieces go straight into the receive
     * buffer, and what had come already is copied out of the entry here. Whichever of this thread and the progress
     * owner counts the last byte completes the receive.
     */
    private void receiveStreaming(RecvRequest r, Unexpected u, long n) {
        long prefix;
        boolean whole = false;
        boolean failed = false;
        synchronized (lock) {
            IncomingStream st = u.stream;
            if (st == null) {
                whole = true; // every piece came before the receive
                prefix = u.bytes;
            } else if (st.failed) {
                failed = true;
                prefix = 0;
            } else {
                r.worldPeer = u.peer;
                r.wanted = u.bytes;
                r.arrived = 0;
                st.receive = r;
                st.unexpected = null;
                u.stream = null;
                prefix = st.received;
            }
        }
        if (failed) {
            r.fail(ErrorClass.ERR_PROC_FAILED, "rank " + u.peer + " failed while it sent this message");
            return;
        }
        long k = Math.min(prefix, n);
        if (k > 0) {
            r.data.unpackFrom(0, u.eager, 0, k);
        }
        if (whole || r.addArrived(prefix)) {
            r.finish();
        }
    }

    private void startRendezvousReceive(RecvRequest r, int peer, long sendId, long wanted, long remoteAddress) {
        if (remoteAddress != 0 && job == null && startSplitCopy(r, peer, sendId, wanted, remoteAddress)) {
            return;
        }
        if (remoteAddress != 0 && (job != null ? readInJvm(peer, sendId, r.data, wanted)
                : SingleCopyRendezvous.receive(transport, peer, remoteAddress, r.data, wanted))) {
            // single copy: we read the data ourselves; tell the sender
            transport.send(peer, control(Protocol.DONE, 0, sendId, 0, 0), null, null);
            r.finish();
            return;
        }
        r.worldPeer = peer;
        r.recvId = ids.getAndIncrement();
        r.wanted = wanted;
        r.arrived = 0;
        if (wanted > 0) {
            activeRecvs.put(r.recvId, r);
        }
        transport.send(peer, control(Protocol.CTS, 0, sendId, r.recvId, wanted), null, null);
        if (wanted == 0) {
            r.finish();
        }
    }

    /**
     * Threads mode, a rendezvous from {@code peer} that offered its buffer: copies the first {@code wanted} bytes of
     * send {@code sendId}'s data straight into {@code into}; false when that is not possible (the caller answers CTS).
     * The send stays in its engine's table until this rank's DONE, so its data cannot change meanwhile.
     */
    private boolean readInJvm(int peer, long sendId, MessageData into, long wanted) {
        MemorySegment to = into.contiguous();
        InprocEndpoint e = to != null && peer < flows.length ? job.endpoint(peer) : null;
        MemorySegment from = e != null ? e.rendezvousData(sendId) : null;
        if (from == null || from.byteSize() < wanted || to.byteSize() < wanted) {
            return false;
        }
        MemorySegment.copy(from, 0, to, 0, wanted);
        return true;
    }

    @Override
    public MemorySegment rendezvousData(long sendId) {
        SendRequest s = rendezvousSends.get(sendId);
        MessageData d = s != null ? s.data : null;
        return d != null ? d.contiguous() : null;
    }

    boolean cancelRecv(RecvRequest r) {
        synchronized (lock) {
            if (!r.queued) {
                return false;
            }
            queues.unpost(r);
        }
        r.finishCancelled();
        return true;
    }

    /**
     * Matched probe: takes the first message a receive (context, source, tag) would match off the unexpected
     * queue, so that only {@link #mrecv} can receive it. Returns null when there is none.
     */
    public MatchedMessage improbe(int context, int source, int tag) {
        progress.poll();
        synchronized (lock) {
            Unexpected u = queues.takeUnexpected(context, source, tag);
            if (u == null) {
                return null;
            }
            if (u.peer < 0 && u.copied) {
                unexpectedCopied -= u.bytes + Protocol.OVERHEAD;
            }
            return new MatchedMessage(u);
        }
    }

    /** Receives a message taken by {@link #improbe}. */
    public RecvRequest mrecv(MatchedMessage m, MessageData data) {
        if (!m.take()) {
            throw new org.jmpi.runtime.MpiError(ErrorClass.ERR_REQUEST, "this message has already been received");
        }
        Unexpected u = m.entry;
        RecvRequest r = newRecv().start(data, u.context, u.source, u.tag);
        receiveUnexpected(r, u);
        return r;
    }

    /**
     * Why a probe for (context, source) can never be satisfied, as an MPI error class, or 0: the context is poisoned
     * (revoked), the named source failed, or (ANY_SOURCE) its group has an unacknowledged failure. Probes call it when
     * they found nothing, so that they raise an error instead of waiting for ever.
     */
    public int probeFailure(int context, int source) {
        int e = poisonOf(context);
        if (e != 0 || !anyFailed) {
            return e;
        }
        if (source != ANY) {
            int w = worldRankOf.applyAsInt(context, source);
            return w >= 0 && failed(w) ? ErrorClass.ERR_PROC_FAILED : 0;
        }
        return anySourceBlocked.test(context) ? ErrorClass.ERR_PROC_FAILED : 0;
    }

    /** Throws the error of {@link #probeFailure}, if any. */
    public void checkProbe(int context, int source) {
        int e = probeFailure(context, source);
        if (e != 0) {
            throw new org.jmpi.runtime.MpiError(e, e == ErrorClass.ERR_PROC_FAILED
                    ? "the probed source (or, for ANY_SOURCE, an unacknowledged member) has failed"
                    : poisonMessage(e));
        }
    }

    /**
     * Looks for a message that a receive (context, source, tag) would match, without receiving it. Returns a
     * completed request carrying its envelope, or {@code null}.
     */
    public RequestImpl iprobe(int context, int source, int tag) {
        progress.poll();
        synchronized (lock) {
            Unexpected u = queues.findUnexpected(context, source, tag);
            return u == null ? null : RequestImpl.completed(progress, u.source, u.tag, u.bytes);
        }
    }

    // ------------------------------------------------ in-JVM delivery (threads mode and self)

    @Override
    public boolean deliver(InprocMessage m) {
        if (m.crossJob && refusingOtherJobs) {
            refuseInproc(m, ErrorClass.ERR_PROC_FAILED);
            return true;
        }
        if (m.context < 0 || anyPoisoned) {
            if (m.context < 0) {
                onControl(m.context, m.source, m.tag, m.data);
                m.onConsumed.accept(Boolean.TRUE);
                return true;
            }
            int e = poisonOf(m.context);
            if (e != 0) {
                refuseInproc(m, e);
                return true;
            }
        }
        RecvRequest r;
        boolean refuse = false;
        MemorySegment buffer = null;
        synchronized (lock) {
            r = queues.takePosted(m.context, m.source, m.tag);
            refuse = r == null && poisonedMeanwhile(m.context);
            if (r == null && !refuse) {
                // queued by reference, so that a receive posted meanwhile copies straight from the sender; an eager
                // one is then copied below, outside the lock
                Unexpected u = newUnexpected(m.context, m.source, m.tag, m.bytes);
                u.inproc = m;
                queues.addUnexpected(u);
                if (m.synchronous || m.bytes > eagerLimit
                        || unexpectedCopied + m.bytes + Protocol.OVERHEAD > unexpectedLimit) {
                    return false;
                }
                unexpectedCopied += m.bytes + Protocol.OVERHEAD;
                buffer = u.eager;
                u.eager = null;
                if ((buffer == null || buffer.byteSize() < m.bytes) && spareBuffer != null
                        && spareBuffer.byteSize() >= m.bytes) {
                    buffer = spareBuffer;
                    spareBuffer = null;
                }
            }
        }
        if (refuse) { // the context was poisoned while this message was being matched
            refuseInproc(m, poisonOf(m.context));
            return true;
        }
        if (r != null) {
            long n = r.accept(m.source, m.tag, m.bytes);
            copyInproc(m, r.data, n);
            m.onConsumed.accept(Boolean.TRUE);
            r.finish();
            return true;
        }
        return bufferUnexpected(m, buffer);
    }

    /**
     * Copies an eager in-JVM message that {@link #deliver} queued unexpected into a buffer of this rank (the entry's
     * kept one when large enough), without the matching lock: the receiving rank takes that lock for each of its own
     * receives, and in an exchange (a sendrecv, a collective's step) one direction finds the receive not yet posted
     * about every other time; a copy of 16 KiB under the lock made the other rank's receives wait for it, and a
     * waiter parked in the lock took tens of microseconds to wake (threads mode, 2-rank sendrecv of 16 KiB, medians
     * per call 6 us, p90 30 us, 2026-11-28). A receive that takes the entry meanwhile has copied from the sender.
     */
    private boolean bufferUnexpected(InprocMessage m, MemorySegment buffer) {
        MemorySegment b = buffer != null && buffer.byteSize() >= m.bytes
                ? buffer : MemorySegment.ofArray(new byte[(int) m.bytes]);
        m.packTo(0, b, 0, m.bytes);
        synchronized (lock) {
            Unexpected u = queues.findInproc(m);
            if (u == null) { // received (by reference) or withdrawn meanwhile: whoever took it ran onConsumed
                unexpectedCopied -= m.bytes + Protocol.OVERHEAD;
                if (spareBuffer == null || spareBuffer.byteSize() < b.byteSize()) {
                    spareBuffer = b; // for the next one, instead of a new buffer each time this happens
                }
                return false;
            }
            u.eager = b;
            u.copied = true;
            u.inproc = null;
        }
        m.onConsumed.accept(Boolean.TRUE);
        return true;
    }

    /** Bounce buffers of the in-JVM copy when neither side is contiguous, one per receiving thread. */
    private static final ThreadLocal<MemorySegment> BOUNCE =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(64 << 10, 64));

    /**
     * Copies the first {@code n} bytes of an in-JVM message into {@code dst}: one pass when either side is contiguous
     * (the sender's layout packs straight into the receiver's memory), else through a 64 KiB per-thread bounce buffer.
     */
    private static void copyInproc(InprocMessage m, MessageData dst, long n) {
        if (m.data != null) {
            dst.unpackFrom(0, m.data, 0, n);
            return;
        }
        MemorySegment to = dst.contiguous();
        if (to != null) {
            m.layout.packTo(0, to, 0, n);
            return;
        }
        MemorySegment bounce = BOUNCE.get();
        for (long done = 0; done < n; ) {
            long k = Math.min(n - done, bounce.byteSize());
            m.layout.packTo(done, bounce, 0, k);
            dst.unpackFrom(done, bounce, 0, k);
            done += k;
        }
    }

    @Override
    public boolean withdraw(InprocMessage m) {
        synchronized (lock) {
            Unexpected u = queues.findInproc(m);
            if (u != null) {
                queues.removeUnexpected(u);
                return true;
            }
            return false;
        }
    }

    @Override
    public void refuseOtherJobs() {
        refusingOtherJobs = true;
        java.util.List<Unexpected> refused = new java.util.ArrayList<>();
        synchronized (lock) {
            queues.takeUnexpectedIf(u -> u.inproc != null && u.inproc.crossJob, refused);
        }
        for (Unexpected u : refused) {
            refuseInproc(u.inproc, ErrorClass.ERR_PROC_FAILED);
            recycle(u);
        }
    }

    @Override
    public void wakeAll() {
        synchronized (lock) {
            queues.forEachPosted(RecvRequest::wakeWaiter);
        }
        Transport t = transport;
        if (t != null) {
            t.wakeup();
        }
    }

    // ---------------------------------------------------- frames from a transport

    /** Counts what arrives from each peer (processes mode: the transport's counters), or null. */
    private volatile org.jmpi.transport.Traffic traffic;

    /** Counts the frames that arrive into {@code t} from now on. */
    public void countInto(org.jmpi.transport.Traffic t) {
        traffic = t;
    }

    /** Frames read in place from a larger segment: an eager payload is copied straight out of it (no slice). */
    @Override
    public void onFrame(int peer, MemorySegment header, MemorySegment memory, long offset, long length) {
        org.jmpi.transport.Traffic t = traffic;
        if (t != null) {
            t.received(peer, length);
        }
        int kind = FrameLayout.getInt(header, FrameLayout.KIND);
        if (kind == Protocol.EAGER) {
            onEager(peer, header, memory, offset);
        } else if (kind == Protocol.STREAM_DATA) {
            onStreamData(peer, header, memory, offset, length);
        } else if (kind == Protocol.STREAM) {
            onStream(peer, header, memory, offset, length);
        } else {
            dispatch(peer, header, length == 0 ? NO_PAYLOAD : memory.asSlice(offset, length));
        }
    }

    private static final MemorySegment NO_PAYLOAD = MemorySegment.ofArray(new byte[0]);

    @Override
    public void onFrame(int peer, MemorySegment header, MemorySegment payload) {
        org.jmpi.transport.Traffic t = traffic;
        if (t != null) {
            t.received(peer, payload == null ? 0 : payload.byteSize());
        }
        dispatch(peer, header, payload);
    }

    private void dispatch(int peer, MemorySegment header, MemorySegment payload) {
        int kind = FrameLayout.getInt(header, FrameLayout.KIND);
        switch (kind) {
            case Protocol.EAGER -> onEager(peer, header, payload, 0);
            case Protocol.RTS -> onRts(peer, header);
            case Protocol.CTS -> onCts(peer, header);
            case Protocol.DATA -> onData(header, payload);
            // a control frame's amount is its total; the lane's CREDIT record (returnCredit) comes as a SHORT one,
            // which both transports hand to onShort first
            case Protocol.CREDIT -> onCredit(peer, FrameLayout.getLong(header, FrameLayout.TOTAL));
            case Protocol.CANCEL -> onCancel(peer, header);
            case Protocol.CANCELLED -> onCancelled(header);
            case Protocol.DONE -> onDone(header);
            case Protocol.SPLIT -> onSplit(peer, header, payload);
            case Protocol.WROTE -> onWrote(header);
            case Protocol.STREAM -> onStream(peer, header, payload, 0, payload.byteSize());
            case Protocol.STREAM_DATA -> onStreamData(peer, header, payload, 0, payload.byteSize());
            case Protocol.EAGER_ANSWERED -> onEager(peer, header, payload, 0);
            case Protocol.MATCHED -> onMatched(peer);
            default -> throw new IllegalStateException("unknown frame kind " + kind + " from rank " + peer);
        }
    }

    private void onEager(int peer, MemorySegment header, MemorySegment payload, long offset) {
        eager(peer, FrameLayout.getInt(header, FrameLayout.CONTEXT), FrameLayout.getInt(header, FrameLayout.SOURCE),
                FrameLayout.getInt(header, FrameLayout.TAG), FrameLayout.getLong(header, FrameLayout.TOTAL),
                FrameLayout.getInt(header, FrameLayout.KIND) == Protocol.EAGER_ANSWERED ? ANSWERED
                        : FrameLayout.getLong(header, FrameLayout.SEND_ID), payload, offset);
    }

    /** A MATCHED answer from {@code peer} (progress owner only: one writer at a time). */
    private void onMatched(int peer) {
        PeerFlow f = flow(peer);
        f.answers = f.answers + 1;
    }

    /**
     * A SHORT frame (the lane's eager message, no ids) from its header's values: as an EAGER frame, without a header
     * to read them from. Other kinds take the header.
     */
    @Override
    public boolean onShort(int peer, int kind, int context, int source, int tag, MemorySegment memory, long offset,
            int length) {
        if (kind != Protocol.EAGER && kind != Protocol.EAGER_ANSWERED) {
            if (kind == Protocol.CREDIT && length == 0) {
                onCredit(peer, (long) context << 32 | tag & 0xffff_ffffL); // returnCredit's lane record
                return true;
            }
            if (kind == Protocol.MATCHED) {
                onMatched(peer);
                return true;
            }
            return false;
        }
        org.jmpi.transport.Traffic t = traffic;
        if (t != null) {
            t.received(peer, length);
        }
        eager(peer, context, source, tag, length, kind == Protocol.EAGER ? 0 : ANSWERED, memory, offset);
        return true;
    }

    /**
     * An eager message of {@code bytes} bytes at {@code offset} of {@code payload}: to the posted receive it matches,
     * else queued as unexpected. {@code syncId} non-zero: an eager synchronous send, answered DONE once matched
     * ({@link #ANSWERED}: an EAGER_ANSWERED one, answered MATCHED).
     */
    private void eager(int peer, int context, int source, int tag, long bytes, long syncId, MemorySegment payload,
            long offset) {
        if (context < 0 || anyPoisoned) {
            if (context < 0) {
                consumed(peer, bytes + Protocol.OVERHEAD);
                onControl(context, source, tag, payload.asSlice(offset, bytes));
                return;
            }
            int e = poisonOf(context);
            if (e != 0) { // dropped: nobody may receive it any more
                consumed(peer, bytes + Protocol.OVERHEAD);
                if (syncId != 0) {
                    refuseRts(peer, syncId, e);
                }
                return;
            }
        }
        RecvRequest r;
        synchronized (lock) {
            r = queues.takePosted(context, source, tag);
            if (r == null && !poisonedMeanwhile(context)) {
                Unexpected u = newUnexpected(context, source, tag, bytes);
                u.copyFrom(payload, offset);
                u.peer = peer;
                u.syncId = syncId;
                queues.addUnexpected(u);
                return;
            }
        }
        consumed(peer, bytes + Protocol.OVERHEAD);
        if (r == null) { // dropped: the context was poisoned while this message was being matched
            if (syncId != 0) {
                refuseRts(peer, syncId, poisonOf(context));
            }
            return;
        }
        long n = r.accept(source, tag, bytes);
        r.data.unpackFrom(0, payload, offset, n);
        if (syncId != 0) {
            matchedSynchronous(peer, syncId);
        }
        r.finish();
        completedInPoll(r);
    }

    /**
     * Marks that a progress pass completed {@code r}: the pass returns at once if its thread waits for {@code r} or
     * for nothing in particular ({@link Progress#awaited()}), else it reads on (a window of receives waited for from
     * its last one takes its messages in one pass, not one pass each).
     */
    private void completedInPoll(RecvRequest r) {
        RequestImpl a = progress.awaited();
        if (a == null || a == r) {
            completedInPoll = true;
        }
    }

    @Override
    public boolean takeCompletion() {
        if (completedInPoll) {
            completedInPoll = false;
            return true;
        }
        return false;
    }

    private void onRts(int peer, MemorySegment header) {
        int context = FrameLayout.getInt(header, FrameLayout.CONTEXT);
        int source = FrameLayout.getInt(header, FrameLayout.SOURCE);
        int tag = FrameLayout.getInt(header, FrameLayout.TAG);
        long bytes = FrameLayout.getLong(header, FrameLayout.TOTAL);
        long sendId = FrameLayout.getLong(header, FrameLayout.SEND_ID);
        long address = (FrameLayout.getInt(header, FrameLayout.FLAGS) & Protocol.FLAG_SINGLE_COPY) != 0
                ? FrameLayout.getLong(header, FrameLayout.RECV_ID) : 0;
        if (anyPoisoned) {
            int e = poisonOf(context);
            if (e != 0) {
                consumed(peer, Protocol.OVERHEAD);
                refuseRts(peer, sendId, e);
                return;
            }
        }
        RecvRequest r;
        synchronized (lock) {
            r = queues.takePosted(context, source, tag);
            if (r == null && !poisonedMeanwhile(context)) {
                Unexpected u = newUnexpected(context, source, tag, bytes);
                u.peer = peer;
                u.sendId = sendId;
                u.remoteAddress = address;
                queues.addUnexpected(u);
                return;
            }
        }
        consumed(peer, Protocol.OVERHEAD);
        if (r == null) { // refused: the context was poisoned while this request was being matched
            refuseRts(peer, sendId, poisonOf(context));
            return;
        }
        long n = r.accept(source, tag, bytes);
        startRendezvousReceive(r, peer, sendId, n, address);
    }

    // ------------------------------------------------------------------ streamed eager messages

    /** The first piece of a streamed message: matched like an eager message, the rest follows as STREAM_DATA. */
    private void onStream(int peer, MemorySegment header, MemorySegment memory, long offset, long length) {
        int context = FrameLayout.getInt(header, FrameLayout.CONTEXT);
        int source = FrameLayout.getInt(header, FrameLayout.SOURCE);
        int tag = FrameLayout.getInt(header, FrameLayout.TAG);
        long total = FrameLayout.getLong(header, FrameLayout.TOTAL);
        long id = FrameLayout.getLong(header, FrameLayout.SEND_ID);
        boolean drop = anyPoisoned && poisonOf(context) != 0; // dropped: nobody may receive it any more
        RecvRequest r = null;
        synchronized (lock) {
            IncomingStream st = newStream(peer, id, total);
            st.received = length;
            if (!drop) {
                r = queues.takePosted(context, source, tag);
                // checked again, under the lock, before it can become an unexpected entry (see poisonedMeanwhile)
                drop = r == null && poisonedMeanwhile(context);
            }
            if (!drop) {
                if (r == null) {
                    Unexpected u = newUnexpected(context, source, tag, total);
                    u.peer = peer;
                    u.streamed = true;
                    u.reserve();
                    org.jmpi.shared.FastCopy.copy(memory, offset, u.eager, 0, length);
                    if (length < total) {
                        u.stream = st;
                        st.unexpected = u;
                    }
                    queues.addUnexpected(u);
                } else {
                    st.receive = r;
                    r.worldPeer = peer;
                    r.wanted = total;
                    r.arrived = 0;
                }
            }
            if (length < total) {
                st.next = streams[peer];
                streams[peer] = st;
            } else {
                recycleStream(st);
            }
        }
        if (r == null) {
            if (drop) {
                consumed(peer, total + Protocol.OVERHEAD);
            }
            return;
        }
        consumed(peer, total + Protocol.OVERHEAD);
        long n = r.accept(source, tag, total);
        if (n > 0) {
            r.data.unpackFrom(0, memory, offset, Math.min(length, n));
        }
        if (r.addArrived(length)) {
            r.finish();
        }
    }

    /** A later piece of a streamed message: into the receive buffer if matched, else into the unexpected entry. */
    private void onStreamData(int peer, MemorySegment header, MemorySegment memory, long offset, long length) {
        long id = FrameLayout.getLong(header, FrameLayout.SEND_ID);
        long at = FrameLayout.getLong(header, FrameLayout.TOTAL);
        RecvRequest r;
        synchronized (lock) {
            IncomingStream prev = null;
            IncomingStream st = peer < streams.length ? streams[peer] : null;
            while (st != null && st.id != id) {
                prev = st;
                st = st.next;
            }
            if (st == null) {
                throw new IllegalStateException("piece of unknown streamed message " + id + " from rank " + peer);
            }
            r = st.receive;
            Unexpected u = st.unexpected;
            if (r == null && u != null) {
                org.jmpi.shared.FastCopy.copy(memory, offset, u.eager, at, length);
            }
            st.received += length;
            if (st.received >= st.total) {
                if (prev == null) {
                    streams[peer] = st.next;
                } else {
                    prev.next = st.next;
                }
                if (u != null) {
                    u.stream = null; // whole now: a receive copies it like an eager message
                }
                recycleStream(st);
            }
        }
        if (r != null) {
            long n = Math.min(r.total, r.capacity);
            if (at < n) {
                r.data.unpackFrom(at, memory, offset, Math.min(length, n - at));
            }
            if (r.addArrived(length)) {
                r.finish();
            }
        }
    }

    /** A fresh or recycled stream entry; called with {@code lock} held. */
    private IncomingStream newStream(int peer, long id, long total) {
        IncomingStream st = freeStreams;
        if (st == null) {
            st = new IncomingStream();
        } else {
            freeStreams = st.next;
        }
        return st.set(peer, id, total);
    }

    /** Keeps a finished stream entry for the next one (a few at most); called with {@code lock} held. */
    private void recycleStream(IncomingStream st) {
        st.receive = null;
        st.unexpected = null;
        if (freeStreams == null || freeStreams.next == null) {
            st.next = freeStreams;
            freeStreams = st;
        }
    }

    /**
     * The peer failed: its streamed messages will not be completed. Matched receives fail; an unmatched one stays
     * queued, and the receive that takes it fails. Returns the receives to fail (after the lock is released).
     */
    private java.util.List<RecvRequest> dropStreams(int peer) {
        java.util.List<RecvRequest> broken = new java.util.ArrayList<>();
        if (peer >= streams.length) {
            return broken;
        }
        synchronized (lock) {
            for (IncomingStream st = streams[peer]; st != null; st = st.next) {
                if (st.receive != null) {
                    broken.add(st.receive);
                } else if (st.unexpected != null) {
                    st.failed = true;
                }
            }
            streams[peer] = null;
        }
        return broken;
    }

    /** Single copy: the receiver has read the data (or, for a split copy, its part) of one of our sends. */
    private void onDone(MemorySegment header) {
        long sendId = FrameLayout.getLong(header, FrameLayout.SEND_ID);
        SendRequest s = rendezvousSends.get(sendId);
        if (s == null) {
            return;
        }
        if (isSplit(s)) {
            splitPartDone(s);
        } else if (rendezvousSends.remove(sendId, s)) {
            s.finish();
        }
    }

    private void onCts(int peer, MemorySegment header) {
        long sendId = FrameLayout.getLong(header, FrameLayout.SEND_ID);
        long recvId = FrameLayout.getLong(header, FrameLayout.RECV_ID);
        long wanted = FrameLayout.getLong(header, FrameLayout.TOTAL);
        SendRequest split = rendezvousSends.get(sendId);
        if (split != null && isSplit(split)) { // split copy: the receiver could not read its part after all
            sendData(peer, split, recvId, 0, wanted, split.splitPartWritten);
            return;
        }
        SendRequest s = rendezvousSends.remove(sendId);
        if (s == null) {
            throw new IllegalStateException("clear-to-send for unknown send " + sendId + " from rank " + peer);
        }
        if (wanted == 0) {
            s.finish();
            return;
        }
        sendData(peer, s, recvId, 0, wanted, s.written);
    }

    /** Sends bytes [from, to) of a rendezvous send as DATA frames; {@code last} runs once the last one is written. */
    private void sendData(int peer, SendRequest s, long recvId, long from, long to, Runnable last) {
        MemorySegment contiguous = s.data.contiguous();
        long chunkBytes = SingleCopyRendezvous.dataChunk(transport, peer, this.chunkBytes, to - from);
        long wanted = to;
        for (long off = from; off < wanted; off += chunkBytes) {
            long len = Math.min(chunkBytes, wanted - off);
            MemorySegment chunk;
            if (contiguous != null) {
                chunk = contiguous.asSlice(off, len);
            } else {
                chunk = MemorySegment.ofArray(new byte[(int) len]);
                s.data.packTo(off, chunk, 0, len);
            }
            // the whole header for each chunk: what the transport's send runs inside (see sendStream) may have used
            // this thread's header for its own frames
            MemorySegment h = control(Protocol.DATA, (int) len, s.sendId, recvId, off);
            boolean isLast = off + len >= wanted;
            transport.send(peer, h, chunk, isLast ? last : null);
        }
    }

    private void onData(MemorySegment header, MemorySegment payload) {
        long recvId = FrameLayout.getLong(header, FrameLayout.RECV_ID);
        long offset = FrameLayout.getLong(header, FrameLayout.TOTAL);
        RecvRequest r = activeRecvs.get(recvId);
        if (r == null) {
            throw new IllegalStateException("data for unknown receive " + recvId);
        }
        long len = payload.byteSize();
        r.data.unpackFrom(offset, payload, 0, len);
        arrived(r, recvId, len);
    }

    private void arrived(RecvRequest r, long recvId, long len) {
        if (r.addArrived(len)) {
            activeRecvs.remove(recvId);
            r.finish();
        }
    }

    /**
     * A rendezvous DATA frame's payload, or an EAGER frame's whose posted receive it matches, goes straight into the
     * receive buffer when that is one run of memory (a direct buffer, a memory segment, a Java array): the transport
     * reads it there from the socket (native memory) or copies it there piece by piece as it comes (an array), instead
     * of reading it whole into its read buffer and then the engine copying it out (TCP; see
     * {@link FrameSink#placement}).
     */
    @Override
    public MemorySegment placement(int peer, MemorySegment header) {
        int kind = FrameLayout.getInt(header, FrameLayout.KIND);
        return kind == Protocol.DATA ? placementOfData(header)
                : kind == Protocol.EAGER ? placementOfEager(peer, header) : null;
    }

    /**
     * {@link #placement} of an EAGER frame: matched now, when its header has come (the frames of one peer come in
     * order, so nothing of it can be matched before), if a posted receive takes it whole into one run of memory; it
     * then completes when the payload is in ({@link #onPlaced}). Anything else (no receive posted yet, a datatype with
     * gaps, a receive too small) returns null, leaves the receive posted, and the frame is handed over whole, as
     * usual.
     */
    private MemorySegment placementOfEager(int peer, MemorySegment header) {
        int context = FrameLayout.getInt(header, FrameLayout.CONTEXT);
        long bytes = FrameLayout.getLong(header, FrameLayout.TOTAL);
        if (context < 0 || anyPoisoned || bytes != FrameLayout.getInt(header, FrameLayout.PAYLOAD)) {
            return null;
        }
        int source = FrameLayout.getInt(header, FrameLayout.SOURCE);
        int tag = FrameLayout.getInt(header, FrameLayout.TAG);
        RecvRequest r;
        MemorySegment c;
        synchronized (lock) {
            r = queues.findPosted(context, source, tag);
            c = r == null ? null : r.data.contiguous();
            if (c == null || c.isReadOnly() || c.byteSize() < bytes) {
                return null;
            }
            queues.unpost(r);
        }
        consumed(peer, bytes + Protocol.OVERHEAD);
        r.accept(source, tag, bytes);
        flow(peer).placedEager.set(r);
        return c.asSlice(0, bytes);
    }

    /** {@link #placement} of a DATA frame, out of line: the transport asks at every large eager frame too. */
    private MemorySegment placementOfData(MemorySegment header) {
        RecvRequest r = activeRecvs.get(FrameLayout.getLong(header, FrameLayout.RECV_ID));
        MemorySegment c = r == null ? null : r.data.contiguous();
        long offset = FrameLayout.getLong(header, FrameLayout.TOTAL);
        long len = FrameLayout.getInt(header, FrameLayout.PAYLOAD);
        if (c == null || c.isReadOnly() || offset < 0 || len > c.byteSize() - offset) {
            return null;
        }
        return c.asSlice(offset, len);
    }

    @Override
    public void onPlaced(int peer, MemorySegment header) {
        org.jmpi.transport.Traffic t = traffic;
        if (t != null) {
            t.received(peer, FrameLayout.getInt(header, FrameLayout.PAYLOAD));
        }
        if (FrameLayout.getInt(header, FrameLayout.KIND) == Protocol.EAGER) {
            RecvRequest r = flow(peer).placedEager.getAndSet(null);
            if (r == null) {
                throw new IllegalStateException("eager message from rank " + peer + " for no receive");
            }
            long syncId = FrameLayout.getLong(header, FrameLayout.SEND_ID);
            if (syncId != 0) {
                matchedSynchronous(peer, syncId);
            }
            r.finish();
            completedInPoll(r);
            return;
        }
        long recvId = FrameLayout.getLong(header, FrameLayout.RECV_ID);
        RecvRequest r = activeRecvs.get(recvId);
        if (r == null) {
            throw new IllegalStateException("data for unknown receive " + recvId);
        }
        arrived(r, recvId, FrameLayout.getInt(header, FrameLayout.PAYLOAD));
    }

    @Override
    public void onPeerFailure(int peer, Throwable cause) {
        String why = "connection to rank " + peer + " failed: " + cause;
        if (peer < failedPeers.length()) {
            failedPeers.set(peer, 1);
        } else {
            foreignFailed.add(peer);
        }
        anyFailed = true;
        if (peer < failedPeers.length()) {
            failureListener.accept(peer);
        }
        // receives that can only be satisfied by the failed rank: posted ones naming it, rendezvous ones from it
        java.util.List<RecvRequest> doomed = new java.util.ArrayList<>();
        java.util.function.IntBinaryOperator resolve = worldRankOf;
        java.util.List<RecvRequest> pending = new java.util.ArrayList<>();
        java.util.function.IntPredicate blocked = anySourceBlocked;
        synchronized (lock) {
            queues.forEachPosted(r -> {
                if (r.sourceFilter != ANY && resolve.applyAsInt(r.context, r.sourceFilter) == peer) {
                    queues.unpost(r);
                    doomed.add(r);
                } else if (r.sourceFilter == ANY && r.application && blocked.test(r.context)) {
                    queues.unpost(r);
                    pending.add(r);
                }
            });
        }
        for (RecvRequest r : pending) {
            r.fail(ErrorClass.ERR_PROC_FAILED_PENDING, ANY_SOURCE_PENDING);
        }
        for (RecvRequest r : activeRecvs.values()) {
            if (r.worldPeer == peer && activeRecvs.remove(r.recvId, r)) {
                doomed.add(r);
            }
        }
        for (RecvRequest r : dropStreams(peer)) {
            if (r.abandon()) {
                doomed.add(r);
            }
        }
        PeerFlow f = peer < flows.length ? flows[peer] : foreignFlows.get(peer); // none made for a failed peer
        RecvRequest placed = f == null ? null : f.placedEager.getAndSet(null);
        if (placed != null) {
            doomed.add(placed);
        }
        for (RecvRequest r : doomed) {
            r.fail(ErrorClass.ERR_PROC_FAILED, "rank " + peer + " failed: " + cause.getMessage());
        }
        if (f != null) {
            java.util.List<Pending> dropped;
            synchronized (f) {
                dropped = new java.util.ArrayList<>(f.queue);
                f.queue.clear();
            }
            for (Pending p : dropped) {
                if (p.request != null && p.request.sendId == 0) {
                    p.request.fail(ErrorClass.ERR_PROC_FAILED, why);
                }
            }
        }
        for (SendRequest s : rendezvousSends.values()) {
            if (s.worldDest == peer && rendezvousSends.remove(s.sendId, s)) {
                s.fail(ErrorClass.ERR_PROC_FAILED, why);
            }
        }
    }

    // ------------------------------------------------------------------ control messages (negative contexts)

    private void onControl(int context, int source, int tag, MemorySegment payload) {
        ControlHandler h = controlHandler;
        if (h != null) {
            h.onControl(context, source, tag, payload == null ? NO_PAYLOAD : payload);
        }
    }

    /**
     * Sends a control message to world rank {@code worldDest}: handled by its {@link ControlHandler} on arrival,
     * never matched. {@code context} must be negative. The request fails at once when the peer has failed.
     */
    public SendRequest sendControl(MessageData data, int worldDest, int context, int source, int tag) {
        if (context >= 0) {
            throw new IllegalArgumentException("control messages use negative contexts: " + context);
        }
        return isend(data, worldDest, context, source, tag, SendMode.STANDARD);
    }

    // ------------------------------------- split single copy (transport capability SingleCopy; SingleCopyRendezvous)

    /**
     * Receiver: a long message whose sender offered its native buffer, into a native buffer of ours: ask the sender
     * (SPLIT) to write the second part into our buffer while we read the first, then say DONE. Returns false when the
     * message does not qualify (the caller goes on with a plain single copy or CTS).
     */
    private boolean startSplitCopy(RecvRequest r, int peer, long sendId, long wanted, long remoteAddress) {
        Transport t = transport;
        // Not while a rendezvous send of ours is in flight: then this is an exchange (sendrecv, a collective's
        // step), the sender is busy copying our message, and its half would only wait behind that copy (2-rank
        // sendrecv of direct buffers, medians per call: 128 KiB 6.9 us unsplit against 8.9 split, 256 KiB 10.6
        // against 12.5, 512 KiB 19 against 21.5; 2026-11-28)
        MemorySegment into = rendezvousSends.isEmpty() ? SingleCopyRendezvous.splitTarget(t, peer, r.data, wanted)
                : null;
        if (into == null) {
            return false;
        }
        long k = SingleCopyRendezvous.splitPoint(wanted);
        r.worldPeer = peer;
        r.recvId = ids.getAndIncrement();
        r.wanted = wanted;
        r.arrived = 0;
        activeRecvs.put(r.recvId, r);
        MemorySegment h = control(Protocol.SPLIT, 16, sendId, r.recvId, k);
        MemorySegment offer = r.splitOffer;
        if (offer == null) {
            offer = r.splitOffer = Arena.ofAuto().allocate(16, 8);
        }
        offer.setAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, 0, into.address());
        offer.setAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, 1, wanted);
        t.send(peer, h, offer, null);
        if (SingleCopyRendezvous.read(t, peer, remoteAddress, into.asSlice(0, k))) {
            // the whole header again: the send above may have used this thread's header meanwhile
            t.send(peer, control(Protocol.DONE, 0, sendId, 0, 0), null, null);
            if (r.addArrived(k)) {
                activeRecvs.remove(r.recvId);
                r.finish();
            }
        } else { // refused after all: ask for our part as data frames
            t.send(peer, control(Protocol.CTS, 0, sendId, r.recvId, k), null, null);
        }
        return true;
    }

    /** Sender: the receiver reads bytes [0, k) of our buffer and wants us to write [k, wanted) into its buffer. */
    private void onSplit(int peer, MemorySegment header, MemorySegment payload) {
        long sendId = FrameLayout.getLong(header, FrameLayout.SEND_ID);
        long recvId = FrameLayout.getLong(header, FrameLayout.RECV_ID);
        long k = FrameLayout.getLong(header, FrameLayout.TOTAL);
        long address = payload.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 0);
        long wanted = payload.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 8);
        SendRequest s = rendezvousSends.get(sendId);
        if (s == null) {
            throw new IllegalStateException("split request for unknown send " + sendId + " from rank " + peer);
        }
        synchronized (s) {
            s.splitParts = 2; // our part, and the receiver's DONE (or the data of its part, if it could not read)
        }
        MemorySegment mine = s.data.contiguous().asSlice(k, wanted - k);
        if (SingleCopyRendezvous.write(transport, peer, mine, address + k)) {
            transport.send(peer, control(Protocol.WROTE, 0, 0, recvId, wanted - k), null, null);
            splitPartDone(s);
        } else {
            sendData(peer, s, recvId, k, wanted, s.splitPartWritten);
        }
    }

    /** Receiver: the sender has written its part of a split copy into our buffer. */
    private void onWrote(MemorySegment header) {
        long recvId = FrameLayout.getLong(header, FrameLayout.RECV_ID);
        RecvRequest r = activeRecvs.get(recvId);
        if (r == null) {
            throw new IllegalStateException("split data for unknown receive " + recvId);
        }
        if (r.addArrived(FrameLayout.getLong(header, FrameLayout.TOTAL))) {
            activeRecvs.remove(recvId);
            r.finish();
        }
    }

    private static boolean isSplit(SendRequest s) {
        synchronized (s) {
            return s.splitParts > 0;
        }
    }

    /** Sender: one part of a split copy is finished; the send completes with the second. */
    void splitPartDone(SendRequest s) {
        boolean last;
        synchronized (s) {
            last = --s.splitParts == 0;
        }
        if (last && rendezvousSends.remove(s.sendId, s)) {
            s.finish();
        }
    }
}
