package org.jmpi.coll;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.WeakHashMap;
import org.jmpi.datatype.MessageData;
import org.jmpi.op.ElementKind;
import org.jmpi.op.PredefinedReduction;
import org.jmpi.op.Reduction;
import org.jmpi.pt2pt.Engine;
import org.jmpi.pt2pt.RecvRequest;
import org.jmpi.pt2pt.SendMode;
import org.jmpi.pt2pt.SendRequest;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;
import org.jmpi.runtime.Progress;

/**
 * Blocking collectives run straight in the calling thread, without a {@link Schedule}: each step posts its receives
 * and sends on the engine and waits for them, with requests from the engine's pools and working memory from a
 * per-thread scratch area, so that a small broadcast, reduce or allreduce allocates nothing in steady state (a
 * schedule, its rounds, its local steps and its temporaries were 600-1,500 bytes a call, and the young collections
 * they caused stalled partner ranks on a 2-core host for milliseconds).
 *
 * <p>Each method runs the same algorithm, with the same messages, peers, context and tag, as the schedule that
 * {@link Tuning} would select, so a rank that takes this route and one that builds the schedule (non-blocking calls,
 * other thresholds) still match. A method returns false, having sent nothing, when it does not apply: another
 * algorithm is selected, the data is larger than the scratch area, or the operation is not predefined (a user
 * function sees Java arrays when the data is on the heap, which the native scratch would change).
 *
 * <p>Working buffers are copies: a reduction copies its input into Java arrays of its element kind, combines there
 * with {@link Reduction#apply} and copies the result out; the other collectives work in native scratch memory. For
 * the sizes taken here (at most {@link #LIMIT} bytes) the copies cost less than one message.
 *
 * <p><b>Pacing.</b> In the rooted collectives (bcast, reduce, gather, scatter) data flows one way, and a sender's
 * small messages are eager: it returns as soon as they are written, so a loop of such calls lets the senders run
 * ahead of their receivers, up to a whole flow window (4 MiB, some 40,000 messages of 4 bytes) per sender, which the
 * receiver holds as unexpected messages, more than the engine pools (the root of a 3-rank reduce or gather allocated
 * 210-235 bytes per call that way; with many senders the backlog would be megabytes per sender). So every
 * {@code jmpi.coll.pace}-th call on a communicator ({@link CollConfig#pace()}, by default {@link CollConfig#autoPace}
 * of its size: 768 calls at 2 ranks down to 128 from 7 on; 0 turns pacing off) sends its small
 * messages ({@link #PACED_MAX} bytes at most) so that the receiver answers once it has matched them: through the lane
 * where it takes them ({@link Engine#sendAnswered}: the lane's own records, the answers counted per peer), else from a
 * private copy as {@link SendMode#EAGER_SYNCHRONOUS}. The data goes at once, and this rank does not wait for that
 * answer in the call but before its next paced message to the same rank (through the lane: on any communicator).
 * A sender thus stays at most two paces ahead of each rank it sends to, and never waits when it is not that far
 * ahead: no extra round trip in the call, nothing the receiver must do (any receive answers, so ranks that build a
 * schedule for the same call still match), and a program that relies on a collective not synchronising (erroneous,
 * but common) only blocks where it relies on two paces of buffering. The same idea as Open MPI's optional "sync"
 * collective component, which inserts a barrier every N calls, without the barrier.
 *
 * <p>Threading: every method runs in the calling thread and touches only that thread's scratch, and for a paced call
 * the communicator's pacing state (a rank does not run two collectives on one communicator at once).
 */
public final class Immediate {
    /**
     * Largest reduction and gather, scatter, allgather or alltoall (bytes of one rank's data, or of the whole) done
     * here; larger ones build a schedule. An allreduce goes up to {@link Collective#TWO_RANKS_SHORT}.
     */
    public static final long LIMIT = 32 << 10;

    private Immediate() {}

    /** Largest message sent paced; larger ones are few enough per flow window to need no pacing. */
    static final long PACED_MAX = 16 << 10;

    /**
     * Whether call {@code sequence}'s messages of {@code bytes} are sent paced on a communicator of {@code size} ranks:
     * see "Pacing" above.
     */
    private static boolean paced(int size, int sequence, long bytes) {
        long pace = Tuning.config().pace();
        if (pace == CollConfig.AUTO_PACE) {
            pace = CollConfig.autoPace(size);
        }
        return pace > 0 && bytes <= PACED_MAX && Integer.toUnsignedLong(sequence) % pace == pace - 1;
    }

    /**
     * A communicator's pacing state, per comm rank sent to: the last paced send (not yet known to be matched) and the
     * private copy it was sent from.
     */
    private static final class Pace {
        final SendRequest[] pending;
        final MemorySegment[] copies;
        /** The copy's first {@code bytes} as message data, kept while the size stays the same. */
        final MessageData[] views;

        Pace(int size) {
            pending = new SendRequest[size];
            copies = new MemorySegment[size];
            views = new MessageData[size];
        }
    }

    /** Pacing state by communicator, looked up on paced calls only; an entry goes with its communicator. */
    private static final Map<Communicator, Pace> PACES = new WeakHashMap<>();

