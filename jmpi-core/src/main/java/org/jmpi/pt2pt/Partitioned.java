package org.jmpi.pt2pt;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.jmpi.coll.Blocks;
import org.jmpi.datatype.MessageData;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;
import org.jmpi.runtime.RequestImpl;

/**
 * MPI 4.0's partitioned communication (section 4.2): one side of a partitioned send or receive, started any number
 * of times. Each send partition travels as its own message as soon as the sender marks it ready, from any thread; the
 * receiver sees each of its partitions arrive ({@link #arrived}) as soon as the send partitions that cover it have.
 * The two sides may cut the same bytes into different numbers of partitions.
 *
 * <p><b>Matching.</b> Partitioned operations match each other, never ordinary sends and receives: all their messages
 * travel on the communicator's collective context under negative tags, which no collective uses. At its init call a
 * send sends a small hello (its partitioning and the first of a block of data tags it reserved towards that peer)
 * under the hello tag of the user's tag; a receive posts the receive for it at its init call. Messages between two
 * ranks match in order, so the n-th partitioned send with a tag matches the n-th partitioned receive with that tag,
 * in init order, as MPI says. Send partition {@code p} then travels under data tag {@code base + p} at every
 * activation: an activation's messages cannot meet another's, since the next starts only after this one completed on
 * its side and messages under one tag match in order.
 *
 * <p>Tags: a partitioned operation takes a user tag below 2^30 (the hello tags are {@code -2 - tag}); the data tags of
 * each pair of ranks are {@code Integer.MIN_VALUE + k} for a running k modulo 2^30 - 2.
 *
 * <p>Threading: {@link #ready} may be called by several threads at once (each partition by one), {@link #arrived} by
 * any thread; state per activation is in atomic arrays. {@link #start} and completion follow the request rules.
 */
public final class Partitioned {
    /** User tags of partitioned operations are below this. */
    public static final int TAG_LIMIT = 1 << 30;
    private static final int DATA_TAGS = (1 << 30) - 2;
    /** Next data tag offset per (sender's communicator context, destination world rank), on the sending side. */
    private static final ConcurrentHashMap<Long, AtomicInteger> NEXT_BASE = new ConcurrentHashMap<>();

    private final Communicator comm;
    private final Engine engine;
    private final boolean send;
    /** The peer's rank in {@link #comm}; PROC_NULL (-2): nothing travels, every activation completes at its start. */
    private final int peer;
    private final int userTag;
    private final int partitions;
    /** The user's data, packed: partition {@code i} of this side is bytes {@code [i * partBytes, (i+1) * partBytes)}. */
    private final MessageData data;
    private final long partBytes;
    /** Send side: the block of data tags (offset from MIN_VALUE). Receive side: learnt from the hello. */
    private int base;
    /** Receive side: the sender's partitioning, from its hello (0 until it arrived). */
    private int sendPartitions;
    private long sendPartBytes;
    private final RequestImpl hello;
    private final MemorySegment helloData;
    /** The messages of the send partitions (views of {@link #data}), made once: at init (send), from the hello (receive). */
    private MessageData[] parts;
    /** The latest activation; read by the threads that mark partitions ready or look for arrived ones. */
    private volatile Activation current;

    private Partitioned(Communicator comm, boolean send, int peer, int userTag, int partitions, MessageData data,
            long partBytes, RequestImpl hello, MemorySegment helloData, int base) {
        this.comm = comm;
        this.engine = JmpiRuntime.get().engine();
        this.send = send;
        this.peer = peer;
        this.userTag = userTag;
        this.partitions = partitions;
        this.data = data;
        this.partBytes = partBytes;
        this.hello = hello;
        this.helloData = helloData;
        this.base = base;
        if (send) {
            parts = slices(data, partitions, partBytes);
        }
    }

    private static MessageData[] slices(MessageData data, int n, long bytes) {
        MessageData[] s = new MessageData[n];
        for (int i = 0; i < n; i++) {
            s[i] = Blocks.slice(data, i * bytes, bytes);
        }
        return s;
    }

    private static final int PROC_NULL = -2;

    private static int helloTag(int tag) {
        return -2 - tag;
    }

