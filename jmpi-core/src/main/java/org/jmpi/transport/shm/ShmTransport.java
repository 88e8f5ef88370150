package org.jmpi.transport.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jmpi.bootstrap.Bootstrap;
import org.jmpi.shared.FastCopy;
import org.jmpi.shared.SmallPayload;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.FrameSink;
import org.jmpi.transport.ProtocolHints;
import org.jmpi.transport.SingleCopy;
import org.jmpi.transport.Transport;

/**
 * Frames between the JVM processes of one host through shared memory: one single-producer single-consumer ring per
 * ordered pair of ranks, in the receiver's segment file (layout and publication rules: {@link ShmLayout}).
 *
 * <p><b>Set-up.</b> {@link #open} creates this rank's segment under the configured directory (normally
 * {@code /dev/shm}, mode 0600, storage reserved up front) with an inbound ring for every other rank of the host, and
 * publishes the business card {@code shm-<rank>} = {@code 1,<pid namespace>,<path>}. It does not fence. After the
 * runtime's start-up fence {@link #mapAllPeers()} maps every peer's segment, and the last rank to map a segment
 * removes its file, so a running job normally has no file left in the directory. Files left by ranks killed earlier
 * are removed by {@link #close()} (MPI_Finalize), by the launcher (every name starts with {@code jmpi-<job id>-}), or
 * by the next job on the host ({@link #removeStaleSegments}, which checks the owner pid in each file's header).
 *
 * <p><b>Sending</b> copies the frame into the peer's ring at once when it fits (small messages are one cache line),
 * else queues it by reference; queued frames are written, in order, by later sends and by {@link #poll()} as the
 * peer consumes. Large messages come as many data frames of {@link #chunkBytes(int)} bytes, so the sender fills one
 * part of the ring while the receiver empties another: both copies run at the same time.
 *
 * <p><b>Receiving</b> hands each frame to the sink in place: the payload is a slice of the ring, copied once by the
 * sink into the user's buffer.
 *
 * <p><b>Waiting.</b> {@link #await(long)} sleeps on the segment's doorbell, a futex word: the owner sets it to 1 (a
 * volatile store, a full fence), checks every inbound ring once more, and sleeps; a sender that has published a record
 * reads the doorbell and, if it is 1, clears it and wakes the owner. The sender does not fence between its record's
 * store and the doorbell's load: on x86 that fence waits, once per message, until the cache line just written (the one
 * the owner polls) is back at the sender's core. So a wake can be lost, when the owner arms its doorbell within the
 * few nanoseconds the record sits in the sender's store buffer; a sleep therefore never lasts longer than its
 * timeout, which starts at {@link #PARK_MIN_NANOS} and doubles, while nothing arrives, up to {@link #FUTEX_CAP_NANOS}.
 * Nothing here depends on when the system calls are linked: the send path is the same from the first message. A
 * sender whose frames wait for room while a thread of its process sleeps on the doorbell (or is about to) asks the
 * consumer (a flag in the ring) to ring it when it frees some; the owner asks the same itself before it sleeps.
 * The system calls (futex, process_vm_readv/writev) are linked at the end of the rank's start, in its own thread
 * ({@link #mapAllPeers}, {@link LinuxCalls}): linking costs some 40-100 ms of CPU, which a rank pays once then, not
 * while the program runs. Where there is no futex, the owner parks for 20 us, doubling up to 1 ms while nothing
 * arrives.
 *
 * <p><b>Single copy.</b> {@link #read} copies straight out of a peer's memory with {@code process_vm_readv}. It is
 * offered for a peer only after a probe succeeded: reading a random token from the peer's own mapping of its segment
 * (at the address the peer wrote into the header) must give the token, which proves that the call is allowed and
 * that the pid names the right process (pid namespaces must match as well). Any later failure turns it off for
 * that peer. Until the call is linked the answer is no: a large message sent then takes the two-copy path, none waits
 * for the linker.
 *
 * <p><b>Threading.</b> {@link #send} may be called by any thread: each outbound ring has a lock (a
 * {@code LightLock}), held while writing and never while calling out (completions run after it is released).
 * {@link #poll()} and {@link #await(long)} are called by one thread at a time (the progress owner); a nested
 * {@code poll} from inside the sink returns at once.
 * {@code outbound}, {@code peerSegments} and {@code pids} are filled lazily under the transport's monitor; a thread
 * that reads an {@code outbound} entry without it sees either null (and takes the monitor) or a ring whose fields
 * are final. {@code attached} is a copy-on-write array.
 * {@code wakeRequested} and {@code closed} are volatile.
 */
public final class ShmTransport implements Transport, ProtocolHints, SingleCopy, org.jmpi.transport.Lane {
    /** The bootstrap key under which rank {@code r} publishes its card. */
    public static String cardKey(int rank) {
        return "shm-" + rank;
    }