    /**
     * Sends {@code out} to comm rank {@code to} as this call's paced message: first waits for the previous paced
     * message to {@code to} to be matched (at once unless this rank is a whole pace ahead of {@code to}), then sends
     * a copy of {@code out} eager synchronous and returns without waiting for it.
     */
    private static void sendPaced(Engine engine, Progress progress, Communicator c, int context, int tag, int to,
            MessageData out, String call) {
        Pace pace;
        synchronized (PACES) {
            pace = PACES.computeIfAbsent(c, k -> new Pace(k.size()));
        }
        SendRequest previous;
        synchronized (pace) {
            previous = pace.pending[to];
            pace.pending[to] = null;
        }
        if (previous != null) {
            awaitOk(engine, progress, previous, call);
        }
        if (engine.sendAnswered(out, c.worldRank(to), context, c.rank(), tag)) {
            return; // through the lane: the engine counts the answers
        }
        long n = out.bytes();
        MessageData data;
        synchronized (pace) {
            MemorySegment copy = pace.copies[to];
            if (copy == null || copy.byteSize() < n) {
                copy = org.jmpi.shared.NativeMemory.allocate(Math.max(n, 64));
                pace.copies[to] = copy;
                pace.views[to] = null;
            }
            data = pace.views[to];
            if (data == null || data.bytes() != n) {
                data = new MessageData.SegmentData(copy.asSlice(0, n));
                pace.views[to] = data;
            }
        }
        Blocks.copy(out, 0, data, 0, n);
        SendRequest s;
        try {
            s = engine.isend(data, c.worldRank(to), context, c.rank(), tag, SendMode.EAGER_SYNCHRONOUS);
        } catch (MpiError e) {
            throw new MpiError(e.errorClass(), call + ": " + e.getMessage());
        }
        if (s.isDone() && s.error() != 0) {
            int error = s.error();
            String message = s.errorMessage();
            engine.release(s);
            throw new MpiError(error, call + ": " + message);
        }
        synchronized (pace) {
            pace.pending[to] = s;
        }
    }

    /**
     * The calling thread's working memory: two {@link #LIMIT}-byte segments and views of them, and the reductions'
     * {@link Accumulators}.
     */
    private static final class Scratch {
        final MemorySegment a;
        final MemorySegment b;
        final SendRequest[] sends = new SendRequest[32];
        /** By element kind (ordinal), made on first use. */
        private final Accumulators[] accumulators = new Accumulators[ElementKind.values().length];

        Scratch() {
            MemorySegment both = org.jmpi.shared.NativeMemory.allocate(2 * LIMIT);
            a = both.asSlice(0, LIMIT);
            b = both.asSlice(LIMIT, LIMIT);
        }

        private final long[] keys = new long[128];
        private final MessageData[] views = new MessageData[128];
        final RecvRequest[] recvs = new RecvRequest[32];

        /**
         * Bytes {@code [offset, offset + length)} of segment {@code a} ({@code which == 0}) or {@code b}, as message
         * data; cached, so that calls of one shape make their views once.
         */
        MessageData view(int which, long offset, long length) {
            long key = ((long) which << 50 | offset << 25 | length) + 1;
            int h = (int) ((key * 0x9E3779B97F4A7C15L) >>> 57);
            // four places per key (a call's views must not evict each other), filled in turn once all are taken
            for (int i = 0; i < 4; i++) {
                int at = (h + i) & 127;
                if (keys[at] == key) {
                    return views[at];
                }
                if (keys[at] == 0) {
                    return put(at, key, which, offset, length);
                }
            }
            victim = (victim + 1) & 3;
            return put((h + victim) & 127, key, which, offset, length);
        }

        private int victim;

        private MessageData put(int at, long key, int which, long offset, long length) {
            views[at] = new MessageData.SegmentData((which == 0 ? a : b).asSlice(offset, length));
            keys[at] = key;
            return views[at];
        }

        /** Parts of callers' buffers handed out by {@link #slice}: the buffer's view, the part's key, the part. */
        private final MessageData[] bases = new MessageData[SLICES];
        private final long[] sliceKeys = new long[SLICES];
        private final MessageData[] slices = new MessageData[SLICES];
        private static final int SLICES = 16;

        /**
         * Bytes {@code [offset, offset + length)} of a caller's buffer {@code base} as message data; when
         * the buffer has at most {@link #LIMIT} bytes, cached by the identity of {@code base}, which stays the same
         * object while a program calls with the same buffer ({@code BufferView}'s cache), so that a loop of calls
         * makes its parts once. Holds at most 16 buffers of at most 32 KiB.
         */
        MessageData slice(MessageData base, long offset, long length) {
            if (base.bytes() > LIMIT) {
                return Blocks.slice(base, offset, length); // not kept (see above); small beside moving the data
            }
            long key = offset << 32 | length;
            int h = (int) (((System.identityHashCode(base) + key) * 0x9E3779B97F4A7C15L) >>> 60);
            // four places per part, as in view: with one place, the two parts of a call whose places collided (by
            // the buffers' identity hashes, so in about one run in sixteen) evicted each other on every call, and a
            // 2-rank alltoall of 8 bytes allocated 128 bytes a call in that run
            for (int i = 0; i < 4; i++) {
                int at = (h + i) & (SLICES - 1);
                if (bases[at] == base && sliceKeys[at] == key) {
                    return slices[at];
                }
                if (bases[at] == null) {
                    return putSlice(at, base, key, offset, length);
                }
            }
            victim = (victim + 1) & 3;
            return putSlice((h + victim) & (SLICES - 1), base, key, offset, length);
        }

        private MessageData putSlice(int at, MessageData base, long key, long offset, long length) {
            slices[at] = Blocks.slice(base, offset, length);
            bases[at] = base;
            sliceKeys[at] = key;
            return slices[at];
        }

        /** The accumulators of {@code kind}, their views {@code bytes} long. */
        Accumulators accumulators(ElementKind kind, long bytes) {
            Accumulators ac = accumulators[kind.ordinal()];
            if (ac == null) {
                ac = new Accumulators(kind);
                accumulators[kind.ordinal()] = ac;
            }
            return ac.size(bytes);
        }
    }

