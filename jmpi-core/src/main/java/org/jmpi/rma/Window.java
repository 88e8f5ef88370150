package org.jmpi.rma;

import static org.jmpi.rma.RmaHeaderLayout.BYTES;
import static org.jmpi.rma.RmaHeaderLayout.COUNT;
import static org.jmpi.rma.RmaHeaderLayout.DATA_BYTES;
import static org.jmpi.rma.RmaHeaderLayout.ELEMENT_KIND;
import static org.jmpi.rma.RmaHeaderLayout.FIRST_REPLY_TAG;
import static org.jmpi.rma.RmaHeaderLayout.FLAGS;
import static org.jmpi.rma.RmaHeaderLayout.FLAG_INLINE_DATA;
import static org.jmpi.rma.RmaHeaderLayout.FLAG_INLINE_RUNS;
import static org.jmpi.rma.RmaHeaderLayout.FLAG_STATUS;
import static org.jmpi.rma.RmaHeaderLayout.INLINE_LIMIT;
import static org.jmpi.rma.RmaHeaderLayout.KIND;
import static org.jmpi.rma.RmaHeaderLayout.KIND_ACCUMULATE;
import static org.jmpi.rma.RmaHeaderLayout.KIND_COMPARE_AND_SWAP;
import static org.jmpi.rma.RmaHeaderLayout.KIND_GET;
import static org.jmpi.rma.RmaHeaderLayout.KIND_GET_ACCUMULATE;
import static org.jmpi.rma.RmaHeaderLayout.KIND_LOCK;
import static org.jmpi.rma.RmaHeaderLayout.KIND_PUT;
import static org.jmpi.rma.RmaHeaderLayout.KIND_UNLOCK;
import static org.jmpi.rma.RmaHeaderLayout.OFFSET;
import static org.jmpi.rma.RmaHeaderLayout.OP;
import static org.jmpi.rma.RmaHeaderLayout.REPLY_TAG;
import static org.jmpi.rma.RmaHeaderLayout.RUNS;
import static org.jmpi.rma.RmaHeaderLayout.RUN_BYTES;
import static org.jmpi.rma.RmaHeaderLayout.TAG_COMPLETE;
import static org.jmpi.rma.RmaHeaderLayout.TAG_DATA;
import static org.jmpi.rma.RmaHeaderLayout.TAG_POST;
import static org.jmpi.rma.RmaHeaderLayout.TAG_REQUEST;
import static org.jmpi.rma.RmaHeaderLayout.TAG_RUNS;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jmpi.coll.Collectives;
import org.jmpi.coll.Schedule;
import org.jmpi.datatype.BaseKind;
import org.jmpi.datatype.MessageData;
import org.jmpi.datatype.PlanData;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.op.ElementKind;
import org.jmpi.op.PredefinedOp;
import org.jmpi.op.PredefinedReduction;
import org.jmpi.pt2pt.Engine;
import org.jmpi.pt2pt.RecvRequest;
import org.jmpi.pt2pt.SendMode;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;
import org.jmpi.runtime.Progress;
import org.jmpi.runtime.RequestImpl;
import org.jmpi.shared.NativeMemory;

/**
 * The runtime side of one MPI window at one rank: its memory, every rank's window size and displacement unit, the
 * origin's synchronisation state, and the target's request server.
 *
 * <h2>How an operation moves</h2>
 * The origin checks the epoch, the rank and (when it knows the target's size) the range, posts the receive of the
 * answer on a fresh even reply tag, then sends a request (header, the target layout as byte runs, and the data, all in
 * one message up to {@link RmaHeaderLayout#INLINE_LIMIT}; beyond it the runs and the data follow as messages of their
 * own, and the target receives a put's data straight into its window through the layout). The target serves requests
 * one at a time, in arrival order, from one posted receive whose completion callback runs the request and then posts
 * the receive again. So operations are applied in order, accumulates are atomic per element against each other, and
 * the answer (a status, or the data of a get) means the operation is complete at the target.
 *
 * <h2>Synchronisation</h2>
 * Flushing waits for the answers of the operations issued so far; fence flushes then runs a barrier on the window's
 * communicator; {@code complete} flushes and sends COMPLETE to each target of the access group, {@code wait} receives
 * them; locks are requests served by the target's lock table (shared or exclusive, waiting requests queued in order
 * and granted as the holders unlock). A lock with {@code MPI_MODE_NOCHECK} sends nothing.
 *
 * <p>Threading: the origin state (epochs, locks) is guarded by this object's monitor and never held while sending. The
 * server's steps run one at a time ({@link #pump}): a completion callback queues its step and whichever thread finds
 * the server idle runs the queue, so a step that completes another receive at once never recurses. The lock table and
 * the attached regions are only touched by server steps or under their own monitors.
 */
public final class Window {
    /** Values of MPI_WIN_CREATE_FLAVOR as MPI numbers them. */
    public static final int FLAVOR_CREATE = 1;
    public static final int FLAVOR_ALLOCATE = 2;
    public static final int FLAVOR_DYNAMIC = 3;
    public static final int FLAVOR_SHARED = 4;
    /** MPI_WIN_MODEL: every jmpi window is unified (one copy of the memory, which the server reads and writes). */
    public static final int MODEL_UNIFIED = 2;

    public static final int LOCK_EXCLUSIVE = 1;
    public static final int LOCK_SHARED = 2;
    public static final int MODE_NOCHECK = 1;
    public static final int MODE_NOPRECEDE = 2;
    public static final int MODE_NOPUT = 4;
    public static final int MODE_NOSTORE = 8;
    public static final int MODE_NOSUCCEED = 16;
    private static final int ALL_MODES = 31;

    private final Communicator comm;
    private final Engine engine;
    private final Progress progress;
    private final int ctx;
    private final int me;
    private final int flavor;
    /** This rank's window memory (null for a dynamic window). */
    private final MemorySegment memory;
    /** Window size in bytes and displacement unit of every rank (sizes -1 for a dynamic window). */
    private final long[] sizes;
    private final int[] dispUnits;
    private final boolean passiveHelper;
    /** Made with the info hint {@code no_locks=true}: lock and lockAll are refused. */
    private final boolean noLocks;

    // ----------------------------------------------------------------------------------- origin state (this)
    private boolean fenceOpen;
    private boolean opsSinceFence;
    private boolean[] accessGroup;
    private int[] accessRanks;
    private int[] exposureRanks;
    private RecvRequest[] completes;
    private final int[] lockType;
    private final boolean[] lockNoCheck;
    private boolean lockAll;
    private boolean lockAllNoCheck;
    private int locksHeld;
    private boolean freed;
    private final java.util.List<ConcurrentLinkedQueue<OpRequest>> pending;
    private final AtomicInteger replySeq = new AtomicInteger();

    // ------------------------------------------------------------------------------------ target state
    private final MemorySegment requestBuffer = NativeMemory.allocate(INLINE_LIMIT);
    private volatile RecvRequest posted;
    private volatile boolean closing;
    private final ConcurrentLinkedQueue<Runnable> steps = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean pumping = new AtomicBoolean();
    /** Lock table: exclusive holder (-1 none), shared holders, waiting requests in arrival order. */
    private int exclusiveHolder = -1;
    private int sharedHolders;
    private final ArrayDeque<int[]> lockQueue = new ArrayDeque<>();
    /** Dynamic windows: attached regions by window address (guarded by the map). */
    private final TreeMap<Long, MemorySegment> regions = new TreeMap<>();