    /** Sleeps start this short and double up to {@link #PARK_CAP_NANOS} (parks) or {@link #futexCapNanos}. */
    static final long PARK_MIN_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    static final long PARK_CAP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * Longest futex sleep: what a lost wake costs at most (see "Waiting"), and what a peer that cannot ring our
     * doorbell yet (its futex is still being linked) waits.
     */
    static final long FUTEX_CAP_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    /** {@link #FUTEX_CAP_NANOS}, raised by tests that must see a doorbell, not a timeout, wake a sleeper. */
    static volatile long futexCapNanos = FUTEX_CAP_NANOS;
    /** Records taken from one ring per poll pass, so one busy peer cannot starve the others. */
    private static final int BUDGET = 64;
    private static final byte UNKNOWN = 0;
    private static final byte YES = 1;
    private static final byte NO = 2;

    private final Bootstrap bootstrap;
    private final FrameSink sink;
    private final ShmConfig config;
    private final int rank;
    /** World ranks of this host, ascending (includes this rank). */
    private final int[] localRanks;
    /** Local index by world rank, -1 for ranks on other hosts. */
    private final int[] localIndex;
    private final ShmSegment own;
    /** What {@link #eagerLimit} answers, fixed with the ring's size. */
    private final long eagerLimit;
    /** {@link #shortPayloadMax()}: the lane's largest payload, at most half a ring (computed once). */
    private final int shortPayloadMax;
    /** Smallest message {@link #sendByAddress} takes ({@link ShmConfig#addressMin}; never when that is 0). */
    private final long addressMin;
    /** Largest message {@link #sendByAddress} takes ({@link ShmLayout#addressPayloadMax}). */
    private final long addressMax;
    private final MemorySegment doorbell;
    /** The timeout of a futex sleep on {@link #doorbell} (progress owner only). */
    private final MemorySegment sleepTimespec = Arena.ofAuto().allocate(16, 8);
    private final String pidNamespace;
    private final InboundRing[] inbound;
    /** The inbound ring of each world rank of this host, null for the others (and this rank). */
    private final InboundRing[] inboundOf;
    private final OutboundRing[] outbound;
    private volatile OutboundRing[] attached = new OutboundRing[0];
    private final ShmSegment[] peerSegments;
    private final java.util.concurrent.atomic.AtomicIntegerArray pids;
    private final byte[] singleCopy;
    private final long chunk;
    private volatile boolean wakeRequested;
    private volatile boolean closed;
    private boolean polling;
    /** The thread parked in {@link #await} without futex, for {@link #wakeup()}. */
    private volatile Thread sleeper;
    /**
     * Threads mode: the job of this JVM's ranks, whose table of sleepers wakes a rank parked in {@link #await} (its
     * ranks sleep and wake without futex: {@link #await}); null between processes.
     */
    private final org.jmpi.shared.ThreadsJob job;
    /** How long the next sleep lasts at most (progress owner only). */
    private long parkNanos = PARK_MIN_NANOS;

    private ShmTransport(Bootstrap bootstrap, FrameSink sink, ShmConfig config, int[] localRanks, ShmSegment own,
            String pidNamespace) {
        this.bootstrap = bootstrap;
        this.sink = sink;
        this.config = config;
        this.rank = bootstrap.rank();
        this.job = bootstrap instanceof org.jmpi.bootstrap.ThreadsBootstrap tb ? tb.job() : null;
        this.localRanks = localRanks;
        int size = bootstrap.size();
        this.localIndex = new int[size];
        Arrays.fill(localIndex, -1);
        for (int i = 0; i < localRanks.length; i++) {
            localIndex[localRanks[i]] = i;
        }
        this.own = own;
        this.eagerLimit = Math.min(config.eagerLimit(), own.ringDataBytes / 4);
        this.shortPayloadMax = (int) Math.min(eagerLimit, own.ringDataBytes / 2 - ShmLayout.SHORT_PAYLOAD_OFFSET);
        this.addressMin = config.addressMin() == 0 ? Long.MAX_VALUE : config.addressMin();
        this.addressMax = ShmLayout.addressPayloadMax(own.ringDataBytes);
        this.doorbell = own.doorbell();
        this.pidNamespace = pidNamespace;
        this.inbound = new InboundRing[localRanks.length - 1];
        this.inboundOf = new InboundRing[size];
        int k = 0;
        int me = localIndex[rank];
        for (int i = 0; i < localRanks.length; i++) {
            if (localRanks[i] != rank) {
                inbound[k] = new InboundRing(localRanks[i], own.ring(ShmLayout.slot(i, me)), own.ringDataBytes,
                        job != null ? ShmTransport::copyInProcess : this::read);
                inboundOf[localRanks[i]] = inbound[k++];
            }
        }
        this.outbound = new OutboundRing[size];
        this.peerSegments = new ShmSegment[size];
        this.pids = new java.util.concurrent.atomic.AtomicIntegerArray(size);
        this.singleCopy = new byte[size];
        if (!config.singleCopy()) {
            Arrays.fill(singleCopy, NO);
        }
        // at most a quarter of the ring, so that three or four chunks are in flight (one being copied in, one out)
        long maxPayload = Math.min(own.ringDataBytes / 2 - ShmLayout.PAYLOAD_OFFSET, own.ringDataBytes / 4);
        this.chunk = Math.min(config.chunkBytes(), maxPayload & -ShmLayout.ALIGN);
    }