    /**
     * Two Java arrays of one element kind, {@link #LIMIT} bytes each at first and as long as the largest allreduce
     * since (up to {@link Collective#TWO_RANKS_SHORT}), in which allreduce and reduce combine: the operation's loop
     * over Java arrays ({@link Reduction#apply}) works on them as they are, a loop that is fast from its first call,
     * interpreted or compiled. (In native scratch memory, every combine copied both operands into arrays and the
     * result back.)
     */
    private static final class Accumulators {
        private final ElementKind kind;
        Object a;
        Object b;
        private MemorySegment segmentA;
        private MemorySegment segmentB;
        private long size = -1;
        MessageData dataA;
        MessageData dataB;

        Accumulators(ElementKind kind) {
            this.kind = kind;
            allocate(LIMIT);
        }

        private void allocate(long bytes) {
            int entries = (int) (bytes / kind.packedBytes * kind.slots);
            a = java.lang.reflect.Array.newInstance(kind.arrayType.componentType(), entries);
            b = java.lang.reflect.Array.newInstance(kind.arrayType.componentType(), entries);
            segmentA = org.jmpi.shared.FastCopy.arraySegment(a);
            segmentB = org.jmpi.shared.FastCopy.arraySegment(b);
        }

        /** Makes the views {@code n} bytes long (kept while calls keep one size), the arrays longer if need be. */
        Accumulators size(long n) {
            if (n != size) {
                if (n > segmentA.byteSize()) {
                    allocate(n);
                }
                MemorySegment sliceA = segmentA.asSlice(0, n);
                MemorySegment sliceB = segmentB.asSlice(0, n);
                dataA = new MessageData.SegmentData(sliceA, org.jmpi.shared.SmallPayload.of(sliceA));
                dataB = new MessageData.SegmentData(sliceB, org.jmpi.shared.SmallPayload.of(sliceB));
                size = n;
            }
            return this;
        }
    }

    private static final org.jmpi.shared.FirstThreadLocal<Scratch> SCRATCH =
            new org.jmpi.shared.FirstThreadLocal<>(Scratch::new);

    /**
     * {@code MPI_Bcast} by binomial tree from {@code root}, when that is the algorithm selected; the data moves
     * straight between the user's buffers.
     *
     * @param sequence the call's collective sequence number ({@link Communicator#nextCollective()})
     */
    public static boolean bcast(Communicator c, int sequence, MessageData buf, int root, String call) {
        int p = c.size();
        if (Tuning.select(Collective.BCAST, c, buf.bytes(), true, root) != Algorithm.BCAST_BINOMIAL && p > 1) {
            return false;
        }
        if (p == 1) {
            return true;
        }
        JmpiRuntime rt = JmpiRuntime.get();
        Engine engine = rt.engine();
        Progress progress = rt.progress();
        int context = c.collectiveContext();
        int tag = sequence & Integer.MAX_VALUE;
        int rel = Binomial.rel(c.rank(), root, p);
        int top = Binomial.top(rel, p);
        int error = 0;
        String message = null;
        if (rel != 0) {
            // the children wait for data that will not come if this fails; as a schedule, stop at the first failed step
            receive(engine, progress, c, context, tag, Binomial.abs(rel - top, root, p), buf, call);
        }
        if (paced(p, sequence, buf.bytes())) {
            for (int mask = top >> 1; mask > 0; mask >>= 1) {
                if (rel + mask < p) {
                    sendPaced(engine, progress, c, context, tag, Binomial.abs(rel + mask, root, p), buf, call);
                }
            }
            return true;
        }
        SendRequest[] sends = SCRATCH.get().sends;
        int n = 0;
        try {
            for (int mask = top >> 1; mask > 0; mask >>= 1) {
                if (rel + mask < p) {
                    int to = c.worldRank(Binomial.abs(rel + mask, root, p));
                    if (!engine.sendNowWaiting(buf, to, context, c.rank(), tag)
                            && !engine.sendNowWhenCredited(buf, to, context, c.rank(), tag)) {
                        sends[n++] = engine.isend(buf, to, context, c.rank(), tag, SendMode.STANDARD);
                    }
                }
            }
        } catch (MpiError e) {
            waitAll(engine, progress, sends, n);
            throw new MpiError(e.errorClass(), call + ": " + e.getMessage());
        }
        for (int i = 0; i < n; i++) {
            progress.await(sends[i]);
            if (error == 0 && sends[i].error() != 0) {
                error = sends[i].error();
                message = sends[i].errorMessage();
            }
            engine.release(sends[i]);
            sends[i] = null;
        }
        if (error != 0) {
            throw new MpiError(error, call + ": " + message);
        }
        return true;
    }