    /**
     * MPI_Psend_init: reserves data tags and sends the hello; nothing else is sent until a start and a ready.
     *
     * @param dest rank in {@code comm} (not PROC_NULL)
     * @param data the whole buffer, {@code partitions} equal parts of {@code partBytes} bytes
     */
    public static Partitioned sendInit(Communicator comm, MessageData data, int partitions, long partBytes, int dest,
            int tag) {
        checkTag(tag);
        if (dest == PROC_NULL) {
            return new Partitioned(comm, true, PROC_NULL, tag, partitions, data, partBytes, null, null, 0);
        }
        AtomicInteger next = NEXT_BASE.computeIfAbsent((long) comm.collectiveContext() << 32 | comm.worldRank(dest),
                k -> new AtomicInteger());
        int base = Math.floorMod(next.getAndAdd(partitions), DATA_TAGS);
        MemorySegment h = MemorySegment.ofArray(new long[3]);
        h.setAtIndex(ValueLayout.JAVA_LONG, 0, base);
        h.setAtIndex(ValueLayout.JAVA_LONG, 1, partitions);
        h.setAtIndex(ValueLayout.JAVA_LONG, 2, partBytes);
        Engine engine = JmpiRuntime.get().engine();
        RequestImpl hello = engine.isend(new MessageData.SegmentData(h), comm.worldRank(dest),
                comm.collectiveContext(), comm.rank(), helloTag(tag), SendMode.STANDARD);
        return new Partitioned(comm, true, dest, tag, partitions, data, partBytes, hello, h, base);
    }

    /** MPI_Precv_init: posts the receive of the matching send's hello. */
    public static Partitioned recvInit(Communicator comm, MessageData data, int partitions, long partBytes,
            int source, int tag) {
        checkTag(tag);
        if (source == PROC_NULL) {
            return new Partitioned(comm, false, PROC_NULL, tag, partitions, data, partBytes, null, null, 0);
        }
        MemorySegment h = MemorySegment.ofArray(new long[3]);
        RequestImpl hello = JmpiRuntime.get().engine().irecv(new MessageData.SegmentData(h),
                comm.collectiveContext(), source, helloTag(tag));
        return new Partitioned(comm, false, source, tag, partitions, data, partBytes, hello, h, 0);
    }

    private static void checkTag(int tag) {
        if (tag < 0 || tag >= TAG_LIMIT) {
            throw new MpiError(ErrorClass.ERR_TAG, "invalid tag " + tag + " for a partitioned operation (0.."
                    + (TAG_LIMIT - 1) + ")");
        }
    }

    /** Starts an activation; returns the request that completes with it. */
    public RequestImpl start() {
        Activation a = new Activation();
        current = a;
        if (peer == PROC_NULL) {
            // nothing travels: ready partitions are only counted, and a receive has arrived at once
        } else if (send) {
            a.more(partitions);
        } else {
            a.more(1); // the posting of the receives, once the hello is in
            hello.whenDone(() -> postReceives(a));
        }
        a.done(null); // the start's own count
        return a;
    }

    /** Receive side, once the hello is in: one receive per send partition, into its bytes of the user's buffer. */
    private void postReceives(Activation a) {
        if (!a.posted.compareAndSet(false, true)) {
            return; // whenDone may call twice
        }
        if (hello.error() != 0) {
            a.failed(hello.error(), hello.errorMessage());
            return;
        }
        if (sendPartitions == 0) {
            base = (int) helloData.getAtIndex(ValueLayout.JAVA_LONG, 0);
            sendPartitions = (int) helloData.getAtIndex(ValueLayout.JAVA_LONG, 1);
            sendPartBytes = helloData.getAtIndex(ValueLayout.JAVA_LONG, 2);
            if ((long) sendPartitions * sendPartBytes != (long) partitions * partBytes) {
                a.failed(ErrorClass.ERR_TRUNCATE, "partitioned receive of " + (long) partitions * partBytes
                        + " bytes matched a partitioned send of " + (long) sendPartitions * sendPartBytes + " bytes");
                return;
            }
            parts = slices(data, sendPartitions, sendPartBytes);
        }
        a.sendDone = new AtomicIntegerArray(sendPartitions);
        a.more(sendPartitions);
        for (int p = 0; p < sendPartitions; p++) {
            int part = p;
            RequestImpl r = engine.irecv(parts[p], comm.collectiveContext(), peer, dataTag(p));
            r.whenDone(() -> {
                if (a.sendDone.compareAndSet(part, 0, 1)) {
                    a.done(r);
                }
            });
        }
        a.done(null); // the posting's own count
    }

    private int dataTag(int p) {
        return Integer.MIN_VALUE + (int) ((base + (long) p) % DATA_TAGS);
    }