    private Window(Communicator comm, int flavor, MemorySegment memory, long[] sizes, int[] dispUnits,
            boolean noLocks) {
        JmpiRuntime rt = JmpiRuntime.get();
        this.comm = comm;
        this.engine = rt.engine();
        this.progress = rt.progress();
        this.ctx = comm.context();
        this.me = comm.rank();
        this.flavor = flavor;
        this.memory = memory;
        this.sizes = sizes;
        this.dispUnits = dispUnits;
        int p = comm.size();
        this.lockType = new int[p];
        this.lockNoCheck = new boolean[p];
        java.util.List<ConcurrentLinkedQueue<OpRequest>> queues = new java.util.ArrayList<>(p);
        for (int i = 0; i < p; i++) {
            queues.add(new ConcurrentLinkedQueue<>());
        }
        this.pending = queues;
        this.noLocks = noLocks;
        this.passiveHelper = !noLocks && p > 1 && progress.hasTransport();
        if (passiveHelper) {
            if (PassiveProgress.acquire(progress, rt.rank())) {
                rt.onFinalize(PassiveProgress::shutdown);
            }
        }
    }

    /**
     * Creates a window (collective over {@code comm}, a communicator private to the window). {@code memory} is this
     * rank's window memory of {@code sizeBytes} bytes (null for a dynamic window and for a shared one, whose memory
     * this call maps: one segment for all ranks, each part after the previous one, or each starting on a page of its
     * own when {@code noncontiguous}).
     */
    public static Window create(Communicator comm, int flavor, MemorySegment memory, long sizeBytes, int dispUnit,
            boolean noLocks, boolean noncontiguous) {
        int p = comm.size();
        boolean wantsShared = flavor == FLAVOR_SHARED || flavor == FLAVOR_ALLOCATE && memory == null;
        MemorySegment all = allgatherLongs(comm, flavor == FLAVOR_DYNAMIC ? -1 : sizeBytes, dispUnit,
                wantsShared ? 1 : 0);
        long[] sizes = new long[p];
        int[] units = new int[p];
        boolean allWantShared = true;
        for (int i = 0; i < p; i++) {
            sizes[i] = all.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, 3L * i);
            units[i] = (int) all.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, 3L * i + 1);
            allWantShared &= all.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, 3L * i + 2) != 0;
        }
        SharedMemory shared = null;
        if (flavor == FLAVOR_SHARED || flavor == FLAVOR_ALLOCATE && allWantShared && SharedMemory.allLocal(comm)) {
            // allocate-flavour windows of ranks on one host get shared memory as well, as in MPICH: origins then
            // work on the target's memory themselves
            shared = SharedMemory.map(comm, sizes, noncontiguous);
            memory = shared.part(comm.rank());
        } else if (flavor == FLAVOR_ALLOCATE && memory == null) {
            memory = NativeMemory.allocate(sizeBytes);
        }
        Window w = new Window(comm, flavor, memory, sizes, units, noLocks);
        w.shared = shared;
        if (shared == null && flavor != FLAVOR_DYNAMIC && p > 1) {
            w.addresses = exchangeAddresses(comm, memory);
        }
        w.postRequestReceive();
        return w;
    }

    /** Every rank's native window address (0 where the memory is not native), gathered from all ranks. */
    private static long[] exchangeAddresses(Communicator comm, MemorySegment memory) {
        return allgatherLongs(comm, memory != null && memory.isNative() ? memory.address() : 0)
                .toArray(java.lang.foreign.ValueLayout.JAVA_LONG);
    }

    /** Gathers {@code values} from every rank of {@code comm}: rank r's values at longs {@code [r * n, (r + 1) * n)}. */
    private static MemorySegment allgatherLongs(Communicator comm, long... values) {
        int block = 8 * values.length;
        MemorySegment mine = NativeMemory.allocate(block);
        MemorySegment.copy(values, 0, mine, java.lang.foreign.ValueLayout.JAVA_LONG, 0, values.length);
        MemorySegment all = NativeMemory.allocate((long) block * comm.size());
        Schedule s = Collectives.schedule(comm, "MPI_Win_create");
        Collectives.allgather(s, new MessageData.SegmentData(mine), new MessageData.SegmentData(all), block);
        s.start();
        Collectives.await(s);
        if (s.error() != 0) {
            throw new MpiError(s.error(), s.errorMessage());
        }
        return all;
    }

    /**
     * Native addresses of every rank's window memory, for the single-copy route of put and get (see {@link #direct});
     * null for shared and dynamic windows and for a window of one rank.
     */
    private long[] addresses;

    /**
     * For a shared window, and an allocate-flavour window whose ranks share a host, the mapped segment every rank
     * sees (operations then run at the origin, see {@link #startShared}); else null.
     */
    private SharedMemory shared;

    /** Rank {@code r}'s part of a shared window. */
    MemorySegment sharedPart(int r) {
        if (shared == null || flavor != FLAVOR_SHARED) {
            throw new MpiError(ErrorClass.ERR_RMA_FLAVOR, "the window was not made with FLAVOR_SHARED");
        }
        checkRank(r);
        return shared.part(r);
    }

    /**
     * An operation on a window in shared memory, done by the origin itself: put and get copy between the origin's
     * buffer and the target's part; accumulate-class operations on int and long elements are one CPU atomic per element
     * ({@link SharedAtomics}: getAndAdd, compareAndExchange, ...); the others hold the target part's lock word (a CPU
     * compare-and-set in the shared segment, see {@link SharedMemory#lock}) while they read, combine and write. Either
     * way they are atomic against each other whichever rank or thread issues them. Complete on return.
     */
    private OpRequest startShared(int kind, int target, long offset, int targetCount, TypeDescriptor tt,
            MessageData out, MessageData in, int op, int elementKind) {
        MemorySegment part = shared.part(target);
        MessageData targetData = PlanData.over(part, offset, tt, targetCount);
        long n = targetData.bytes();
        switch (kind) {
            case KIND_PUT -> copy(out, targetData, n);
            case KIND_GET -> copy(targetData, in, n);
            default -> {
                MemorySegment payload = null;
                if (out != null && n > 0) {
                    payload = scratch(out.bytes());
                    out.packTo(0, payload, 0, out.bytes());
                }
                MemorySegment old = in == null ? null : scratch(n);
                boolean cas = kind == KIND_COMPARE_AND_SWAP;
                ElementKind ek = cas ? SharedAtomics.kindOf(tt) : ElementKind.values()[elementKind];
                long[] runs = tt.isContiguous() && tt.lb() == 0 ? null : runsOf(tt, targetCount);
                if (n > 0 && SharedAtomics.apply(part, offset, runs, n, ek, cas ? null : PredefinedOp.values()[op],
                        cas, payload, old)) {
                    if (in != null) {
                        in.unpackFrom(0, old, 0, n);
                    }
                    return OpRequest.done(progress);
                }
                shared.lock(target);
                try {
                    if (kind == KIND_COMPARE_AND_SWAP) {
                        targetData.packTo(0, old, 0, n);
                        if (old.mismatch(payload.asSlice(n, n)) < 0) {
                            targetData.unpackFrom(0, payload, 0, n);
                        }
                    } else if (n > 0) {
                        accumulate(targetData, payload, n, op, elementKind, old);
                    }
                } finally {
                    shared.unlock(target);
                }
                if (in != null && n > 0) {
                    in.unpackFrom(0, old, 0, n);
                }
            }
        }
        return OpRequest.done(progress);
    }

    /**
     * Message memory of {@code bytes} bytes on the Java heap, 8-byte aligned (the headers are read and written
     * unaligned anyway). Headers and small answers are short-lived: an automatic arena's native memory cost a malloc,
     * a free and a Cleaner registration each, which the garbage collector then processed, on every operation.
     */
    private static MemorySegment heap(long bytes) {
        return MemorySegment.ofArray(new long[(int) ((bytes + 7) >>> 3)]).asSlice(0, bytes);
    }

    /** Fresh memory for an operation's packed payload or old values: on the heap when small, else native. */
    private static MemorySegment scratch(long bytes) {
        return bytes <= INLINE_LIMIT ? heap(bytes) : NativeMemory.allocate(bytes);
    }

    private static void copy(MessageData from, MessageData to, long n) {
        if (n == 0) {
            return;
        }
        MemorySegment a = from.contiguous();
        MemorySegment b = to.contiguous();
        if (a != null && b != null) {
            MemorySegment.copy(a, 0, b, 0, n);
        } else if (b != null) {
            from.packTo(0, b, 0, n);
        } else if (a != null) {
            to.unpackFrom(0, a, 0, n);
        } else {
            MemorySegment tmp = NativeMemory.allocate(n);
            from.packTo(0, tmp, 0, n);
            to.unpackFrom(0, tmp, 0, n);
        }
    }

    public Communicator communicator() {
        return comm;
    }

    public int flavor() {
        return flavor;
    }

    public int model() {
        return MODEL_UNIFIED;
    }

    /** This rank's window memory (null for a dynamic window). */
    public MemorySegment memory() {
        return memory;
    }

    /** Window size in bytes of rank {@code r} (-1 for a dynamic window). */
    public long size(int r) {
        return sizes[r];
    }

    public int dispUnit(int r) {
        return dispUnits[r];
    }

    /** Whether a background thread serves passive-target requests for this window. */
    public boolean hasPassiveHelper() {
        return passiveHelper;
    }

    // ====================================================================================== operations (origin)

    /** {@code MPI_Put}: {@code origin} (packed bytes equal to the target's) to {@code targetCount} x type. */
    public RequestImpl put(MessageData origin, int target, long disp, int targetCount, TypeDescriptor targetType) {
        return start(KIND_PUT, target, disp, targetCount, targetType, origin, null, -1, -1);
    }

    public RequestImpl get(MessageData result, int target, long disp, int targetCount, TypeDescriptor targetType) {
        return start(KIND_GET, target, disp, targetCount, targetType, null, result, -1, -1);
    }

    public RequestImpl accumulate(MessageData origin, int target, long disp, int targetCount,
            TypeDescriptor targetType, PredefinedOp op, ElementKind kind) {
        return start(KIND_ACCUMULATE, target, disp, targetCount, targetType, origin, null, op.ordinal(),
                kind.ordinal());
    }

    /** {@code origin} is ignored (may be null) for NO_OP. */
    public RequestImpl getAccumulate(MessageData origin, MessageData result, int target, long disp, int targetCount,
            TypeDescriptor targetType, PredefinedOp op, ElementKind kind) {
        return start(KIND_GET_ACCUMULATE, target, disp, targetCount, targetType,
                op == PredefinedOp.NO_OP ? null : origin, result, op.ordinal(), kind.ordinal());
    }

    /** {@code swap} holds the new value followed by the compare value (packed, one element each). */
    public RequestImpl compareAndSwap(MessageData swap, MessageData result, int target, long disp,
            TypeDescriptor type) {
        return start(KIND_COMPARE_AND_SWAP, target, disp, 1, type, swap, result, -1, -1);
    }

    /** Waits for an operation started by a blocking call and raises its error there (and not again at a flush). */
    public void awaitOperation(RequestImpl r) {
        if (r instanceof OpRequest op) {
            op.reported = true;
        }
        progress.await(r);
        if (r.error() != 0) {
            throw new MpiError(r.error(), r.errorMessage());
        }
    }

    private OpRequest start(int kind, int target, long disp, int targetCount, TypeDescriptor tt, MessageData out,
            MessageData in, int op, int elementKind) {
        checkRank(target);
        checkAccess(target);
        long dataBytes = Math.multiplyExact(tt.size(), (long) targetCount);
        long offset;
        boolean dynamic = flavor == FLAVOR_DYNAMIC;
        if (dynamic) {
            offset = disp;
        } else {
            offset = Math.multiplyExact(disp, (long) dispUnits[target]);
            long[] span = tt.span(targetCount);
            if (dataBytes > 0 && (offset + span[0] < 0 || offset + span[1] > sizes[target])) {
                throw new MpiError(ErrorClass.ERR_RMA_RANGE, "the access reaches bytes [" + (offset + span[0]) + ", "
                        + (offset + span[1]) + ") of rank " + target + "'s window, which holds " + sizes[target]
                        + " bytes");
            }
        }
        if (shared != null) {
            synchronized (this) {
                opsSinceFence = true;
            }
            return startShared(kind, target, offset, targetCount, tt, out, in, op, elementKind);
        }
        if (addresses != null && (kind == KIND_PUT || kind == KIND_GET) && dataBytes > 0 && tt.isContiguous()
                && tt.lb() == 0) {
            OpRequest done = direct(kind, target, offset, dataBytes, kind == KIND_PUT ? out : in);
            if (done != null) {
                synchronized (this) {
                    opsSinceFence = true;
                }
                return done;
            }
        }
        long[] runs = tt.isContiguous() && tt.lb() == 0 || dataBytes == 0 ? null : runsOf(tt, targetCount);
        boolean wantsStatus = dynamic && in != null;
        OpRequest r = new OpRequest(progress, (in != null ? 1 : 0) + (in == null || wantsStatus ? 1 : 0));
        int tag = nextReplyTag();
        int worldTarget = comm.worldRank(target);
        if (in != null) {
            RecvRequest data = engine.irecv(in, ctx, target, tag);
            r.setDataReceive(data);
            OpRequest.onDone(data, () -> r.partDone(data.cancelled() ? 0 : data.error(), data.errorMessage()));
        }
        if (in == null || wantsStatus) {
            expectStatus(r, target, in == null ? tag : tag + 1);
        }
        synchronized (this) {
            opsSinceFence = true;
        }
        ConcurrentLinkedQueue<OpRequest> q = pending.get(target);
        // drop answered operations from the head, so that a long epoch without flushes does not keep them all
        for (OpRequest h; (h = q.peek()) != null && h.isDone() && (h.error() == 0 || h.reported); ) {
            q.remove(h);
        }
        q.add(r);
        long runBytes = runs == null ? 0 : (long) runs.length / 2 * RUN_BYTES;
        long payload = out == null ? 0 : out.bytes();
        boolean inlineRuns = BYTES + runBytes <= INLINE_LIMIT;
        boolean inlineData = inlineRuns && BYTES + runBytes + payload <= INLINE_LIMIT;
        MemorySegment msg = heap(BYTES + (inlineRuns ? runBytes : 0) + (inlineData ? payload : 0));
        RmaHeaderLayout.putInt(msg, KIND, kind);
        RmaHeaderLayout.putInt(msg, REPLY_TAG, tag);
        RmaHeaderLayout.putLong(msg, OFFSET, offset);
        RmaHeaderLayout.putLong(msg, DATA_BYTES, dataBytes);
        RmaHeaderLayout.putInt(msg, RUNS, runs == null ? 0 : runs.length / 2);
        RmaHeaderLayout.putInt(msg, FLAGS, (inlineRuns ? FLAG_INLINE_RUNS : 0) | (inlineData ? FLAG_INLINE_DATA : 0)
                | (wantsStatus ? FLAG_STATUS : 0));
        RmaHeaderLayout.putInt(msg, OP, op);
        RmaHeaderLayout.putInt(msg, ELEMENT_KIND, elementKind);
        RmaHeaderLayout.putInt(msg, COUNT, (int) Math.min(Integer.MAX_VALUE, payload));
        MemorySegment runSegment = runs == null ? null : MemorySegment.ofArray(runs);
        if (inlineRuns && runs != null) {
            MemorySegment.copy(runSegment, 0, msg, BYTES, runBytes);
        }
        if (inlineData && payload > 0) {
            out.packTo(0, msg, BYTES + runBytes, payload);
        }
        engine.isend(new MessageData.SegmentData(msg), worldTarget, ctx, me, TAG_REQUEST, SendMode.STANDARD);
        if (!inlineRuns) {
            engine.isend(new MessageData.SegmentData(runSegment), worldTarget, ctx, me, TAG_RUNS, SendMode.STANDARD);
        }
        if (!inlineData && payload > 0) {
            engine.isend(out, worldTarget, ctx, me, TAG_DATA, SendMode.STANDARD);
        }
        return r;
    }

    /**
     * A put or get of {@code n} contiguous bytes at {@code offset} in {@code target}'s window, done by this process
     * alone with one copy into or out of the target's memory ({@code process_vm_writev}/{@code readv}) when the target
     * runs on this host as another process and its window memory is native: complete on return, no message, no help
     * from the target (as in the shared-memory route of allocate-flavour windows). Returns null when the route does
     * not apply or the kernel refused it; the caller then sends the operation to the target's server. Origin data that
     * is not contiguous native memory (a Java array, a derived type) goes through a per-thread native scratch.
     *
     * <p>Safe against the epochs' rules: lock returns only once the target granted it, start only once the targets
     * posted, and the target sees the data at its next synchronisation, which follows the copy (unified model).
     */
    private OpRequest direct(int kind, int target, long offset, long n, MessageData user) {
        long base = addresses[target];
        int peer = comm.worldRank(target);
        if (base == 0 || target == me || !engine.canAccessMemoryOf(peer)) {
            return null;
        }
        long at = base + offset;
        MemorySegment c = user.contiguous();
        boolean ok;
        if (c != null && c.isNative() && c.byteSize() >= n) {
            c = c.asSlice(0, n);
            ok = kind == KIND_PUT ? engine.writeMemoryOf(peer, c, at) : engine.readMemoryOf(peer, at, c);
        } else {
            MemorySegment tmp = nativeScratch(2, n);
            if (kind == KIND_PUT) {
                user.packTo(0, tmp, 0, n);
                ok = engine.writeMemoryOf(peer, tmp, at);
            } else {
                ok = engine.readMemoryOf(peer, at, tmp);
                if (ok) {
                    user.unpackFrom(0, tmp, 0, n);
                }
            }
        }
        if (!ok) {
            return null;
        }
        singleCopyOps.increment();
        return OpRequest.done(progress);
    }

    private final java.util.concurrent.atomic.LongAdder singleCopyOps = new java.util.concurrent.atomic.LongAdder();

    /** Operations this rank did on the window by single copy (see {@link #direct}), for tests and diagnostics. */
    public long singleCopyOperations() {
        return singleCopyOps.sum();
    }

    /** The byte runs of {@code count} elements of {@code type}, as (offset, length) pairs, adjacent runs merged. */
    private static long[] runsOf(TypeDescriptor type, int count) {
        long[][] acc = {new long[16]};
        int[] n = {0};
        type.visitRuns(count, (memOffset, streamOffset, length) -> {
            long[] a = acc[0];
            if (n[0] > 0 && a[n[0] - 2] + a[n[0] - 1] == memOffset) {
                a[n[0] - 1] += length;
                return;
            }
            if (n[0] + 2 > a.length) {
                a = java.util.Arrays.copyOf(a, a.length * 2);
                acc[0] = a;
            }
            a[n[0]] = memOffset;
            a[n[0] + 1] = length;
            n[0] += 2;
        });
        return java.util.Arrays.copyOf(acc[0], n[0]);
    }

    private int nextReplyTag() {
        return FIRST_REPLY_TAG + ((replySeq.getAndIncrement() << 1) & 0x3FFF_FFFE);
    }

    /** Posts the receive of a 4-byte status answer on {@code tag}; it counts one part of {@code r} down. */
    private void expectStatus(OpRequest r, int source, int tag) {
        byte[] status = new byte[4];
        RecvRequest s = engine.irecv(new MessageData.SegmentData(MemorySegment.ofArray(status)), ctx, source, tag);
        OpRequest.onDone(s, () -> {
            int err = s.error() != 0 ? s.error()
                    : RmaHeaderLayout.getInt(MemorySegment.ofArray(status), 0);
            r.partDone(err, err == 0 ? null : s.error() != 0 ? s.errorMessage() : describeStatus(err, source));
        });
    }

    private static String describeStatus(int err, int target) {
        return switch (err) {
            case ErrorClass.ERR_RMA_RANGE -> "the access is outside every region attached at rank " + target;
            default -> "rank " + target + " refused the operation (" + ErrorClass.name(err) + ")";
        };
    }

    private void checkRank(int target) {
        if (target < 0 || target >= comm.size()) {
            throw new MpiError(ErrorClass.ERR_RANK, "invalid rank " + target + " (window of " + comm.size()
                    + " ranks)");
        }
    }

    private synchronized void checkAccess(int target) {
        checkLive();
        if (lockAll || lockType[target] != 0 || fenceOpen || accessGroup != null && accessGroup[target]) {
            return;
        }
        throw new MpiError(ErrorClass.ERR_RMA_SYNC, "no access epoch to rank " + target
                + " is open on this window (call fence, start, lock or lockAll first)");
    }

    private void checkLive() {
        if (freed) {
            throw new MpiError(ErrorClass.ERR_WIN, "the window has been freed");
        }
    }

    // ===================================================================================== synchronisation

    /** Waits for the answers of every operation issued to {@code target}; throws the first error among them. */
    private void awaitPending(int target) {
        ConcurrentLinkedQueue<OpRequest> q = pending.get(target);
        MpiError first = null;
        for (OpRequest r; (r = q.peek()) != null; ) {
            progress.await(r);
            q.remove(r);
            if (r.error() != 0 && !r.reported && first == null) {
                first = new MpiError(r.error(), r.errorMessage());
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private void awaitAllPending() {
        MpiError first = null;
        for (int t = 0; t < pending.size(); t++) {
            try {
                awaitPending(t);
            } catch (MpiError e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    public void fence(int assertion) {
        checkAssert(assertion);
        synchronized (this) {
            checkLive();
            if (locksHeld > 0 || lockAll) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "fence inside a passive-target epoch (unlock first)");
            }
            if (accessRanks != null || exposureRanks != null) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "fence inside a start/complete or post/wait epoch");
            }
        }
        MpiError failed = null;
        try {
            awaitAllPending();
        } catch (MpiError e) {
            failed = e;
        }
        barrier("MPI_Win_fence");
        synchronized (this) {
            fenceOpen = (assertion & MODE_NOSUCCEED) == 0;
            opsSinceFence = false;
        }
        if (failed != null) {
            throw failed;
        }
    }

    private void barrier(String call) {
        Collectives.barrierNow(comm, call);
    }

    private static void checkAssert(int assertion) {
        if ((assertion & ~ALL_MODES) != 0) {
            throw new MpiError(ErrorClass.ERR_ASSERT, "invalid assertion " + assertion);
        }
    }

    /** {@code MPI_Win_post}: exposes this window to {@code origins} (window ranks). */
    public void post(int[] origins, int assertion) {
        checkAssert(assertion);
        synchronized (this) {
            checkLive();
            if (exposureRanks != null) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "post inside an exposure epoch (call wait first)");
            }
            checkNoFenceEpoch("post");
            for (int o : origins) {
                checkRank(o);
            }
            RecvRequest[] c = new RecvRequest[origins.length];
            for (int i = 0; i < origins.length; i++) {
                c[i] = engine.irecv(MessageData.EMPTY, ctx, origins[i], TAG_COMPLETE);
            }
            exposureRanks = origins.clone();
            completes = c;
            fenceOpen = false;
        }
        if ((assertion & MODE_NOCHECK) == 0) {
            for (int o : origins) {
                engine.isend(MessageData.EMPTY, comm.worldRank(o), ctx, me, TAG_POST, SendMode.STANDARD);
            }
        }
    }

    private void checkNoFenceEpoch(String call) {
        if (fenceOpen && opsSinceFence) {
            throw new MpiError(ErrorClass.ERR_RMA_SYNC, call + " inside a fence epoch with operations pending"
                    + " (end it with a fence)");
        }
    }

    /** {@code MPI_Win_start}: opens an access epoch to {@code targets}; waits for their posts. */
    public void start(int[] targets, int assertion) {
        checkAssert(assertion);
        synchronized (this) {
            checkLive();
            if (accessRanks != null) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "start inside an access epoch (call complete first)");
            }
            if (locksHeld > 0 || lockAll) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "start inside a passive-target epoch");
            }
            checkNoFenceEpoch("start");
            for (int t : targets) {
                checkRank(t);
            }
        }
        if ((assertion & MODE_NOCHECK) == 0) {
            RecvRequest[] posts = new RecvRequest[targets.length];
            for (int i = 0; i < targets.length; i++) {
                posts[i] = engine.irecv(MessageData.EMPTY, ctx, targets[i], TAG_POST);
            }
            for (RecvRequest r : posts) {
                progress.await(r);
            }
        }
        synchronized (this) {
            boolean[] g = new boolean[comm.size()];
            for (int t : targets) {
                g[t] = true;
            }
            accessGroup = g;
            accessRanks = targets.clone();
            fenceOpen = false;
        }
    }

    /** {@code MPI_Win_complete}: completes the operations of the access epoch at every target and ends it. */
    public void complete() {
        int[] targets;
        synchronized (this) {
            checkLive();
            if (accessRanks == null) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "complete without start");
            }
            targets = accessRanks;
        }
        MpiError failed = null;
        for (int t : targets) {
            try {
                awaitPending(t);
            } catch (MpiError e) {
                failed = failed == null ? e : failed;
            }
        }
        for (int t : targets) {
            engine.isend(MessageData.EMPTY, comm.worldRank(t), ctx, me, TAG_COMPLETE, SendMode.STANDARD);
        }
        synchronized (this) {
            accessRanks = null;
            accessGroup = null;
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** {@code MPI_Win_wait}: waits until every origin of the exposure epoch has called complete. */
    public void waitFor() {
        RecvRequest[] c;
        synchronized (this) {
            checkLive();
            if (exposureRanks == null) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "wait without post");
            }
            c = completes;
        }
        for (RecvRequest r : c) {
            progress.await(r);
        }
        synchronized (this) {
            exposureRanks = null;
            completes = null;
        }
    }

    /** {@code MPI_Win_test}: whether every origin has called complete (then the exposure epoch ends). */
    public boolean test() {
        synchronized (this) {
            checkLive();
            if (exposureRanks == null) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "test without post");
            }
        }
        progress.poll();
        synchronized (this) {
            for (RecvRequest r : completes) {
                if (!r.isDone()) {
                    return false;
                }
            }
            exposureRanks = null;
            completes = null;
            return true;
        }
    }

    /** Open MPI (osc/rdma) refuses the same way: the program promised not to lock this window. */
    private void checkLocksAllowed(String call) {
        if (noLocks) {
            throw new MpiError(ErrorClass.ERR_RMA_SYNC, call + " on a window created with info no_locks=true");
        }
    }

    public void lock(int type, int target, int assertion) {
        checkLocksAllowed("lock");
        checkAssert(assertion);
        if (type != LOCK_EXCLUSIVE && type != LOCK_SHARED) {
            throw new MpiError(ErrorClass.ERR_LOCKTYPE, "invalid lock type " + type
                    + " (use MPI.LOCK_SHARED or MPI.LOCK_EXCLUSIVE)");
        }
        checkRank(target);
        boolean noCheck = (assertion & MODE_NOCHECK) != 0;
        synchronized (this) {
            checkLive();
            if (lockAll) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "lock inside a lockAll epoch");
            }
            if (lockType[target] != 0) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "rank " + target + " is already locked by this rank");
            }
            if (accessRanks != null) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "lock inside a start/complete epoch");
            }
            checkNoFenceEpoch("lock");
            fenceOpen = false;
            lockType[target] = type;
            lockNoCheck[target] = noCheck;
            locksHeld++;
        }
        if (!noCheck) {
            try {
                awaitControl(control(KIND_LOCK, target, type));
            } catch (MpiError e) {
                synchronized (this) {
                    lockType[target] = 0;
                    locksHeld--;
                }
                throw e;
            }
        }
    }

    public void unlock(int target) {
        checkRank(target);
        boolean noCheck;
        synchronized (this) {
            checkLive();
            if (lockType[target] == 0) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "unlock of rank " + target + ", which this rank has not"
                        + " locked");
            }
            noCheck = lockNoCheck[target];
        }
        MpiError failed = null;
        try {
            awaitPending(target);
        } catch (MpiError e) {
            failed = e;
        }
        try {
            if (!noCheck) {
                awaitControl(control(KIND_UNLOCK, target, 0));
            }
        } catch (MpiError e) {
            failed = failed != null ? failed : e; // the target failed: the epoch ends here all the same
        }
        synchronized (this) {
            lockType[target] = 0;
            lockNoCheck[target] = false;
            locksHeld--;
        }
        if (failed != null) {
            throw failed;
        }
    }

    public void lockAll(int assertion) {
        checkLocksAllowed("lockAll");
        checkAssert(assertion);
        boolean noCheck = (assertion & MODE_NOCHECK) != 0;
        synchronized (this) {
            checkLive();
            if (lockAll || locksHeld > 0) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "lockAll inside a passive-target epoch");
            }
            if (accessRanks != null) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "lockAll inside a start/complete epoch");
            }
            checkNoFenceEpoch("lockAll");
            fenceOpen = false;
            lockAll = true;
            lockAllNoCheck = noCheck;
        }
        if (!noCheck) {
            OpRequest[] rs = new OpRequest[comm.size()];
            for (int t = 0; t < rs.length; t++) {
                rs[t] = control(KIND_LOCK, t, LOCK_SHARED);
            }
            for (OpRequest r : rs) {
                awaitControl(r);
            }
        }
    }

    public void unlockAll() {
        boolean noCheck;
        synchronized (this) {
            checkLive();
            if (!lockAll) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "unlockAll without lockAll");
            }
            noCheck = lockAllNoCheck;
        }
        MpiError failed = null;
        try {
            awaitAllPending();
        } catch (MpiError e) {
            failed = e;
        }
        if (!noCheck) {
            OpRequest[] rs = new OpRequest[comm.size()];
            for (int t = 0; t < rs.length; t++) {
                rs[t] = control(KIND_UNLOCK, t, 0);
            }
            for (OpRequest r : rs) {
                awaitControl(r);
            }
        }
        synchronized (this) {
            lockAll = false;
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** {@code MPI_Win_flush} and {@code MPI_Win_flush_local} (operations complete at the target either way). */
    public void flush(int target) {
        checkRank(target);
        synchronized (this) {
            checkLive();
            if (!lockAll && lockType[target] == 0) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "flush of rank " + target + " outside a passive-target"
                        + " epoch on it");
            }
        }
        awaitPending(target);
    }

    public void flushAll() {
        synchronized (this) {
            checkLive();
            if (!lockAll && locksHeld == 0) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "flushAll outside a passive-target epoch");
            }
        }
        awaitAllPending();
    }

    /** {@code MPI_Win_sync}: the window memory is unified, so a full memory fence is all it takes. */
    public void sync() {
        synchronized (this) {
            checkLive();
        }
        VarHandle.fullFence();
    }

    private OpRequest control(int kind, int target, int lockTypeValue) {
        OpRequest r = new OpRequest(progress, 1);
        int tag = nextReplyTag();
        expectStatus(r, target, tag);
        MemorySegment msg = heap(BYTES);
        RmaHeaderLayout.putInt(msg, KIND, kind);
        RmaHeaderLayout.putInt(msg, REPLY_TAG, tag);
        RmaHeaderLayout.putInt(msg, OP, lockTypeValue);
        RmaHeaderLayout.putInt(msg, ELEMENT_KIND, -1);
        engine.isend(new MessageData.SegmentData(msg), comm.worldRank(target), ctx, me, TAG_REQUEST,
                SendMode.STANDARD);
        return r;
    }

    private void awaitControl(OpRequest r) {
        progress.await(r);
        if (r.error() != 0) {
            throw new MpiError(r.error(), r.errorMessage());
        }
    }

    /**
     * {@code MPI_Win_free} (collective): refused inside an epoch; completes everything, then stops serving. The caller
     * releases the window's communicator.
     */
    public void free() {
        synchronized (this) {
            checkLive();
            if (locksHeld > 0 || lockAll || accessRanks != null || exposureRanks != null
                    || fenceOpen && opsSinceFence) {
                throw new MpiError(ErrorClass.ERR_RMA_SYNC, "the window is freed inside an epoch (end it first)");
            }
        }
        MpiError failed = null;
        try {
            awaitAllPending();
        } catch (MpiError e) {
            failed = e;
        }
        barrier("MPI_Win_free");
        synchronized (this) {
            freed = true;
        }
        closing = true;
        RecvRequest r = posted;
        if (r != null) {
            r.cancel();
        }
        if (shared != null) {
            shared.close();
        }
        if (passiveHelper) {
            PassiveProgress.release();
        }
        if (failed != null) {
            throw failed;
        }
    }

    public synchronized boolean isFreed() {
        return freed;
    }

    // ============================================================================================ dynamic

    /** Lowest window address handed to an attached region; 0 is never a valid address. */
    private static final long FIRST_ADDRESS = 4096;

    /**
     * {@code MPI_Win_attach}: makes {@code region} reachable at a window address, which it returns (the displacement
     * origins use, the role of MPI_Get_address). Addresses are handed out first-fit from 4096, 8-byte aligned, below
     * 2^31 so that the int displacements of the Java API reach them.
     */
    public long attach(MemorySegment region) {
        synchronized (this) {
            checkLive();
        }
        if (flavor != FLAVOR_DYNAMIC) {
            throw new MpiError(ErrorClass.ERR_RMA_FLAVOR, "attach needs a window made by Win(Info, Comm)");
        }
        synchronized (regions) {
            for (MemorySegment m : regions.values()) {
                if (overlap(m, region)) {
                    throw new MpiError(ErrorClass.ERR_RMA_ATTACH, "the region overlaps one already attached");
                }
            }
            long at = FIRST_ADDRESS;
            for (Map.Entry<Long, MemorySegment> e : regions.entrySet()) {
                if (at + region.byteSize() <= e.getKey()) {
                    break;
                }
                at = (e.getKey() + e.getValue().byteSize() + 7) & ~7L;
            }
            if (at + region.byteSize() > Integer.MAX_VALUE) {
                throw new MpiError(ErrorClass.ERR_RMA_ATTACH, "no room for " + region.byteSize()
                        + " more bytes in the window's 2 GiB address range");
            }
            regions.put(at, region);
            return at;
        }
    }

    /** {@code MPI_Win_detach}: the region that starts where {@code region} starts. */
    public void detach(MemorySegment region) {
        synchronized (this) {
            checkLive();
        }
        if (flavor != FLAVOR_DYNAMIC) {
            throw new MpiError(ErrorClass.ERR_RMA_FLAVOR, "detach needs a window made by Win(Info, Comm)");
        }
        synchronized (regions) {
            for (Map.Entry<Long, MemorySegment> e : regions.entrySet()) {
                if (sameStart(e.getValue(), region)) {
                    regions.remove(e.getKey());
                    return;
                }
            }
        }
        throw new MpiError(ErrorClass.ERR_RMA_ATTACH, "the buffer is not attached to this window");
    }

    /** The window address of the attached region that starts where {@code region} starts, or -1. */
    public long addressOf(MemorySegment region) {
        synchronized (regions) {
            for (Map.Entry<Long, MemorySegment> e : regions.entrySet()) {
                if (sameStart(e.getValue(), region)) {
                    return e.getKey();
                }
            }
        }
        return -1;
    }

    private static boolean sameStart(MemorySegment a, MemorySegment b) {
        return sameMemory(a, b) && a.address() == b.address();
    }

    private static boolean sameMemory(MemorySegment a, MemorySegment b) {
        if (a.isNative() != b.isNative()) {
            return false;
        }
        return a.isNative() || a.heapBase().orElse(null) == b.heapBase().orElse(null);
    }

    private static boolean overlap(MemorySegment a, MemorySegment b) {
        return sameMemory(a, b) && a.address() < b.address() + b.byteSize()
                && b.address() < a.address() + a.byteSize() && a.byteSize() > 0 && b.byteSize() > 0;
    }

    // ============================================================================================ target side

    private void postRequestReceive() {
        if (closing) {
            return;
        }
        RecvRequest r = engine.irecv(new MessageData.SegmentData(requestBuffer), ctx, Engine.ANY, TAG_REQUEST);
        posted = r;
        OpRequest.onDone(r, () -> step(() -> onRequest(r)));
    }

    /** Queues a server step and runs the queue unless another thread is running it. */
    private void step(Runnable s) {
        steps.add(s);
        pump();
    }

    private void pump() {
        while (true) {
            if (!pumping.compareAndSet(false, true)) {
                return;
            }
            try {
                for (Runnable s; (s = steps.poll()) != null; ) {
                    try {
                        s.run();
                    } catch (RuntimeException e) {
                        // a broken request must not stop the server; its origin gets no answer and reports a hang
                        // in its own wait, which the job's timeout reports
                        System.err.println("jmpi: one-sided request failed at rank " + me + ": " + e);
                    }
                }
            } finally {
                pumping.set(false);
            }
            if (steps.isEmpty()) {
                return;
            }
        }
    }

    /** A request being served: the header fields and what has arrived of its runs and data. */
    private static final class Incoming {
        int source;
        int kind;
        int tag;
        long offset;
        long dataBytes;
        int runCount;
        int flags;
        int op;
        int elementKind;
        long payloadBytes;
        long[] runs;
        MemorySegment payload;
        boolean delivered;
        int error;
    }

    private void onRequest(RecvRequest r) {
        if (r.cancelled() || closing) {
            return;
        }
        if (r.error() != 0) {
            System.err.println("jmpi: malformed one-sided request at rank " + me + ": " + r.errorMessage());
            postRequestReceive();
            return;
        }
        MemorySegment h = requestBuffer;
        Incoming in = new Incoming();
        in.source = r.source();
        in.kind = RmaHeaderLayout.getInt(h, KIND);
        in.tag = RmaHeaderLayout.getInt(h, REPLY_TAG);
        in.offset = RmaHeaderLayout.getLong(h, OFFSET);
        in.dataBytes = RmaHeaderLayout.getLong(h, DATA_BYTES);
        in.runCount = RmaHeaderLayout.getInt(h, RUNS);
        in.flags = RmaHeaderLayout.getInt(h, FLAGS);
        in.op = RmaHeaderLayout.getInt(h, OP);
        in.elementKind = RmaHeaderLayout.getInt(h, ELEMENT_KIND);
        in.payloadBytes = switch (in.kind) {
            case KIND_PUT, KIND_ACCUMULATE -> in.dataBytes;
            case KIND_GET_ACCUMULATE -> in.op == PredefinedOp.NO_OP.ordinal() ? 0 : in.dataBytes;
            case KIND_COMPARE_AND_SWAP -> 2 * in.dataBytes;
            default -> 0;
        };
        if (in.kind == KIND_LOCK) {
            serveLock(in.source, in.op, in.tag);
            postRequestReceive();
            return;
        }
        if (in.kind == KIND_UNLOCK) {
            serveUnlock(in.source, in.tag);
            postRequestReceive();
            return;
        }
        long at = BYTES;
        if (in.runCount > 0 && (in.flags & FLAG_INLINE_RUNS) != 0) {
            in.runs = new long[in.runCount * 2];
            MemorySegment.copy(h, at, MemorySegment.ofArray(in.runs), 0, (long) in.runCount * RUN_BYTES);
            at += (long) in.runCount * RUN_BYTES;
        }
        if (in.payloadBytes > 0 && (in.flags & FLAG_INLINE_DATA) != 0) {
            in.payload = h.asSlice(at, in.payloadBytes); // used before the receive is posted again
        }
        advance(in);
    }

    /** Receives what is still missing of a request (runs, then data), then executes it. */
    private void advance(Incoming in) {
        if (in.runCount > 0 && in.runs == null) {
            long[] runs = new long[in.runCount * 2];
            RecvRequest rr = engine.irecv(new MessageData.SegmentData(MemorySegment.ofArray(runs)), ctx, in.source,
                    TAG_RUNS);
            OpRequest.onDone(rr, () -> step(() -> {
                in.runs = runs;
                advance(in);
            }));
            return;
        }
        if (in.payloadBytes > 0 && in.payload == null && !in.delivered) {
            MessageData into;
            MessageData target = in.kind == KIND_PUT ? targetData(in) : null;
            if (target != null) {
                into = target; // a put lands straight in the window
            } else {
                in.payload = NativeMemory.allocate(in.payloadBytes);
                into = new MessageData.SegmentData(in.payload);
            }
            RecvRequest rr = engine.irecv(into, ctx, in.source, TAG_DATA);
            OpRequest.onDone(rr, () -> step(() -> {
                in.delivered = target != null;
                execute(in);
                postRequestReceive();
            }));
            return;
        }
        execute(in);
        postRequestReceive();
    }

    /** The target memory a request addresses, or null (with {@code in.error} set) when it is out of range. */
    private MessageData targetData(Incoming in) {
        long lo = 0;
        long hi = in.dataBytes;
        TypeDescriptor layout = null;
        if (in.runs != null) {
            lo = Long.MAX_VALUE;
            hi = Long.MIN_VALUE;
            long[] offsets = new long[in.runCount];
            long[] lengths = new long[in.runCount];
            for (int i = 0; i < in.runCount; i++) {
                offsets[i] = in.runs[2 * i];
                lengths[i] = in.runs[2 * i + 1];
                lo = Math.min(lo, offsets[i]);
                hi = Math.max(hi, offsets[i] + lengths[i]);
            }
            layout = new TypeDescriptor(BaseKind.BYTE, offsets, lengths, lo, hi - lo);
        }
        MemorySegment base;
        long origin;
        if (flavor == FLAVOR_DYNAMIC) {
            base = null;
            origin = 0;
            synchronized (regions) {
                Map.Entry<Long, MemorySegment> e = regions.floorEntry(in.offset + lo);
                if (e != null && in.offset + lo >= e.getKey()
                        && in.offset + hi <= e.getKey() + e.getValue().byteSize()) {
                    base = e.getValue();
                    origin = in.offset - e.getKey();
                }
            }
        } else {
            base = memory;
            origin = in.offset;
            if (origin + lo < 0 || origin + hi > sizes[me]) {
                base = null;
            }
        }
        if (base == null) {
            in.error = ErrorClass.ERR_RMA_RANGE;
            return null;
        }
        if (layout == null) {
            return new MessageData.SegmentData(base.asSlice(origin, in.dataBytes));
        }
        return PlanData.over(base, origin, layout, 1);
    }

    private void execute(Incoming in) {
        MessageData target = in.dataBytes == 0 ? MessageData.EMPTY : targetData(in);
        if (target == null) {
            if (in.kind == KIND_PUT || in.kind == KIND_ACCUMULATE) {
                sendStatus(in.source, in.tag, in.error);
            } else if ((in.flags & FLAG_STATUS) != 0) {
                sendStatus(in.source, in.tag + 1, in.error);
            } else {
                // the origin checked the range; should it disagree, answer with no data rather than not at all
                engine.isend(MessageData.EMPTY, comm.worldRank(in.source), ctx, me, in.tag, SendMode.STANDARD);
            }
            return;
        }
        long n = in.dataBytes;
        switch (in.kind) {
            case KIND_PUT -> {
                if (!in.delivered && n > 0) {
                    target.unpackFrom(0, in.payload, 0, n);
                }
                sendStatus(in.source, in.tag, 0);
            }
            case KIND_GET -> {
                engine.isend(target, comm.worldRank(in.source), ctx, me, in.tag, SendMode.STANDARD);
                answerStatus(in);
            }
            case KIND_ACCUMULATE -> {
                if (n > 0) {
                    accumulate(target, in.payload, n, in.op, in.elementKind, null);
                }
                sendStatus(in.source, in.tag, 0);
            }
            case KIND_GET_ACCUMULATE -> {
                MemorySegment old = scratch(n);
                accumulate(target, in.payload, n, in.op, in.elementKind, old);
                engine.isend(new MessageData.SegmentData(old), comm.worldRank(in.source), ctx, me, in.tag,
                        SendMode.STANDARD);
                answerStatus(in);
            }
            case KIND_COMPARE_AND_SWAP -> {
                MemorySegment old = scratch(n);
                target.packTo(0, old, 0, n);
                if (old.mismatch(in.payload.asSlice(n, n)) < 0) {
                    target.unpackFrom(0, in.payload, 0, n);
                }
                engine.isend(new MessageData.SegmentData(old), comm.worldRank(in.source), ctx, me, in.tag,
                        SendMode.STANDARD);
                answerStatus(in);
            }
            default -> System.err.println("jmpi: unknown one-sided request kind " + in.kind + " at rank " + me);
        }
    }

    private void answerStatus(Incoming in) {
        if ((in.flags & FLAG_STATUS) != 0) {
            sendStatus(in.source, in.tag + 1, 0);
        }
    }

    /**
     * Applies {@code op} element by element: {@code target = payload op target}; the old contents go to {@code old}
     * when it is not null. The server runs one request at a time, so this is atomic against other accumulates.
     */
    private static void accumulate(MessageData target, MemorySegment payload, long n, int opOrdinal, int kindOrdinal,
            MemorySegment old) {
        PredefinedOp op = PredefinedOp.values()[opOrdinal];
        if (op == PredefinedOp.NO_OP) {
            if (old != null) {
                target.packTo(0, old, 0, n);
            }
            return;
        }
        if (op == PredefinedOp.REPLACE) {
            if (old != null) {
                target.packTo(0, old, 0, n);
            }
            target.unpackFrom(0, payload, 0, n);
            return;
        }
        ElementKind kind = ElementKind.values()[kindOrdinal];
        MemorySegment work = nativeScratch(0, n);
        target.packTo(0, work, 0, n);
        if (old != null) {
            MemorySegment.copy(work, 0, old, 0, n);
        }
        MemorySegment in = payload;
        if (!payload.isNative() || payload.address() % 16 != 0) {
            in = nativeScratch(1, n);
            MemorySegment.copy(payload, 0, in, 0, n);
        }
        PredefinedReduction.of(op, kind, 1, kind.mpiName).applyNative(in, work, 0, n / kind.packedBytes);
        target.unpackFrom(0, work, 0, n);
    }

    /**
     * The calling thread's native scratch memory, 16-byte aligned, reused: slots 0 and 1 for {@link #accumulate}, 2 for
     * {@link #direct}.
     */
    private static final ThreadLocal<MemorySegment[]> ACCUMULATE_SCRATCH =
            ThreadLocal.withInitial(() -> new MemorySegment[3]);

    /** Above this, a caller takes fresh memory rather than keep a thread's scratch that large. */
    private static final long SCRATCH_LIMIT = 1 << 20;

    private static MemorySegment nativeScratch(int slot, long n) {
        if (n > SCRATCH_LIMIT) {
            return NativeMemory.allocate(n);
        }
        MemorySegment[] cache = ACCUMULATE_SCRATCH.get();
        MemorySegment m = cache[slot];
        if (m == null || m.byteSize() < n) {
            m = NativeMemory.allocate(Math.max(n, 256));
            cache[slot] = m;
        }
        return m.asSlice(0, n);
    }

    private void sendStatus(int source, int tag, int errorClass) {
        MemorySegment s = MemorySegment.ofArray(new byte[4]);
        RmaHeaderLayout.putInt(s, 0, errorClass);
        engine.isend(new MessageData.SegmentData(s), comm.worldRank(source), ctx, me, tag, SendMode.STANDARD);
    }

    private void serveLock(int source, int type, int tag) {
        boolean grant;
        synchronized (lockQueue) {
            grant = lockQueue.isEmpty() && compatible(type);
            if (grant) {
                take(source, type);
            } else {
                lockQueue.add(new int[] {source, type, tag});
            }
        }
        if (grant) {
            sendStatus(source, tag, 0);
        }
    }

    private boolean compatible(int type) {
        return exclusiveHolder < 0 && (type == LOCK_SHARED || sharedHolders == 0);
    }

    private void take(int source, int type) {
        if (type == LOCK_EXCLUSIVE) {
            exclusiveHolder = source;
        } else {
            sharedHolders++;
        }
    }

    private void serveUnlock(int source, int tag) {
        java.util.List<int[]> granted = new java.util.ArrayList<>();
        synchronized (lockQueue) {
            if (exclusiveHolder == source) {
                exclusiveHolder = -1;
            } else if (sharedHolders > 0) {
                sharedHolders--;
            }
            while (!lockQueue.isEmpty() && compatible(lockQueue.peek()[1])) {
                int[] w = lockQueue.poll();
                take(w[0], w[1]);
                granted.add(w);
            }
        }
        sendStatus(source, tag, 0);
        for (int[] w : granted) {
            sendStatus(w[0], w[2], 0);
        }
    }
}