    /**
     * {@code MPI_Allreduce} by recursive doubling, when that is the algorithm selected for a predefined operation
     * and the data fits the scratch area ({@link Collective#TWO_RANKS_SHORT}); {@code input == output} in place. On 2
     * ranks, Rabenseifner's algorithm where it is selected and the buffers allow ({@link #allreduceHalves}).
     */
    public static boolean allreduce(Communicator c, int sequence, MessageData input, MessageData output, int count,
            Reduction red, String call) {
        int p = c.size();
        long bytes = count * red.bytesPerElement();
        if (!(red instanceof PredefinedReduction)) {
            return false;
        }
        Algorithm a = Tuning.select(Collective.ALLREDUCE, c, bytes, red.commutative(), -1);
        if (a != Algorithm.ALLREDUCE_RECURSIVE_DOUBLING || bytes > Collective.TWO_RANKS_SHORT) {
            return a == Algorithm.ALLREDUCE_RABENSEIFNER && p == 2 && Hosts.of(c).oneHost()
                    && allreduceHalves(c, sequence, input, output, count, red, call);
        }
        if (count == 0) {
            return true;
        }
        if (p == 1) {
            if (input != output) {
                Blocks.copy(input, 0, output, 0, bytes);
            }
            return true;
        }
        JmpiRuntime rt = JmpiRuntime.get();
        Engine engine = rt.engine();
        Progress progress = rt.progress();
        int context = c.collectiveContext();
        int tag = sequence & Integer.MAX_VALUE;
        int r = c.rank();
        int pof2 = Fold.highestOneBit(p);
        int rem = p - pof2;
        boolean commute = red.commutative();
        boolean extra = r < 2 * rem; // one of the first 2 * rem ranks, which pair up before the doubling
        if (extra && r % 2 == 0) {
            sitOut(engine, progress, c, context, tag, r + 1, input, output, call);
            return true;
        }
        Accumulators ac = SCRATCH.get().accumulators(((PredefinedReduction) red).kind(), bytes);
        Object acc = ac.a;
        Object tmp = ac.b;
        MessageData accData = ac.dataA;
        MessageData tmpData = ac.dataB;
        Blocks.copy(input, 0, accData, 0, bytes);
        if (extra) {
            foldIn(engine, progress, c, context, tag, r - 1, red, ac, count, call);
        }
        int nr = extra ? r / 2 : r - rem;
        for (int mask = 1; mask < pof2; mask <<= 1) {
            int partnerNew = nr ^ mask;
            int partner = partnerNew < rem ? 2 * partnerNew + 1 : partnerNew + rem;
            exchange(engine, progress, c, context, tag, partner, accData, tmpData, call);
            if (partnerNew < nr || commute) {
                red.apply(tmp, acc, 0, count);
            } else {
                red.apply(acc, tmp, 0, count);
                Object t = acc;
                acc = tmp;
                tmp = t;
                MessageData td = accData;
                accData = tmpData;
                tmpData = td;
            }
        }
        if (extra) {
            exchange(engine, progress, c, context, tag, r - 1, accData, null, call);
        }
        Blocks.copy(accData, 0, output, 0, bytes);
        return true;
    }

    /**
     * An allreduce's even rank among the first {@code 2 * rem} (out of line: a power of two of ranks has none): its
     * input goes to {@code partner}, and the result comes back from it.
     */
    private static void sitOut(Engine engine, Progress progress, Communicator c, int context, int tag, int partner,
            MessageData input, MessageData output, String call) {
        exchange(engine, progress, c, context, tag, partner, input, null, call);
        exchange(engine, progress, c, context, tag, partner, null, output, call);
    }

    /** An allreduce's odd rank among the first {@code 2 * rem}: receives the lower rank's input, then tmp op acc. */
    private static void foldIn(Engine engine, Progress progress, Communicator c, int context, int tag, int partner,
            Reduction red, Accumulators ac, int count, String call) {
        exchange(engine, progress, c, context, tag, partner, null, ac.dataB, call);
        red.apply(ac.b, ac.a, 0, count);
    }

    /**
     * {@code MPI_Allreduce} of 2 ranks by Rabenseifner's algorithm, straight between the user's buffers when they
     * are two (not in place), contiguous, and either both native or both whole Java arrays of the reduction's type:
     * the ranks swap the halves they do not keep, the peer's half received into the output; each combines its half
     * there with its input's, and they swap the combined halves. The messages of {@link AllreduceRabenseifner} on 2
     * ranks (the same blocks, in the same order), without a schedule and without working memory: the 2-rank
     * allreduces a program runs above {@link Collective#TWO_RANKS_SHORT} on one host take the code its smaller ones
     * have compiled (OMB-J's cold allreduce of 512 KiB and 1 MiB took 186 and 357-404 us through a schedule whose
     * code they were the first to run, against Open MPI Java's 94 and 198; ungated, 2026-12-01).
     */
    private static boolean allreduceHalves(Communicator c, int sequence, MessageData input, MessageData output,
            int count, Reduction red, String call) {
        if (count == 0) {
            return true; // as the schedule: nothing to send
        }
        MemorySegment in = input.contiguous();
        MemorySegment out = output.contiguous();
        if (input == output || in == null || out == null || in.isNative() != out.isNative() || out.isReadOnly()) {
            return false;
        }
        Object inArray = null;
        Object outArray = null;
        if (!out.isNative()) {
            inArray = ReduceBuffers.direct(input, red, count, false);
            outArray = ReduceBuffers.direct(output, red, count, false);
            if (inArray == null || outArray == null) {
                return false;
            }
        }
        JmpiRuntime rt = JmpiRuntime.get();
        Engine engine = rt.engine();
        Progress progress = rt.progress();
        int context = c.collectiveContext();
        int tag = sequence & Integer.MAX_VALUE;
        int r = c.rank();
        long size = red.bytesPerElement();
        int split = count - count / 2; // block 0 (rank 0's) takes the odd element, as ReduceBuffers.blockStarts
        int first = r == 0 ? 0 : split;
        int n = r == 0 ? split : count - split;
        int other = r == 0 ? split : 0;
        int otherN = count - n;
        MessageData keep = Blocks.slice(output, first * size, n * size);
        exchange(engine, progress, c, context, tag, 1 - r, Blocks.slice(input, other * size, otherN * size), 1 - r,
                keep, call);
        if (inArray != null) {
            red.apply(inArray, outArray, first, n);
        } else {
            red.applyNative(in, out, first, n);
        }
        exchange(engine, progress, c, context, tag, 1 - r, keep, 1 - r, Blocks.slice(output, other * size,
                otherN * size), call);
        return true;
    }