    /** MPI_Pready: sends partition {@code p} of the current activation. */
    public void ready(int p) {
        Activation a = active("MPI_Pready");
        if (!send) {
            throw new MpiError(ErrorClass.ERR_REQUEST, "MPI_Pready on a partitioned receive");
        }
        checkPartition(p);
        if (!a.readied.compareAndSet(p, 0, 1)) {
            throw new MpiError(ErrorClass.ERR_REQUEST, "partition " + p + " was marked ready twice in one activation");
        }
        if (peer == PROC_NULL) {
            return;
        }
        RequestImpl r = engine.isend(parts[p], comm.worldRank(peer),
                comm.collectiveContext(), comm.rank(), dataTag(p), SendMode.STANDARD);
        r.whenDone(() -> {
            if (a.sent.compareAndSet(p, 0, 1)) {
                a.done(r);
            }
        });
    }

    /** MPI_Parrived: whether partition {@code p} of this receive has arrived in the current activation. */
    public boolean arrived(int p) {
        if (send) {
            throw new MpiError(ErrorClass.ERR_REQUEST, "MPI_Parrived on a partitioned send");
        }
        Activation a = current;
        checkPartition(p);
        if (a == null) {
            throw new MpiError(ErrorClass.ERR_REQUEST, "MPI_Parrived on a partitioned receive never started");
        }
        if (a.isDone()) {
            return true;
        }
        AtomicIntegerArray done = a.sendDone;
        if (peer == PROC_NULL) {
            return true;
        }
        if (done == null || partBytes == 0 || sendPartBytes == 0) {
            // the hello is not in yet, or the parts are empty (then only the whole request tells)
            JmpiRuntime.get().progress().poll();
            return a.isDone();
        }
        // the send partitions that cover bytes [p * partBytes, (p + 1) * partBytes)
        long from = p * partBytes;
        long to = from + partBytes;
        int first = (int) (from / sendPartBytes);
        int last = (int) ((to - 1) / sendPartBytes);
        for (int i = first; i <= last; i++) {
            if (done.get(i) == 0) {
                JmpiRuntime.get().progress().poll();
                return done.get(i) != 0 && arrivedAfterPoll(done, i + 1, last);
            }
        }
        return true;
    }

    private static boolean arrivedAfterPoll(AtomicIntegerArray done, int from, int last) {
        for (int i = from; i <= last; i++) {
            if (done.get(i) == 0) {
                return false;
            }
        }
        return true;
    }

    private Activation active(String call) {
        Activation a = current;
        if (a == null || a.isDone() && a.completedSeen()) {
            throw new MpiError(ErrorClass.ERR_REQUEST, call + " on an inactive partitioned request");
        }
        return a;
    }

    private void checkPartition(int p) {
        if (p < 0 || p >= partitions) {
            throw new MpiError(ErrorClass.ERR_ARG, "partition " + p + " out of range (0.." + (partitions - 1) + ")");
        }
    }

    /** Marks the current activation as observed complete (the request became inactive). */
    public void inactive() {
        Activation a = current;
        if (a != null) {
            a.seen = true;
        }
    }

    /** Gives the hello's request back once the operation is freed (it has completed long ago, or never will). */
    public void free() {
        current = null;
    }

    /** One activation: completes when every partition has gone (send) or arrived (receive). */
    private final class Activation extends org.jmpi.runtime.CompositeRequest {
        final java.util.concurrent.atomic.AtomicLong received = new java.util.concurrent.atomic.AtomicLong();
        final AtomicIntegerArray readied = send ? new AtomicIntegerArray(partitions) : null;
        final AtomicIntegerArray sent = send ? new AtomicIntegerArray(partitions) : null;
        final java.util.concurrent.atomic.AtomicBoolean posted = new java.util.concurrent.atomic.AtomicBoolean();
        volatile AtomicIntegerArray sendDone;
        volatile boolean seen;

        Activation() {
            super(JmpiRuntime.get().progress());
            tag = peer == PROC_NULL ? -1 : userTag; // MPI.ANY_TAG for PROC_NULL
            source = peer;
        }

        boolean completedSeen() {
            return seen;
        }

        void more(int n) {
            expect(n);
        }

        void failed(int errorClass, String message) {
            fail(errorClass, message, true);
        }

        /** One part (a partition's message, or null: a count of {@link #more} or the start's). */
        void done(RequestImpl part) {
            if (part != null && !send) {
                received.addAndGet(part.bytes());
            }
            partDone(part);
        }

        @Override
        protected void completing() {
            bytes = send ? 0 : received.get();
        }
    }
}