    /**
     * Creates this rank's segment and publishes its card with {@code bootstrap.put}. Does not fence.
     *
     * @param localRanks the world ranks on this host in ascending order, this rank included; the same array on every
     *     rank of the host
     * @throws UncheckedIOException when the segment cannot be created (the caller then uses another transport)
     */
    public static ShmTransport open(Bootstrap bootstrap, FrameSink sink, ShmConfig config, int[] localRanks) {
        int rank = bootstrap.rank();
        if (Arrays.binarySearch(localRanks, rank) < 0) {
            throw new IllegalArgumentException("rank " + rank + " is not among the local ranks "
                    + Arrays.toString(localRanks));
        }
        Path dir = Path.of(config.directory());
        long ring = config.ringBytesFor(localRanks.length);
        ShmSegment seg;
        try {
            seg = ShmSegment.create(dir, bootstrap.jobId(), rank, ShmLayout.rings(localRanks.length), ring);
        } catch (IOException e) {
            throw new UncheckedIOException("shm transport: " + e.getMessage(), e);
        }
        String ns = pidNamespace();
        String card = "1," + ns + "," + seg.path;
        if (card.length() > Bootstrap.MAX_VALUE || !card.chars().allMatch(c -> c >= 33 && c <= 126)) {
            seg.unlink();
            throw new UncheckedIOException(new IOException("shm transport: the segment path " + seg.path
                    + " cannot travel in a business card (spaces or too long)"));
        }
        ShmTransport t = new ShmTransport(bootstrap, sink, config, localRanks, seg, ns);
        org.jmpi.bootstrap.Lifeline.addCleanup(t.unlinkOwn);
        bootstrap.put(cardKey(rank), card);
        if (rank == localRanks[0]) {
            removeStaleSegments(dir); // files of earlier jobs whose ranks were killed
        }
        return t;
    }

    /** Removes this rank's file if it is still there (run by the {@code Lifeline} before a rank halts). */
    private final Runnable unlinkOwn = this::unlinkOwnSegment;

    private void unlinkOwnSegment() {
        own.unlink();
    }

    /**
     * This transport, its own {@link org.jmpi.transport.Lane}, for a peer of this host (threads mode, where it serves
     * the ranks without a selecting transport, which otherwise answers this).
     */
    @Override
    public org.jmpi.transport.Lane lane(int peer) {
        return peer != rank && isLocal(peer) ? this : null;
    }

    /** Whether every rank of this host has published its segment (after the start-up fence: all ranks agree). */
    public boolean everyRankPublished() {
        for (int peer : localRanks) {
            if (bootstrap.get(cardKey(peer)) == null) {
                return false;
            }
        }
        return true;
    }

    /** {@link #mapAllPeers}, in threads mode, where this transport serves the ranks without a selecting one. */
    @Override
    public void afterStartFence() {
        mapAllPeers();
    }

    /**
     * Maps the segment of every other rank of this host now, after the start-up fence (every card is published),
     * instead of on the first frame to each. Each mapping is counted in the peer's header and the last rank to map a
     * segment removes its file (see {@link ShmLayout}): once every rank of the host has done this, no file of the job
     * is left in the directory, whatever is killed later. A peer that cannot be mapped (it uses TCP) is skipped; its
     * file, and ours if it never maps it, are removed by MPI_Finalize, the launcher or a later job.
     */
    public void mapAllPeers() {
        for (int peer : localRanks) {
            if (peer != rank && !closed) {
                try {
                    peerSegment(peer);
                } catch (IOException | RuntimeException e) {
                    // the route to it is decided (TCP) on first contact, as before
                }
            }
        }
        if (localRanks.length > 1 && job == null) { // threads mode sleeps without them (see await)
            LinuxCalls.prepare(); // see LinuxCalls: as this rank's start ends, not while the program runs
        }
    }