    /**
     * {@code MPI_Reduce} by binomial tree, when that is the algorithm selected for a predefined operation and the data
     * fits the scratch area; {@code output} is the root's result (null elsewhere), {@code input == output} in place.
     */
    public static boolean reduce(Communicator c, int sequence, MessageData input, MessageData output, int count,
            Reduction red, int root, String call) {
        int p = c.size();
        long bytes = count * red.bytesPerElement();
        if (!(red instanceof PredefinedReduction) || bytes > LIMIT
                || Tuning.select(Collective.REDUCE, c, bytes, red.commutative(), root) != Algorithm.REDUCE_BINOMIAL) {
            return false;
        }
        int r = c.rank();
        if (count == 0) {
            return true;
        }
        if (p == 1) {
            if (input != output) {
                Blocks.copy(input, 0, output, 0, bytes);
            }
            return true;
        }
        JmpiRuntime rt = JmpiRuntime.get();
        Engine engine = rt.engine();
        Progress progress = rt.progress();
        int context = c.collectiveContext();
        int tag = sequence & Integer.MAX_VALUE;
        boolean commute = red.commutative();
        int treeRoot = commute ? root : 0;
        int rel = Binomial.rel(r, treeRoot, p);
        int top = Binomial.top(rel, p);
        int parent = Binomial.abs(rel - top, treeRoot, p);
        Accumulators ac = SCRATCH.get().accumulators(((PredefinedReduction) red).kind(), bytes);
        Object acc = ac.a;
        Object tmp = ac.b;
        MessageData accData = ac.dataA;
        MessageData tmpData = ac.dataB;
        boolean holds = false;
        if (rel + 1 >= p || top == 1) {
            // no children
            if (rel != 0) {
                send(engine, progress, c, context, sequence, parent, input, call);
            } else {
                Blocks.copy(input, 0, accData, 0, bytes);
                holds = true;
            }
        } else {
            Blocks.copy(input, 0, accData, 0, bytes);
            for (int mask = 1; mask < top && rel + mask < p; mask <<= 1) {
                exchange(engine, progress, c, context, tag, Binomial.abs(rel + mask, treeRoot, p), null, tmpData,
                        call);
                if (commute) {
                    red.apply(tmp, acc, 0, count);
                } else {
                    // acc holds ranks [rel, rel + mask), tmp the next ones: acc op tmp, computed into tmp
                    red.apply(acc, tmp, 0, count);
                    Object t = acc;
                    acc = tmp;
                    tmp = t;
                    MessageData td = accData;
                    accData = tmpData;
                    tmpData = td;
                }
            }
            if (rel != 0) {
                send(engine, progress, c, context, sequence, parent, accData, call);
            } else {
                holds = true;
            }
        }
        if (treeRoot != root) {
            if (r == treeRoot) {
                send(engine, progress, c, context, sequence, root, accData, call);
                return true;
            }
            if (r == root) {
                exchange(engine, progress, c, context, tag, treeRoot, null, output, call);
                return true;
            }
        }
        if (r == root && holds) {
            Blocks.copy(accData, 0, output, 0, bytes);
        }
        return true;
    }

    /**
     * {@code MPI_Gather} of {@code block} bytes per rank by binomial tree, when that is the algorithm selected and the
     * whole fits the scratch area. {@code send} is this rank's block (null at the root in place), {@code recv} the
     * root's buffer (ignored elsewhere). Each subtree's blocks travel in relative-rank order, as in
     * {@link GatherBinomial}.
     */
    public static boolean gather(Communicator c, int sequence, MessageData send, MessageData recv, long block,
            int root, String call) {
        int p = c.size();
        long total = p * block;
        if (Tuning.select(Collective.GATHER, p, total, true) != Algorithm.GATHER_BINOMIAL || total > LIMIT) {
            return false;
        }
        int r = c.rank();
        int rel = Binomial.rel(r, root, p);
        int size = Binomial.subtreeSize(rel, p);
        int top = Binomial.top(rel, p);
        if (size == 1) {
            if (rel != 0) {
                JmpiRuntime rt = JmpiRuntime.get();
                send(rt.engine(), rt.progress(), c, c.collectiveContext(), sequence, Binomial.abs(rel - top, root, p),
                        send, call);
            } else if (send != null) {
                Blocks.copy(send, 0, recv, 0, block); // p == 1
            }
            return true;
        }
        JmpiRuntime rt = JmpiRuntime.get();
        Engine engine = rt.engine();
        Progress progress = rt.progress();
        int context = c.collectiveContext();
        int tag = sequence & Integer.MAX_VALUE;
        Scratch sc = SCRATCH.get();
        MessageData tmp = sc.view(0, 0, size * block);
        if (send != null) {
            Blocks.copy(send, 0, tmp, 0, block);
        } else {
            Blocks.copy(recv, root * block, tmp, 0, block); // the root in place
        }
        if (rel + 1 < p && (top <= 2 || rel + 2 >= p)) {
            // one child (rank 1's subtree, e.g. two ranks): received through the lane when it can
            receive(engine, progress, c, context, tag, Binomial.abs(rel + 1, root, p),
                    sc.view(0, block, Binomial.subtreeSize(rel + 1, p) * block), call);
        } else {
            RecvRequest[] in = sc.recvs;
            int n = 0;
            for (int mask = 1; mask < top && rel + mask < p; mask <<= 1) {
                int child = rel + mask;
                in[n++] = engine.irecv(sc.view(0, mask * block, Binomial.subtreeSize(child, p) * block), context,
                        Binomial.abs(child, root, p), tag);
            }
            awaitAll(engine, progress, in, n, call);
        }
        if (rel != 0) {
            send(engine, progress, c, context, sequence, Binomial.abs(rel - top, root, p), tmp, call);
        } else {
            for (int i = 0; i < p; i++) {
                Blocks.copy(tmp, i * block, recv, Binomial.abs(i, root, p) * block, block);
            }
        }
        return true;
    }

    /**
     * {@code MPI_Scatter} of {@code block} bytes per rank by binomial tree, when that is the algorithm selected and
     * the whole fits the scratch area. {@code send} is the root's buffer (ignored elsewhere), {@code recv} this rank's
     * block (null at the root in place). The same messages as {@link ScatterBinomial}.
     */
    public static boolean scatter(Communicator c, int sequence, MessageData send, MessageData recv, long block,
            int root, String call) {
        int p = c.size();
        long total = p * block;
        if (Tuning.select(Collective.SCATTER, p, total, true) != Algorithm.SCATTER_BINOMIAL || total > LIMIT) {
            return false;
        }
        int r = c.rank();
        int rel = Binomial.rel(r, root, p);
        int size = Binomial.subtreeSize(rel, p);
        int top = Binomial.top(rel, p);
        int parent = Binomial.abs(rel - top, root, p);
        JmpiRuntime rt = JmpiRuntime.get();
        Engine engine = rt.engine();
        Progress progress = rt.progress();
        int context = c.collectiveContext();
        int tag = sequence & Integer.MAX_VALUE;
        if (size == 1) {
            if (rel != 0) {
                exchange(engine, progress, c, context, tag, parent, null, recv, call);
            } else if (recv != null) {
                Blocks.copy(send, 0, recv, 0, block); // p == 1
            }
            return true;
        }
        Scratch sc = SCRATCH.get();
        MessageData tmp;
        if (rel == 0) {
            tmp = sc.view(0, 0, total);
            for (int i = 0; i < p; i++) {
                Blocks.copy(send, Binomial.abs(i, root, p) * block, tmp, i * block, block);
            }
        } else {
            tmp = sc.view(0, 0, size * block);
            exchange(engine, progress, c, context, tag, parent, null, tmp, call);
        }
        if (recv != null) {
            Blocks.copy(tmp, 0, recv, 0, block);
        }
        if (paced(p, sequence, size * block)) { // this rank's subtree: no message to a child is larger
            for (int mask = top >> 1; mask > 0; mask >>= 1) {
                int child = rel + mask;
                if (child < p) {
                    sendPaced(engine, progress, c, context, tag, Binomial.abs(child, root, p),
                            sc.view(0, mask * block, Binomial.subtreeSize(child, p) * block), call);
                }
            }
            return true;
        }
        SendRequest[] out = sc.sends;
        int n = 0;
        try {
            for (int mask = top >> 1; mask > 0; mask >>= 1) {
                int child = rel + mask;
                if (child < p) {
                    out[n++] = engine.isend(sc.view(0, mask * block, Binomial.subtreeSize(child, p) * block),
                            c.worldRank(Binomial.abs(child, root, p)), context, r, tag, SendMode.STANDARD);
                }
            }
        } catch (MpiError e) {
            waitAll(engine, progress, out, n);
            throw new MpiError(e.errorClass(), call + ": " + e.getMessage());
        }
        awaitAll(engine, progress, out, n, call);
        return true;
    }

    /**
     * {@code MPI_Allgather} of {@code block} bytes per rank by recursive doubling (a power-of-two size) or Bruck's
     * algorithm, when one of those is the algorithm selected; Bruck's when the whole fits the scratch area, recursive
     * doubling (and, on two ranks, the ring, the same one exchange) at any size, straight between the buffers.
     * {@code send} is this rank's block, or null when it sits in place in {@code recv}. The same messages as
     * {@link AllgatherRecursiveDoubling}, {@link AllgatherRing} and {@link AllgatherBruck}.
     */
    public static boolean allgather(Communicator c, int sequence, MessageData send, MessageData recv, long block,
            String call) {
        int p = c.size();
        long total = p * block;
        Algorithm a = Tuning.select(Collective.ALLGATHER, c, total, true, -1);
        boolean doubling = a == Algorithm.ALLGATHER_RECURSIVE_DOUBLING && Integer.bitCount(p) == 1;
        // recursive doubling needs no scratch, so no size limit; on two ranks the ring is the same one exchange
        boolean direct = doubling || p == 2 && a == Algorithm.ALLGATHER_RING;
        if (!direct && (a != Algorithm.ALLGATHER_BRUCK || total > LIMIT)) {
            return false;
        }
        int r = c.rank();
        if (p == 1) {
            if (send != null) {
                Blocks.copy(send, 0, recv, 0, Math.min(block, send.bytes()));
            }
            return true;
        }
        JmpiRuntime rt = JmpiRuntime.get();
        Engine engine = rt.engine();
        Progress progress = rt.progress();
        int context = c.collectiveContext();
        int tag = sequence & Integer.MAX_VALUE;
        Scratch sc = SCRATCH.get();
        if (direct) {
            // The blocks move straight between the receive buffers (a copy in and out of the scratch doubled a 16 KiB
            // allgather's copying). The first step sends this rank's block from the send buffer, and the block is
            // copied into place only when a later step needs it there, or at the end: the copy does not delay the
            // exchange, and the peer reads memory this rank did not just write (as in AllgathervRing).
            boolean fromSend = send != null && send.bytes() >= block;
            boolean placed = send == null;
            if (!fromSend && !placed) {
                Blocks.copy(send, 0, recv, r * block, Math.min(block, send.bytes()));
                placed = true;
            }
            for (int mask = 1; mask < p; mask <<= 1) {
                if (mask == 2 && !placed) {
                    Blocks.copy(send, 0, recv, r * block, block);
                    placed = true;
                }
                int partner = r ^ mask;
                MessageData out = mask == 1 && fromSend ? sc.slice(send, 0, block)
                        : sc.slice(recv, (r & ~(mask - 1)) * block, mask * block);
                exchange(engine, progress, c, context, tag, partner, out,
                        sc.slice(recv, (partner & ~(mask - 1)) * block, mask * block), call);
            }
            if (!placed) {
                Blocks.copy(send, 0, recv, r * block, block);
            }
            return true;
        }
        // Bruck: block i of the scratch is rank r + i's; at distance d, receive the next min(d, p - d) blocks from
        // r + d and send the first ones to r - d; then rotate into place
        MessageData all = sc.view(0, 0, total);
        if (send != null) {
            Blocks.copy(send, 0, all, 0, Math.min(block, send.bytes()));
        } else {
            Blocks.copy(recv, r * block, all, 0, block);
        }
        for (int dist = 1; dist < p; dist <<= 1) {
            int m = Math.min(dist, p - dist);
            exchange(engine, progress, c, context, tag, (r - dist + p) % p, sc.view(0, 0, m * block),
                    (r + dist) % p, sc.view(0, dist * block, m * block), call);
        }
        for (int i = send == null ? 1 : 0; i < p; i++) {
            Blocks.copy(all, i * block, recv, ((r + i) % p) * block, block);
        }
        return true;
    }