    /**
     * Removes from {@code directory} the segment files ({@code jmpi-*}) whose owner process no longer runs (see
     * {@link ShmSegment#isStale}): what ranks killed before they removed their files left behind. Files of live
     * processes, of other users and of other pid namespaces are left alone; errors are ignored.
     *
     * @return the number of files removed
     */
    public static int removeStaleSegments(Path directory) {
        long now = System.currentTimeMillis();
        return removeFiles(directory, f -> {
            String name = f.getFileName().toString();
            return name.startsWith("jmpi-") && name.length() > 5 && Character.isDigit(name.charAt(name.length() - 1))
                    && Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS) && Files.isWritable(f)
                    && ShmSegment.isStale(f, now);
        });
    }

    /** Removes the files of {@code directory} that {@code which} accepts; errors are ignored. Returns the count. */
    private static int removeFiles(Path directory, java.util.function.Predicate<Path> which) {
        int removed = 0;
        try (java.util.stream.Stream<Path> files = Files.list(directory)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                try {
                    if (which.test(f) && Files.deleteIfExists(f)) {
                        removed++;
                    }
                } catch (IOException e) {
                    // not ours to remove, or gone already
                }
            }
        } catch (IOException | RuntimeException e) {
            // no such directory: nothing to remove
        }
        return removed;
    }

    private static String pidNamespace() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString().replaceAll("[^A-Za-z0-9:_.-]",
                    "");
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    @Override
    public String name() {
        return "shm";
    }

    /** The path of this rank's segment file. */
    public Path segmentPath() {
        return own.path;
    }

    /** Data bytes of each inbound ring. */
    public long ringBytes() {
        return own.ringDataBytes;
    }

    /** Whether {@code peer} is on this host (so this transport can reach it once it published its card). */
    public boolean isLocal(int peer) {
        return peer >= 0 && peer < localIndex.length && localIndex[peer] >= 0;
    }

    /**
     * Whether frames to {@code peer} can go through shared memory: it is on this host, published a card and its
     * segment maps (which is done now, once). Not for the hot path.
     */
    public boolean reaches(int peer) {
        if (!isLocal(peer) || peer == rank || closed) {
            return false;
        }
        try {
            peerSegment(peer);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** For {@code --verbose}: ring size and single-copy state towards {@code peer}, in parentheses. */
    public String describe(int peer) {
        byte s = singleCopy[peer];
        return "(ring " + (own.ringDataBytes >> 10) + " KiB, single copy "
                + (s == YES ? "process_vm_readv" : s == NO ? "off" : "not yet probed") + ")";
    }

    // ================================================================================================ hints

    /**
     * {@code jmpi.shm.eager.limit}, but at most a quarter of a ring: a larger eager frame leaves the sender waiting for
     * the receiver to free room behind the one before it (an eager limit of 256 KiB with rings of 256 KiB made a cold
     * 128 KiB ping-pong 72 us instead of 15, 1 MiB with them 1 MiB 185 us instead of 41; with rings of 1 MiB, 256 KiB
     * messages were fast eagerly). The rings of a host with many ranks shrink (see {@link ShmConfig#ringBytesFor}),
     * and the limit with them.
     */
    @Override
    public long eagerLimit(int peer) {
        return eagerLimit;
    }

    @Override
    public long chunkBytes(int peer) {
        return chunk;
    }

    @Override
    public long streamLimit(int peer) {
        return config.streamLimit();
    }

    // ================================================================================================ sending

    @Override
    public void send(int peer, MemorySegment header, MemorySegment payload, Runnable onWritten) {
        int length = FrameLayout.payloadLength(header);
        long actual = payload == null ? 0 : payload.byteSize();
        if (length != actual || header.byteSize() < FrameLayout.HEADER_BYTES) {
            throw new IllegalArgumentException("header says " + length + " payload bytes, payload has " + actual);
        }
        OutboundRing o = outbound[peer];
        if (o == null || closed) {
            o = attachOutbound(peer);
            if (o == null) {
                return;
            }
        }
        ArrayDeque<Runnable> done = null;
        boolean written;
        o.lock.lock();
        try {
            if (o.hasPending()) {
                done = completions();
                o.flushLocked(done);
            }
            written = o.sendLocked(header, payload, onWritten);
            // Frames wait for room. If a thread of ours sleeps on the doorbell (its progress owner, while this thread
            // sends), ask the peer to ring it when it frees some, so that it comes back to write them; room that
            // appeared meanwhile is used at once. If none does, nothing is asked: whoever polls next writes them, and
            // a thread that goes to sleep later asks itself (await: the doorbell is set before it looks at the queues
            // under this lock). Arming on every queued frame would cost both cores a cache-line exchange per message
            // while a fast sender keeps the ring full.
            while (o.hasPending() && ShmLayout.getIntVolatile(doorbell, 0) != 0 && o.armSpaceWakeupLocked()) {
                if (done == null) {
                    done = completions();
                }
                if (!o.flushLocked(done)) {
                    break;
                }
            }
        } finally {
            o.lock.unlock();
        }
        ringDoorbell(o);
        if (written && onWritten != null) {
            onWritten.run();
        }
        if (done != null) {
            runAll(done);
        }
    }

    // ================================================================================================ the lane

    @Override
    public int shortPayloadMax() {
        return shortPayloadMax;
    }

    /**
     * The lane's send: a SHORT record written from the envelope, under the ring's lock, when the ring is attached, has
     * nothing queued and has room; then the doorbell, as {@link #send} rings it.
     */
    @Override
    public boolean sendShort(int peer, int kind, int context, int source, int tag, MemorySegment payload, long offset,
            int length, SmallPayload small) {
        OutboundRing o = outbound[peer];
        if (o == null || closed) {
            return false;
        }
        o.lock.lock();
        try {
            if (!o.writeShortLocked(ShmLayout.envelopeWord(length, kind), ShmLayout.envelopeWord(context, source),
                    ShmLayout.envelopeWord(tag, 0), payload, offset, length, small)) {
                return false;
            }
        } finally {
            o.lock.unlock();
        }
        ringDoorbell(o);
        return true;
    }

    @Override
    public boolean copiesSmall() {
        return true;
    }

    @Override
    public boolean takesByAddress() {
        return addressMin != Long.MAX_VALUE;
    }

    @Override
    public boolean shortNext(int peer) {
        InboundRing in = inboundOf[peer];
        return in != null && in.shortAtHead();
    }

    /**
     * The lane's send by address: an ADDRESS record ({@link ShmLayout}) naming {@code payload} where it is, under the
     * ring's lock, when the message is large enough ({@link ShmConfig#addressMin}) and not too large (at most {@link
     * ShmLayout#addressPayloadMax}: above the lane's short payloads too), in native memory, the peer's
     * memory can be read with {@code process_vm_readv} (then its can read ours: same user, same pid namespace) or is
     * ours (threads mode), and the ring is attached, has nothing queued and has room; then the doorbell, as
     * {@link #send} rings it.
     */
    @Override
    public long sendByAddress(int peer, int kind, int context, int source, int tag, MemorySegment payload) {
        OutboundRing o = outbound[peer];
        long length = payload.byteSize();
        if (o == null || closed || length < addressMin || length > addressMax || !payload.isNative()
                || job == null && !canReadFrom(peer)) {
            return 0;
        }
        long ticket;
        o.lock.lock();
        try {
            ticket = o.writeAddressLocked(ShmLayout.envelopeWord((int) length, kind),
                    ShmLayout.envelopeWord(context, source), ShmLayout.envelopeWord(tag, 0), payload.address());
        } finally {
            o.lock.unlock();
        }
        if (ticket != 0) {
            ringDoorbell(o);
        }
        return ticket;
    }

    @Override
    public boolean wasRead(int peer, long ticket) {
        return closed || outbound[peer].wasRead(ticket);
    }

    /**
     * The lane's receive: the record at the head of {@code peer}'s ring, if it is the frame asked for; then what
     * {@link #poll} does after a record (the head published, a producer waiting for room woken).
     */
    @Override
    public long takeShort(int peer, int kind, int context, int source, int tag, MemorySegment into, long offset,
            long capacity, SmallPayload small) {
        InboundRing in = inboundOf[peer];
        if (in == null || polling || closed) {
            return OTHER;
        }
        long n = in.takeShort(ShmLayout.envelopeWord(0, kind), ShmLayout.envelopeWord(context, source),
                ShmLayout.envelopeWord(tag, 0), into, offset, capacity, small);
        if (n >= 0) {
            afterRecords(in, 1);
        }
        return n;
    }

    @Override
    public boolean arrived(int peer) {
        InboundRing in = inboundOf[peer];
        return in == null || closed || in.ready();
    }

    private static void runAll(ArrayDeque<Runnable> done) {
        Runnable r;
        while ((r = done.poll()) != null) {
            r.run();
        }
    }

    /**
     * Wakes a peer if it sleeps on its doorbell, after a record was published to it (see "Waiting" above: no fence).
     */
    private void ringDoorbell(OutboundRing o) {
        if (doorbellWord(o.doorbellWords) != 0) {
            if (job != null) {
                job.wakeSleeper(o.peer);
            } else {
                wake(o.doorbell);
            }
        }
    }

    /**
     * The sender's half of the doorbell protocol, after a record's release store: whether the receiver's doorbell is
     * armed (its word and the zeros after it, non-zero when it is). No fence for the processor: on x86 a full fence
     * right after the record's store would wait for the cache line the receiver polls to come back to this core, once
     * per message. So the load may pass the store in the store buffer, and a receiver that arms its doorbell in that
     * moment (a few nanoseconds) may miss both the record and the wake: it then wakes by its sleep's timeout (see
     * {@link #await}).
     * The acquire fence emits no instruction on x86 (a load-load barrier on ARM); it is there for the compiler: in
     * HotSpot every fence orders all memory accesses around it, so the load is not moved above the record's store.
     */
    static long doorbellWord(java.nio.LongBuffer bell) {
        VarHandle.acquireFence();
        return bell.get(0);
    }

    /**
     * Wakes the process sleeping on {@code bell} (it armed it, so its futex is linked). If ours is not linked yet the
     * sleeper wakes by its timeout ({@link #FUTEX_CAP_NANOS}).
     */
    private static void wake(MemorySegment bell) {
        LinuxCalls.Calls c = LinuxCalls.get();
        if (c != null && c.futex && ShmLayout.casInt(bell, 0, 1, 0)) {
            c.futexWake(bell, Integer.MAX_VALUE);
        }
    }

    /** First frame to a peer: maps its segment and our ring in it. Reports a failure to the sink, returns null. */
    private OutboundRing attachOutbound(int peer) {
        synchronized (this) {
            OutboundRing o = outbound[peer];
            if (o != null) {
                return o;
            }
            if (closed) {
                sink.onPeerFailure(peer, new IOException("shm transport is closed"));
                return null;
            }
            try {
                ShmSegment seg = peerSegment(peer);
                o = new OutboundRing(peer, seg.ring(ShmLayout.slot(localIndex[rank], localIndex[peer])),
                        seg.ringDataBytes, seg.doorbell());
            } catch (IOException | RuntimeException e) {
                sink.onPeerFailure(peer, e);
                return null;
            }
            outbound[peer] = o;
            OutboundRing[] a = Arrays.copyOf(attached, attached.length + 1);
            a[a.length - 1] = o;
            attached = a;
            return o;
        }
    }

    /** The peer's segment, mapped on first use (under the monitor). */
    private synchronized ShmSegment peerSegment(int peer) throws IOException {
        ShmSegment seg = peerSegments[peer];
        if (seg != null) {
            return seg;
        }
        if (!isLocal(peer) || peer == rank) {
            throw new IOException("rank " + peer + " is not another rank of this host");
        }
        String card = bootstrap.get(cardKey(peer));
        if (card == null) {
            throw new IOException("rank " + peer + " published no " + cardKey(peer) + " business card");
        }
        String[] parts = card.split(",", 3);
        if (parts.length != 3 || !parts[0].equals("1")) {
            throw new IOException("rank " + peer + " published a malformed shm card '" + card + "'");
        }
        seg = ShmSegment.attach(Path.of(parts[2]), peer);
        if (seg.rings != ShmLayout.rings(localRanks.length)) {
            throw new IOException("rank " + peer + "'s segment has " + seg.rings + " rings, this rank counts "
                    + localRanks.length + " ranks on this host");
        }
        pids.set(peer, (int) seg.ownerPid());
        seg.countMapped();
        if (!parts[1].equals(pidNamespace)) {
            singleCopy[peer] = NO;
        }
        peerSegments[peer] = seg;
        return seg;
    }

    // ================================================================================================ progress

    @Override
    public boolean poll() {
        // the loop of pollOthers without its skip: a branch the lane's calls always take (two ranks) and a progress
        // pass never takes would make each compiled caller trap on the other's first call
        if (polling || closed) {
            return false;
        }
        polling = true;
        try {
            boolean any = flushAll();
            for (InboundRing in : inbound) {
                any |= afterRecords(in, in.poll(sink, BUDGET));
            }
            return any;
        } finally {
            polling = false;
        }
    }

    /** Writes what waits to be written to every peer; whether anything was. */
    private boolean flushAll() {
        boolean any = false;
        for (OutboundRing o : attached) {
            if (o.hasPending()) {
                any |= flush(o);
            }
        }
        return any;
    }

    /** True when a frame waits in a ring from a peer or frames wait to be written to one (or when closed). */
    @Override
    public boolean mayHaveWork() {
        if (closed) {
            return true;
        }
        for (OutboundRing o : attached) {
            if (o.hasPending()) {
                return true;
            }
        }
        return anyRecordWaiting();
    }

    /** Whether a record waits in a ring from some peer (one acquire load per ring). */
    private boolean anyRecordWaiting() {
        for (InboundRing in : inbound) {
            if (in.ready()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean passOne(int peer) {
        InboundRing in = inboundOf[peer];
        if (in == null || polling || closed) {
            return false;
        }
        polling = true;
        try {
            return afterRecords(in, in.poll(sink, 1));
        } finally {
            polling = false;
        }
    }

    /** After {@code records} records of {@code in} were consumed: the bookkeeping of a poll; whether there were any. */
    private boolean afterRecords(InboundRing in, int records) {
        if (records == 0) {
            return false;
        }
        parkNanos = PARK_MIN_NANOS;
        // No fence between our new head and the look at the producer's flag, as for the doorbell (see "Waiting"): a
        // producer that asked in that moment misses the wake and looks again when its sleep times out.
        if (in.takeProducerWaiting()) {
            wakePeer(in.peer);
        }
        return true;
    }

    @Override
    public boolean pollOthers(int peer) {
        if (polling || closed) {
            return false;
        }
        polling = true;
        try {
            boolean any = flushAll();
            for (InboundRing in : inbound) {
                if (in.peer == peer) {
                    continue;
                }
                any |= afterRecords(in, in.poll(sink, BUDGET));
            }
            return any;
        } finally {
            polling = false;
        }
    }

    /**
     * Completions collected by {@link #flush}, one queue per thread, reused: a sender waiting for room polls (and
     * flushes) in a loop, which must not allocate per pass. A flush nested in a completion finds the queue in use
     * and takes a fresh one.
     */
    private final ThreadLocal<ArrayDeque<Runnable>> flushCompletions = ThreadLocal.withInitial(ArrayDeque::new);

    /** This thread's completion queue, or a fresh one when it is in use (a send or flush inside a completion). */
    private ArrayDeque<Runnable> completions() {
        ArrayDeque<Runnable> done = flushCompletions.get();
        return done.isEmpty() ? done : new ArrayDeque<>();
    }

    private boolean flush(OutboundRing o) {
        boolean wrote;
        if (!o.lock.tryLock()) {
            return false; // a sender is writing to this ring now; it flushes too
        }
        ArrayDeque<Runnable> done = completions();
        try {
            wrote = o.flushLocked(done);
        } finally {
            o.lock.unlock();
        }
        if (wrote) {
            ringDoorbell(o);
        }
        runAll(done);
        return wrote;
    }

    /** Rings a peer's doorbell unconditionally (it asked to be woken when we freed room). */
    private void wakePeer(int peer) {
        if (job != null) {
            job.wakeSleeper(peer);
            return;
        }
        MemorySegment bell;
        try {
            bell = peerSegment(peer).doorbell();
        } catch (IOException e) {
            return; // it is gone
        }
        wake(bell);
    }

    /** This rank's doorbell word: 1 while its progress owner sleeps on it or is about to (tests). */
    int doorbellWord() {
        return ShmLayout.getIntVolatile(doorbell, 0);
    }

    @Override
    public void await(long nanos) {
        if (closed || nanos <= 0) {
            return;
        }
        if (wakeRequested) {
            wakeRequested = false;
            return;
        }
        // threads mode sleeps without futex: it parks, and a peer that finds the doorbell armed unparks it through
        // the job's table of sleepers, so the ranks of a JVM link no system call (the downcall's linking took 30-40 ms
        // of a threads-mode job's start); an unpark that comes before the park is not lost
        LinuxCalls.Calls c = job == null ? LinuxCalls.get() : null;
        if (job == null && (c == null || !c.futex)) {
            parkWithBackoff(nanos);
            return;
        }
        if (job != null) {
            sleeper = Thread.currentThread();
            job.sleeping(rank, sleeper);
        }
        ShmLayout.setIntVolatile(doorbell, 0, 1);
        try {
            if (mustNotSleep()) {
                return;
            }
            // A wake can be lost (a sender checks the doorbell without a fence, see doorbellWord): the sleep's
            // timeout bounds what that costs. Sleeps start short and grow while nothing arrives.
            long cap = futexCapNanos;
            long t = Math.min(nanos, Math.min(parkNanos, cap));
            parkNanos = Math.min(parkNanos * 2, cap);
            if (job != null) {
                LockSupport.parkNanos(this, t);
            } else {
                c.futexWait(doorbell, 1, t, sleepTimespec);
            }
        } finally {
            ShmLayout.setIntVolatile(doorbell, 0, 0);
            if (job != null) {
                job.sleeping(rank, null);
                sleeper = null;
            }
        }
    }

    /** Something arrived over another transport: the next sleep of {@link #await} starts short again. */
    public void resetSleep() {
        parkNanos = PARK_MIN_NANOS;
    }

    /**
     * Sleeping without futex (not linked yet, or not available): park for a while, longer the longer nothing has
     * happened.
     */
    private void parkWithBackoff(long nanos) {
        for (InboundRing in : inbound) {
            if (in.ready()) {
                return;
            }
        }
        sleeper = Thread.currentThread();
        try {
            if (!wakeRequested) {
                LockSupport.parkNanos(this, Math.min(nanos, parkNanos));
            }
        } finally {
            sleeper = null;
        }
        parkNanos = Math.min(parkNanos * 2, PARK_CAP_NANOS);
    }

    /** With the doorbell armed: is there anything to do, so that sleeping could miss it? */
    private boolean mustNotSleep() {
        if (wakeRequested) {
            wakeRequested = false;
            return true;
        }
        if (anyRecordWaiting()) {
            return true;
        }
        for (OutboundRing o : attached) {
            if (o.armReadWakeup()) {
                return true; // a sender waiting for it may go on (Engine.sendNowWaiting)
            }
            if (o.hasPending()) {
                if (!o.lock.tryLock()) {
                    return true;
                }
                try {
                    if (o.armSpaceWakeupLocked()) {
                        return true;
                    }
                } finally {
                    o.lock.unlock();
                }
            }
        }
        return false;
    }

    @Override
    public void wakeup() {
        wakeRequested = true;
        Thread s = sleeper;
        if (s != null) {
            LockSupport.unpark(s);
        }
        if (!closed && ShmLayout.getIntVolatile(doorbell, 0) != 0) {
            wake(doorbell);
        }
    }

    // ================================================================================================ single copy

    @Override
    public boolean canReadFrom(int peer) {
        byte s = singleCopy[peer];
        if (s == UNKNOWN) {
            if (LinuxCalls.get() == null) {
                return false; // two copies until process_vm_readv is linked
            }
            s = probe(peer);
        }
        return s == YES;
    }

    @Override
    public boolean read(int peer, long remoteAddress, MemorySegment into) {
        return into.isNative() && read(peer, remoteAddress, into.address(), into.byteSize());
    }

    /**
     * Threads mode's reader of ADDRESS records ({@link InboundRing.Reader}): the sender is a thread of this process,
     * so its payload is copied as any memory of ours.
     */
    private static boolean copyInProcess(int peer, long address, long into, long bytes) {
        FastCopy.copy(PROCESS_MEMORY, address, PROCESS_MEMORY, into, bytes);
        return true;
    }

    /**
     * All of this process's address space, for {@link #copyInProcess}: addresses that a rank of this JVM wrote into
     * the ring, of memory it keeps alive until the reader has copied it. One segment, so that a copy makes no objects
     * (a segment for each side, made and resized per message, was 160 bytes of garbage per message when escape
     * analysis did not remove it; AllocationPerCallTest).
     */
    @SuppressWarnings("restricted")
    private static final MemorySegment PROCESS_MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    /** {@link #read} into {@code bytes} bytes at {@code address} (native memory of this process). */
    boolean read(int peer, long remoteAddress, long address, long bytes) {
        if (!canReadFrom(peer)) {
            return false;
        }
        if (bytes == 0) {
            return true;
        }
        if (slowDistance(address, remoteAddress, bytes)) {
            return false;
        }
        if (LinuxCalls.get().processVmRead(pids.get(peer), remoteAddress, address, bytes) != 0) {
            singleCopy[peer] = NO;
            return false;
        }
        return true;
    }

    @Override
    public boolean write(int peer, MemorySegment from, long remoteAddress) {
        if (!from.isNative() || !canReadFrom(peer)) {
            return false;
        }
        if (from.byteSize() == 0) {
            return true;
        }
        if (slowDistance(remoteAddress, from.address(), from.byteSize())) {
            return false;
        }
        if (LinuxCalls.get().processVmWrite(pids.get(peer), from, remoteAddress) != 0) {
            singleCopy[peer] = NO;
            return false;
        }
        return true;
    }

    /** Copies shorter than this are never refused for their distance (see {@link #slowDistance}). */
    static final long SLOW_DISTANCE_MIN_BYTES = 4096;

    /**
     * Whether the kernel would copy {@code bytes} from {@code source} to {@code destination} slowly: when the
     * destination starts 1 to 31 bytes after the source, modulo 4 KiB, process_vm_readv and process_vm_writev took
     * 209-219 us for 512 KiB on the project's machine, against 44-54 us at every other distance (one process
     * copying within itself, every distance from -2 to 40 bytes). It is the same effect as glibc's memmove at short
     * distances ({@link org.jmpi.shared.FastCopy}), inside the kernel's copy. Such a copy is refused, and the message
     * travels through the ring, whose copies avoid it (measured 2026-11-24).
     */
    static boolean slowDistance(long destination, long source, long bytes) {
        long distance = (destination - source) & 4095;
        return bytes >= SLOW_DISTANCE_MIN_BYTES && distance != 0 && distance < 32;
    }

    @Override
    public long splitMin(int peer) {
        return config.splitMin() == 0 ? -1 : config.splitMin();
    }

    /** Reads the peer's probe token out of its own mapping; the answer is remembered. */
    private synchronized byte probe(int peer) {
        if (singleCopy[peer] != UNKNOWN) {
            return singleCopy[peer];
        }
        byte result = NO;
        try {
            ShmSegment seg = peerSegment(peer);
            LinuxCalls.Calls c = LinuxCalls.get();
            if (singleCopy[peer] == UNKNOWN && c != null && c.processVm) {
                long address = seg.memory.get(ShmLayout.LONG, ShmLayout.OWNER_MAP_ADDRESS);
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment got = arena.allocate(ShmLayout.PROBE_TOKEN_BYTES, 8);
                    int err = c.processVmRead(pids.get(peer), address + ShmLayout.PROBE_TOKEN, got);
                    MemorySegment want = seg.memory.asSlice(ShmLayout.PROBE_TOKEN, ShmLayout.PROBE_TOKEN_BYTES);
                    if (err == 0 && got.mismatch(want) == -1) {
                        result = YES;
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            result = NO;
        }
        singleCopy[peer] = result;
        return result;
    }

    // ================================================================================================ close

    /**
     * Writes what is still queued (for at most {@link #FLUSH_MILLIS}), removes this rank's segment file and unmaps
     * every segment. Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FLUSH_MILLIS);
        for (OutboundRing o : attached) {
            while (o.hasPending() && System.nanoTime() < deadline) {
                boolean wrote = flush(o);
                if (!polling) {
                    poll(); // a peer may wait for room in our rings before it frees room in its own
                }
                if (!wrote) {
                    Thread.onSpinWait();
                }
            }
        }
        synchronized (this) {
            closed = true;
        }
        own.unlink();
        org.jmpi.bootstrap.Lifeline.removeCleanup(unlinkOwn);
        // The mappings stay while anything reaches them (ShmSegment: automatic arenas, never closed explicitly): to
        // the process's end between processes, to the job's end in threads mode. The files are gone.
    }

    /**
     * Removes every segment file of job {@code jobId} in {@code directory} (for launchers, after the job's ranks are
     * gone: a rank killed before MPI_Finalize leaves its file behind). Files of other jobs are left alone; errors are
     * ignored.
     *
     * @return the number of files removed
     */
    public static int removeSegments(Path directory, String jobId) {
        String full = ShmSegment.fileName(jobId, 0);
        String prefix = full.substring(0, full.length() - 1); // "jmpi-<job>-"
        return removeFiles(directory, f -> {
            String name = f.getFileName().toString();
            return name.startsWith(prefix) && name.length() > prefix.length()
                    && name.substring(prefix.length()).chars().allMatch(Character::isDigit);
        });
    }

    /** How long {@link #close()} tries to write frames still queued. */
    static final long FLUSH_MILLIS = 2000;

    @Override
    public String toString() {
        return "ShmTransport[rank " + rank + ", " + own.path + "]";
    }
}