    /**
     * {@code MPI_Alltoall} of {@code block} bytes per rank pair, posting every message at once, when that is the
     * algorithm selected (2 ranks, or blocks of a medium size), the communicator has at most 33 ranks and the whole fits
     * the scratch area. The same messages as {@link AlltoallvLinear}: the send buffer is copied into scratch A, the
     * blocks arrive in scratch B, which is copied out at the end. On two ranks (linear or pairwise selected: the same
     * one exchange), at any size, the block goes straight from buffer to buffer.
     */
    public static boolean alltoall(Communicator c, int sequence, MessageData send, MessageData recv, long block,
            String call) {
        int p = c.size();
        long total = p * block;
        Algorithm a = Tuning.select(Collective.ALLTOALL, p, block, true);
        if (a == Algorithm.ALLTOALL_BRUCK) {
            return alltoallBruck(c, sequence, send, recv, block, call);
        }
        // two ranks exchange one block each way, straight between the buffers: no scratch, so no size limit
        // (pairwise on two ranks is that same one exchange)
        boolean direct = p == 2 && (a == Algorithm.ALLTOALL_LINEAR || a == Algorithm.ALLTOALL_PAIRWISE);
        if (!direct && (a != Algorithm.ALLTOALL_LINEAR || total > LIMIT || p > 33)) {
            return false;
        }
        int r = c.rank();
        if (p == 1) {
            Blocks.copy(send, 0, recv, 0, block);
            return true;
        }
        JmpiRuntime rt = JmpiRuntime.get();
        Engine engine = rt.engine();
        Progress progress = rt.progress();
        int context = c.collectiveContext();
        int tag = sequence & Integer.MAX_VALUE;
        Scratch sc = SCRATCH.get();
        if (direct) { // this rank's own block afterwards, so that it does not delay the exchange
            exchange(engine, progress, c, context, tag, 1 - r, sc.slice(send, (1 - r) * block, block),
                    sc.slice(recv, (1 - r) * block, block), call);
            Blocks.copy(send, r * block, recv, r * block, block);
            return true;
        }
        Blocks.copy(send, 0, sc.view(0, 0, total), 0, total);
        RecvRequest[] in = sc.recvs;
        SendRequest[] out = sc.sends;
        for (int k = 1; k < p; k++) {
            int from = (r - k + p) % p;
            in[k - 1] = engine.irecv(sc.view(1, from * block, block), context, from, tag);
        }
        int n = 0;
        try {
            for (int k = 1; k < p; k++) {
                int to = (r + k) % p;
                out[n++] = engine.isend(sc.view(0, to * block, block), c.worldRank(to), context, r, tag,
                        SendMode.STANDARD);
            }
        } catch (MpiError e) {
            waitAll(engine, progress, out, n);
            throw new MpiError(e.errorClass(), call + ": " + e.getMessage());
        }
        try {
            awaitAll(engine, progress, in, p - 1, call);
        } finally {
            awaitAll(engine, progress, out, n, call);
        }
        MessageData got = sc.view(1, 0, total);
        Blocks.copy(sc.view(0, r * block, block), 0, got, r * block, block);
        Blocks.copy(got, 0, recv, 0, total);
        return true;
    }

    /**
     * {@code MPI_Alltoall} by Bruck's algorithm (short blocks, more than two ranks), when the rotated blocks fit
     * scratch A and the packed halves fit scratch B. The same messages as {@link AlltoallBruck}: rank r rotates its send
     * blocks so that position i holds the block for rank r + i; at distance d it sends the blocks at positions with bit
     * d set to r + d and receives r - d's into the same positions; position i then holds the block from r - i.
     */
    private static boolean alltoallBruck(Communicator c, int sequence, MessageData send, MessageData recv, long block,
            String call) {
        int p = c.size();
        long total = p * block;
        long half = (p + 1) / 2 * block;
        if (total > LIMIT || 2 * half > LIMIT) {
            return false;
        }
        int r = c.rank();
        JmpiRuntime rt = JmpiRuntime.get();
        Engine engine = rt.engine();
        Progress progress = rt.progress();
        int context = c.collectiveContext();
        int tag = sequence & Integer.MAX_VALUE;
        Scratch sc = SCRATCH.get();
        MessageData rot = sc.view(0, 0, total);
        for (int i = 0; i < p; i++) {
            Blocks.copy(send, ((r + i) % p) * block, rot, i * block, block);
        }
        MessageData out = sc.view(1, 0, half);
        MessageData in = sc.view(1, half, half);
        for (int d = 1; d < p; d <<= 1) {
            int k = 0;
            for (int i = 0; i < p; i++) {
                if ((i & d) != 0) {
                    Blocks.copy(rot, i * block, out, (k++) * block, block);
                }
            }
            long bytes = k * block;
            exchange(engine, progress, c, context, tag, (r + d) % p, sc.view(1, 0, bytes), (r - d + p) % p,
                    sc.view(1, half, bytes), call);
            k = 0;
            for (int i = 0; i < p; i++) {
                if ((i & d) != 0) {
                    Blocks.copy(in, (k++) * block, rot, i * block, block);
                }
            }
        }
        for (int i = 0; i < p; i++) {
            Blocks.copy(rot, i * block, recv, ((r - i + p) % p) * block, block);
        }
        return true;
    }

    /** Waits for {@code n} requests and gives them back; throws the first error once all have ended. */
    private static void awaitAll(Engine engine, Progress progress, org.jmpi.runtime.RequestImpl[] rs, int n,
            String call) {
        int error = 0;
        String message = null;
        for (int i = 0; i < n; i++) {
            progress.await(rs[i]);
            if (error == 0 && rs[i].error() != 0) {
                error = rs[i].error();
                message = rs[i].errorMessage();
            }
            engine.release(rs[i]);
            rs[i] = null;
        }
        if (error != 0) {
            throw new MpiError(error, call + ": " + message);
        }
    }

    /**
     * Sends {@code out} to and receives {@code in} from comm rank {@code peer} (either may be null), both posted
     * before waiting; throws the first error once both have ended.
     */
    private static void exchange(Engine engine, Progress progress, Communicator c, int context, int tag, int peer,
            MessageData out, MessageData in, String call) {
        exchange(engine, progress, c, context, tag, peer, out, peer, in, call);
    }

    /**
     * Sends {@code out} to comm rank {@code to}, a rooted collective's message in call {@code sequence} (tagged with
     * it): paced on a paced call (see "Pacing" above), else sent and waited for.
     */
    private static void send(Engine engine, Progress progress, Communicator c, int context, int sequence, int to,
            MessageData out, String call) {
        int tag = sequence & Integer.MAX_VALUE;
        if (paced(c.size(), sequence, out.bytes())) {
            sendPaced(engine, progress, c, context, tag, to, out, call);
        } else {
            exchange(engine, progress, c, context, tag, to, out, to, null, call);
        }
    }

    /**
     * Sends {@code out} to comm rank {@code to} and receives {@code in} from {@code from}, as above. With both, a large
     * {@code out} in native memory may go by address ({@link Engine#sendNowDeferred}, as {@code MPI_Sendrecv}): the
     * peer copies it straight out of {@code out}, and this rank waits for that after its own receive.
     */
    private static void exchange(Engine engine, Progress progress, Communicator c, int context, int tag, int to,
            MessageData out, int from, MessageData in, String call) {
        // 0: no send, or the lane took it at once (an eager message needs no receive posted first); -1: not taken
        long sent = out == null ? 0 : in != null ? engine.sendNowDeferred(out, c.worldRank(to), context, c.rank(), tag)
                : engine.sendNow(out, c.worldRank(to), context, c.rank(), tag) ? 0 : -1;
        if (sent < 0) {
            exchangePosted(engine, progress, c, context, tag, to, out, from, in, call);
        } else if (sent == 0) {
            if (in != null) {
                receive(engine, progress, c, context, tag, from, in, call);
            }
        } else {
            try {
                receive(engine, progress, c, context, tag, from, in, call);
            } finally {
                engine.awaitRead(c.worldRank(to), sent);
            }
        }
    }

    /**
     * {@link #exchange} the usual way, out of line (C1, which compiles jmpi's runtime, compiles every branch of a
     * method, taken or not): the receive posted, the send started, both waited for.
     */
    private static void exchangePosted(Engine engine, Progress progress, Communicator c, int context, int tag, int to,
            MessageData out, int from, MessageData in, String call) {
        RecvRequest rq = in == null ? null : engine.irecv(in, context, from, tag);
        SendRequest sq;
        try {
            sq = engine.isend(out, c.worldRank(to), context, c.rank(), tag, SendMode.STANDARD);
        } catch (MpiError e) {
            // the engine refused the message (a failed peer): the collective cannot go on; a receive from a failed
            // peer has been failed by the engine, so it can be waited for and given back
            if (rq != null && engine.peerFailed(c.worldRank(from))) {
                progress.await(rq);
                engine.release(rq);
            }
            throw new MpiError(e.errorClass(), call + ": " + e.getMessage());
        }
        int error = 0;
        String message = null;
        if (rq != null) {
            progress.await(rq);
            error = rq.error();
            message = rq.errorMessage();
        }
        progress.await(sq);
        if (error == 0) {
            error = sq.error();
            message = sq.errorMessage();
        }
        engine.release(sq);
        if (rq != null) {
            engine.release(rq);
        }
        if (error != 0) {
            throw new MpiError(error, call + ": " + message);
        }
    }

    /** Receives {@code in} from comm rank {@code from}: through the engine's lane, or posted and waited for. */
    private static void receive(Engine engine, Progress progress, Communicator c, int context, int tag, int from,
            MessageData in, String call) {
        if (engine.receiveNow(in, context, c.worldRank(from), from, tag) >= 0) {
            return;
        }
        awaitOk(engine, progress, engine.irecv(in, context, from, tag), call);
    }

    /** Waits for {@code r}, gives it back to the engine and throws its error, if any. */
    private static void awaitOk(Engine engine, Progress progress, org.jmpi.runtime.RequestImpl r, String call) {
        progress.await(r);
        int error = r.error();
        String message = r.errorMessage();
        engine.release(r);
        if (error != 0) {
            throw new MpiError(error, call + ": " + message);
        }
    }

    private static void waitAll(Engine engine, Progress progress, SendRequest[] sends, int n) {
        for (int i = 0; i < n; i++) {
            progress.await(sends[i]);
            engine.release(sends[i]);
            sends[i] = null;
        }
    }
}
