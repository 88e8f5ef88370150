package org.jmpi.transport.tcp;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import org.jmpi.shared.FastCopy;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.FrameSink;

/**
 * One TCP connection of a {@link TcpTransport}: a socket, a read buffer from which frames are handed to the sink,
 * and a write side that gathers outgoing frames into a direct buffer (large heap payloads piece by piece; native ones
 * that do not fit are written from their own memory, in pieces when nothing is queued behind them: {@link #piece}).
 *
 * <p>Threading.
 *
 * <ul>
 *   <li><b>Read side</b> ({@code in}, {@code inSeg}, {@code head}, {@code helloDone}, the view cache): only the thread
 *       inside {@link TcpTransport#poll()}.
 *   <li><b>Write side</b> ({@code out}, the current-payload cursor, {@code wantWrite} writes, socket
 *       writes): only the thread that holds the <em>writer flag</em> ({@code writer}, taken by a CAS from 0 to 1,
 *       released by a volatile store of 0). Any thread may become the writer: a sender in {@link #send} (direct
 *       write when the connection is idle) or the poll thread when the socket turns writable. The CAS acquire and
 *       the release store order every writer's work after the previous one's.
 *   <li><b>Handing work over</b>: a thread that cannot take the flag leaves its frame in the {@link SendQueue}, sets
 *       {@code needFlush} and retries the CAS; a writer clears {@code needFlush} right after taking the flag and
 *       reads it again right after releasing it. All three are volatile (sequentially consistent), so either the
 *       requester takes the flag or the holder sees the request: no frame is stranded.
 *   <li>{@code connected} is written once, before the connection is published to senders (accepted connections,
 *       immediate connects) or by the poll thread on connect completion (which then requests a flush). A writer
 *       that sees {@code false} leaves the bytes staged; the poll thread's flush request after setting it to
 *       {@code true} picks them up.
 *   <li>{@code key} is written by the poll thread when it registers the channel; {@code wantWrite} is written by the
 *       writer. Both volatile, and each side re-reads the other's field after writing its own, so OP_WRITE interest
 *       is never lost between registration and the first blocked write.
 *   <li>{@code closed} is set once by whoever closes; a writer that sees it drops everything queued.
 * </ul>
 */
final class TcpConnection {
    private static final VarHandle WRITER;
    private static final VarHandle NEED_FLUSH;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            WRITER = l.findVarHandle(TcpConnection.class, "writer", int.class);
            NEED_FLUSH = l.findVarHandle(TcpConnection.class, "needFlush", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int HEADER = TcpLayout.FRAME_HEADER_BYTES;
    private static final int SHORT = TcpLayout.SHORT_HEADER_BYTES;
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    /** stage(): no room for the header; the frame must wait in the queue. */
    private static final int REJECTED = 0;
    /** stage(): header and payload are in the write buffer; the caller runs the callback. */
    private static final int DONE = 1;
    /** stage(): the header is in the buffer, the payload is the current cursor; its callback runs later. */
    private static final int PENDING = 2;

    /**
     * Payloads of at least this many bytes that have not all arrived with their header are read straight into the
     * receive buffer when the sink has one for them ({@link FrameSink#placement}).
     */
    private static final int PLACE_MIN = 16 << 10;

    /** After a read pass, move a partial frame to the front when less than this much room is left behind it. */
    private static final int MIN_READ_SPACE = 8 << 10;
    /** ... but only when the partial frame is this small (moving large ones costs more than it saves). */
    private static final int COMPACT_LIMIT = 64 << 10;

    private final TcpTransport transport;
    final SocketChannel channel;
    /** Whether this side connected (and sent the hello). */
    final boolean initiated;

    /** The peer's world rank; -1 on an accepted connection until its hello is accepted (poll thread only). */
    volatile int peer;

    volatile SelectionKey key;
    volatile boolean connected;
    volatile boolean closed;
    /** Set by the poll thread when the peer's goodbye frame arrived: an end of stream after it is normal. */
    volatile boolean saidBye;
    /**
     * The connection this one's frames go on from now (set once, then its queue retired): this side stopped sending
     * here ({@link #retireInto}), and the end of the stream that follows is not a failure.
     */
    private volatile TcpConnection successor;

    // ---- write side: guarded by the writer flag ----
    @SuppressWarnings("unused") // through WRITER
    private volatile int writer;

    @SuppressWarnings("unused") // through NEED_FLUSH
    private volatile int needFlush;

    private volatile boolean wantWrite;
    private volatile IOException writeFailure;
    private final SendQueue queue = new SendQueue(16);
    private final ByteBuffer out;
    private final MemorySegment outSeg;
    /** {@link #out}'s words in the frames' byte order, for the lane's header ({@link #laneSend}). */
    private final LittleWords outWords;
    /** A payload being copied into {@code out} piece by piece. */
    private MemorySegment curCopy;

    private long curCopyOffset;
    private Runnable curCopyCallback;

    // ---- read side: poll thread only ----
    private ByteBuffer in;
    private MemorySegment inSeg;
    /** {@link #in}'s words in the frames' byte order, for a look at a header ({@link #laneTake}, {@link #deliver}). */
    private LittleWords inWords;
    private int head;
    private boolean helloDone;
    /**
     * The peer's frames here wait for the ones it sent on its other connection, up to that one's
     * {@link FrameLayout#KIND_TRANSPORT_SWITCH}: none are read or handed over until {@link #resume}.
     */
    private boolean held;
    /**
     * The lane read bytes it did not take ({@link #readOnce}, {@link #laneTake}): the next {@link #onReadable} hands
     * them over even when the socket has nothing new.
     */
    private boolean laneLeft;
    private final int maxFrame;
    private long viewOffset = -1;
    private int viewLength;
    private MemorySegment view;
    /**
     * The payload being read straight into the memory the sink gave for it ({@link FrameSink#placement}), or null;
     * its frame's header in {@link #placedHeader}.
     */
    private ByteBuffer placing;
    /** Heap memory being placed through the read buffer ({@link #placing} is then the read buffer), else null. */
    private MemorySegment placingHeap;
    /** How much of {@link #placingHeap} is filled. */
    private long placingOffset;
    private MemorySegment placedHeader;

    TcpConnection(TcpTransport transport, SocketChannel channel, int peer, boolean initiated, TcpConfig config) {
        this.transport = transport;
        this.channel = channel;
        this.peer = peer;
        this.initiated = initiated;
        this.helloDone = initiated; // only the acceptor reads a hello
        this.connected = !initiated;
        this.maxFrame = config.maxFrame();
        this.out = buffer(config.writeBuffer());
        this.outSeg = MemorySegment.ofBuffer(out);
        this.outWords = new LittleWords(out);
        this.in = buffer(config.readBuffer());
        this.inSeg = MemorySegment.ofBuffer(in);
        this.inWords = new LittleWords(in);
    }

    /**
     * A direct buffer of {@code bytes} seen as a memory segment's, as the views of the payloads that are written from
     * their own memory or read into it ({@link #writeDirect}, {@link #place}) are: then every buffer the socket reads
     * into or writes from is of one kind. The JDK's read and write code branches on the kind (whether there is a
     * segment, and its session's class), and its compiled form was thrown away (deoptimized: "unstable_if" in
     * {@code Buffer.session}, a class check in {@code acquireSession}) when the first payload view came, in the middle
     * of a program's first large messages.
     */
    private static ByteBuffer buffer(int bytes) {
        return MemorySegment.ofBuffer(ByteBuffer.allocateDirect(bytes)).asByteBuffer();
    }

    /** Puts the hello first into the write buffer; called before the connection is published. */
    void stageHello(byte[] hello) {
        out.put(hello);
    }

    // =================================================================================================== write side

    /**
     * Queues or writes one frame; never blocks on the socket. See {@link TcpTransport#send}. On a retired connection
     * ({@link #retireInto}) the frame goes to its successor.
     */
    void send(MemorySegment header, MemorySegment payload, Runnable onWritten) {
        if (successor == null && sendHere(header, payload, onWritten)) {
            return;
        }
        successor.send(header, payload, onWritten);
    }

    /**
     * {@link #send} on this connection; false, having done nothing, when it is retired. A frame that is not refused
     * comes before the retiring frame: staged at once only while nothing is queued and no successor is known, and
     * the retiring frame is queued with the successor known (under the queue's lock, {@link SendQueue#retire}).
     */
    private boolean sendHere(MemorySegment header, MemorySegment payload, Runnable onWritten) {
        if (!WRITER.compareAndSet(this, 0, 1)) {
            if (!queue.add(header, payload, onWritten)) {
                return false;
            }
            requestFlush();
            return true;
        }
        boolean taken = true;
        try {
            clearFlushRequest();
            if (!closed && queue.isEmpty() && curCopy == null && successor == null) {
                int st = stage(header, payload, onWritten);
                if (st == DONE) {
                    // Run while still the writer: a send made by the callback goes to the queue and the flush below
                    // takes it, so chains of sends from callbacks loop here instead of recursing.
                    run(onWritten);
                } else if (st == REJECTED) {
                    taken = queue.add(header, payload, onWritten);
                }
            } else {
                taken = queue.add(header, payload, onWritten);
            }
            doFlush();
        } finally {
            WRITER.setVolatile(this, 0);
        }
        flushIfRequested();
        return taken;
    }

    /**
     * Stops sending here: {@code last} (a header-only frame) goes after every frame sent here so far, and every later
     * frame goes to {@code next}. Any thread.
     */
    void retireInto(TcpConnection next, MemorySegment last) {
        successor = next;
        queue.retire(last);
        requestFlush();
    }

    /** Whether this side stopped sending here ({@link #retireInto}). */
    boolean retired() {
        return successor != null;
    }

    /** Writer only: forget pending flush requests (the pass about to run covers them). */
    private void clearFlushRequest() {
        if ((int) NEED_FLUSH.getVolatile(this) != 0) { // skip the fence of a volatile store when nothing is pending
            NEED_FLUSH.setVolatile(this, 0);
        }
    }

    /** Asks for a flush pass: done now by this thread if no other thread is writing, else by that one. */
    void requestFlush() {
        NEED_FLUSH.setVolatile(this, 1);
        flushIfRequested();
    }

    private void flushIfRequested() {
        while ((int) NEED_FLUSH.getVolatile(this) != 0 && WRITER.compareAndSet(this, 0, 1)) {
            try {
                clearFlushRequest();
                doFlush();
            } finally {
                WRITER.setVolatile(this, 0);
            }
        }
        IOException failure = writeFailure;
        if (failure != null && !closed) {
            transport.connectionFailed(this, failure);
        }
    }

    /**
     * Writer only. Moves queued frames into the write buffer and writes until everything is out (OP_WRITE interest
     * off) or the socket is full (OP_WRITE interest on). A native payload waiting after the write buffer's frames
     * ({@link #stage}) goes out with them in one gathering write (its first {@link #piece}): one system call a message
     * of 16 KiB to 128 KiB instead of two. Across two network namespaces (5 interleaved gated rounds of OMB-J from 16
     * KiB against the build before, 2026-12-06) bidirectional bandwidth gained 13 %, 9 % and 17 % at 32, 64 and 128 KiB
     * (5.7 % over the sizes), window bandwidth 2.9 %, and latency took 0.90 of the time over the sizes (512 KiB 0.55,
     * then in one gathering write of the whole payload). A write error is kept in
     * {@code writeFailure} for the caller to report after releasing the flag.
     */
    private void doFlush() {
        if (closed) {
            dropAll();
            return;
        }
        if (!connected || writeFailure != null) {
            return;
        }
        try {
            for (; ; ) {
                fill();
                if (out.position() == 0) {
                    // fill() stops at a full buffer, an empty queue, or a native payload larger than the buffer
                    if (curCopy == null) {
                        disarm();
                        return;
                    }
                    if (writeDirect(curCopy)) {
                        arm();
                        return;
                    }
                    continue;
                }
                ByteBuffer rest = curCopy != null && curCopy.isNative() ? piece(curCopy) : null;
                boolean blocked;
                out.flip();
                try {
                    if (rest == null) {
                        channel.write(out);
                    } else {
                        gather[0] = out;
                        gather[1] = rest;
                        channel.write(gather); // the headers before it and the native payload, in one system call
                    }
                    blocked = out.hasRemaining() || rest != null && rest.hasRemaining();
                } finally {
                    out.compact(); // back to filling, unwritten bytes first
                    gather[0] = null;
                    gather[1] = null;
                }
                if (rest != null && rest.position() > 0) {
                    curCopyOffset += rest.position();
                    if (curCopyOffset == curCopy.byteSize()) {
                        payloadWritten();
                    }
                }
                if (blocked) {
                    arm();
                    return;
                }
            }
        } catch (IOException e) {
            writeFailure = e;
        }
    }

    /**
     * Writer only, the write buffer empty. Writes the rest of the current payload, native memory, from there; runs its
     * callback once it is all written. Whether the socket took less than all of it.
     */
    private boolean writeDirect(MemorySegment payload) throws IOException {
        ByteBuffer rest = piece(payload);
        channel.write(rest);
        curCopyOffset += rest.position();
        if (rest.hasRemaining()) {
            return true;
        }
        if (curCopyOffset == payload.byteSize()) {
            payloadWritten();
        }
        return false;
    }

    /**
     * The next piece of a native payload, from {@code curCopyOffset}: the rest of it while more frames wait behind it
     * in the queue, else at most the write buffer's size, as a heap payload goes. One system call that hands the
     * socket a whole large payload holds the socket's lock until all of it is queued, and the acknowledgements that
     * arrive meanwhile wait in the socket's backlog, so the data leaves in a burst after the copy; in pieces it leaves
     * while the next piece is copied. A stream of payloads (frames queued behind) keeps the socket busy anyway; there
     * the whole payload's one call moves more. Across two network namespaces (OMB-J from 64 KiB, 2 hosts x 1 rank, 3
     * interleaved gated rounds against the build before, 2026-12-07) an allreduce of 512 KiB-4 MiB on direct buffers
     * took 0.52-0.70 of the time (paired), window bandwidth at 1-4 MiB kept 0.85-0.90 of its rate and gained 1.10-1.19
     * at 256-512 KiB. Against pieces for every payload (3 rounds, same hosts): bidirectional bandwidth at 1-4 MiB
     * 1.13-1.26 times the rate, window bandwidth and latency even (0.94-1.05).
     */
    private ByteBuffer piece(MemorySegment payload) {
        long left = payload.byteSize() - curCopyOffset;
        long n = queue.isEmpty() ? Math.min(left, out.capacity()) : left;
        return payload.asSlice(curCopyOffset, n).asByteBuffer();
    }

    /** Writer only: the current payload is all written (or copied into the write buffer); runs its callback. */
    private void payloadWritten() {
        Runnable cb = curCopyCallback;
        curCopy = null;
        curCopyCallback = null;
        run(cb);
    }

    /** {@link #doFlush}'s gathering write: the write buffer, then a native payload. */
    private final ByteBuffer[] gather = new ByteBuffer[2];

    /**
     * Writer only. Copies queued frames into the write buffer until it is full or the queue empty, but for a large
     * payload ({@link #stage}): that waits until what is before it is out, and then is written from its own memory
     * ({@link #writeDirect}) or copied into the emptied buffer. Runs the callback of every payload fully copied.
     */
    private void fill() {
        for (; ; ) {
            MemorySegment copy = curCopy;
            if (copy != null) {
                int pos = out.position();
                long left = copy.byteSize() - curCopyOffset;
                if ((left >= PLACE_MIN || left > out.limit()) && (copy.isNative() || (curCopyOffset == 0 && pos > 0))) {
                    return; // a large payload goes after what is before it: see stage
                }
                long n = Math.min(left, out.limit() - pos);
                if (n == 0) {
                    return;
                }
                FastCopy.copy(copy, curCopyOffset, outSeg, pos, n);
                out.position(pos + (int) n);
                curCopyOffset += n;
                if (curCopyOffset < copy.byteSize()) {
                    return;
                }
                payloadWritten();
                continue;
            }
            SendQueue.Entry e = queue.peek();
            if (e == null) {
                return;
            }
            Runnable cb = e.onWritten;
            int st = stage(e.header, e.payload, cb);
            if (st == REJECTED) {
                return;
            }
            queue.removeHead();
            if (st == DONE) {
                run(cb);
            }
        }
    }

    /**
     * Writer only, with nothing older pending. Puts one frame into the write buffer, or its header and the payload as
     * the cursor that {@link #fill} copies piece by piece (or that is written from its own memory:
     * {@link #writeDirect}). A payload the receiver reads straight into place ({@link #PLACE_MIN} bytes or more) is
     * not copied behind its header: a native one is written from its own memory (with the frames before it,
     * {@link #doFlush}), a Java array's copied into the emptied write buffer. Copied behind the header, a ping-pong
     * of 96 or 128 KiB between two network namespaces took 73-82 us one way on direct buffers and 73-77 us on arrays;
     * so, 49-53 and 56-64 (Open MPI Java 52-61 and 59-68; ungated, 2026-11-30).
     */
    private int stage(MemorySegment header, MemorySegment payload, Runnable onWritten) {
        int pos = out.position();
        if (out.limit() - pos < HEADER) {
            return REJECTED;
        }
        pos += putHeader(header, pos);
        long length = payload == null ? 0 : payload.byteSize();
        if (length == 0) {
            out.position(pos);
            return DONE;
        }
        if (length <= out.limit() - pos && length < PLACE_MIN) {
            FastCopy.copy(payload, 0, outSeg, pos, length);
            out.position(pos + (int) length);
            return DONE;
        }
        out.position(pos);
        curCopy = payload;
        curCopyOffset = 0;
        curCopyCallback = onWritten;
        return PENDING;
    }

    /**
     * Writes {@code header} at {@code pos} of the write buffer, as a short header when its frame travels short
     * ({@link FrameLayout#travelsShort}; not a transport's own frame, whose kind is negative); answers the bytes
     * written.
     */
    private int putHeader(MemorySegment header, int pos) {
        long first = FrameLayout.getLong(header, FrameLayout.PAYLOAD); // the payload's length, then the kind
        if (first >= 0 && FrameLayout.travelsShort(header)) {
            LittleWords w = outWords;
            w.put(pos, first | (long) TcpLayout.SHORT_KIND << 32);
            w.put(pos + 8, FrameLayout.getLong(header, FrameLayout.CONTEXT));
            w.put(pos + 16, FrameLayout.getLong(header, FrameLayout.TAG));
            return SHORT;
        }
        FastCopy.copy(header, 0, outSeg, pos, HEADER);
        return HEADER;
    }

    private void dropAll() {
        queue.clear();
        curCopy = null;
        curCopyCallback = null;
        out.clear();
    }

    private void arm() {
        if (!wantWrite) {
            wantWrite = true;
            SelectionKey k = key;
            if (k != null) {
                try {
                    k.interestOpsOr(SelectionKey.OP_WRITE);
                } catch (CancelledKeyException e) {
                    return;
                }
                transport.wakeupSelector(); // a select in progress would not see the new interest
            }
        }
    }

    private void disarm() {
        if (wantWrite) {
            wantWrite = false;
            SelectionKey k = key;
            if (k != null) {
                try {
                    k.interestOpsAnd(~SelectionKey.OP_WRITE);
                } catch (CancelledKeyException e) {
                    // closed meanwhile
                }
            }
        }
    }

    private static void run(Runnable callback) {
        if (callback != null) {
            callback.run();
        }
    }

    // ======================================================================================================= lane

    /**
     * The lane's send ({@code TcpTransport#sendShort}): the short frame an eager send writes (header from the
     * envelope), put straight into the write buffer and written, when this connection is idle (no
     * other writer, nothing queued, room for it); else false, having done nothing.
     */
    boolean laneSend(int kind, int context, int source, int tag, MemorySegment payload, long offset, int length) {
        if (successor != null || !connected || !WRITER.compareAndSet(this, 0, 1)) {
            return false;
        }
        boolean sent = false;
        try {
            clearFlushRequest();
            int pos = out.position();
            if (successor == null && !closed && queue.isEmpty() && curCopy == null
                    && out.limit() - pos >= SHORT + length) {
                LittleWords w = outWords;
                w.put(pos, (long) (kind | TcpLayout.SHORT_KIND) << 32 | length);
                w.put(pos + 8, (long) source << 32 | (context & 0xffff_ffffL));
                w.put(pos + 16, tag & 0xffff_ffffL); // flags 0
                if (length > 0) {
                    FastCopy.copy(payload, offset, outSeg, pos + SHORT, length);
                }
                out.position(pos + SHORT + length);
                sent = true;
            }
            doFlush();
        } finally {
            WRITER.setVolatile(this, 0);
        }
        flushIfRequested();
        return sent;
    }

    /**
     * Poll thread: the lane's receive ({@code TcpTransport#takeShort}). Takes the next frame if it is all here (read
     * once more if not) and is a short eager frame of {@code kind} (or {@code kind | Lane.ANSWERED}) with this envelope
     * and at most {@code capacity} payload bytes: its payload goes into {@code into} at {@code offset}. Answers its
     * length (with {@code Lane.TAKEN_ANSWERED} for an answered kind), {@code Lane.NOTHING}, or {@code Lane.OTHER} when
     * the next frame is another one or this connection cannot tell now ({@link #deliverBuffered} then hands it over).
     */
    long laneTake(int kind, int context, int source, int tag, MemorySegment into, long offset, long capacity) {
        long whole = laneFrame();
        if (whole != 0) {
            return whole;
        }
        LittleWords w = inWords;
        long first = w.get(head);
        int length = (int) first;
        int k = (int) (first >>> 32);
        int shortKind = kind | TcpLayout.SHORT_KIND;
        if ((k & ~org.jmpi.transport.Lane.ANSWERED) != shortKind || length > capacity
                || w.get(head + 8) != ((long) source << 32 | (context & 0xffff_ffffL))
                || w.get(head + 16) != (tag & 0xffff_ffffL)) {
            return org.jmpi.transport.Lane.OTHER;
        }
        if (length > 0) {
            FastCopy.copy(inSeg, head + SHORT, into, offset, length);
        }
        head += SHORT + length;
        if (head == in.position()) {
            head = 0;
            in.clear();
        } else {
            leftBehind();
        }
        return k == shortKind ? length : length | org.jmpi.transport.Lane.TAKEN_ANSWERED;
    }

    /**
     * Poll thread: 0 when a whole frame is at the head of the read buffer (read once more if not), else
     * {@code Lane.NOTHING} or {@code Lane.OTHER} (this connection cannot tell now: the usual way decides).
     */
    private long laneFrame() {
        if (held || placing != null || !helloDone || closed || !connected) {
            return org.jmpi.transport.Lane.OTHER;
        }
        for (int reads = 0; ; reads++) {
            int avail = in.position() - head;
            long first = avail >= SHORT ? inWords.get(head) : 0; // the payload's length, then the kind
            int length = (int) first;
            if (length < 0) {
                return org.jmpi.transport.Lane.OTHER; // malformed: deliver() fails the peer
            }
            int whole = TcpLayout.headerBytes(first) + length;
            if (avail >= SHORT && avail >= whole) {
                return 0;
            }
            if (reads > 0 || readOnce() <= 0) { // (readOnce makes room when little is left)
                // a frame that cannot fit behind the head: deliver() grows the buffer
                return closed || head + whole > in.capacity() ? org.jmpi.transport.Lane.OTHER
                        : org.jmpi.transport.Lane.NOTHING;
            }
        }
    }

    /** Poll thread: whether bytes the lane read wait to be handed over. */
    boolean hasLeftover() {
        return laneLeft;
    }

    /**
     * Poll thread: the lane leaves bytes in the read buffer; the transport's next poll hands them over even if the
     * socket never turns readable again ({@code TcpTransport#leftover}).
     */
    private void leftBehind() {
        if (!laneLeft) {
            laneLeft = true;
            transport.leftover(this);
        }
    }

    /**
     * Poll thread: whether a frame's header is here (or a short header's worth of the next frame) or arrives with one
     * read (the lane's look while it waits).
     */
    boolean laneArrived() {
        return held || closed || placing != null || !connected || in.position() - head >= SHORT || readOnce() != 0;
    }

    /**
     * Poll thread: hands every whole frame read so far to the sink (after {@link #laneTake} answered OTHER), as a poll
     * would; whether there was one.
     */
    boolean deliverBuffered() {
        if (held || placing != null || closed || in.position() - head < SHORT) {
            return false;
        }
        int before = head;
        int end = in.position();
        try {
            deliver();
        } catch (ProtocolException e) {
            transport.connectionFailed(this, e);
            return true;
        }
        return closed || head != before || in.position() != end;
    }

    /**
     * Poll thread: one read into the read buffer, for the lane; the bytes read, 0, or -1 at the end of the stream or a
     * failure (handled as a poll handles them: the connection is closed).
     */
    private int readOnce() {
        int pending = in.position() - head;
        if (head > 0 && in.capacity() - in.position() < MIN_READ_SPACE && pending <= COMPACT_LIMIT) {
            compact(pending); // as deliver() makes room
        }
        if (!in.hasRemaining()) {
            return 0;
        }
        try {
            int n = channel.read(in);
            if (n > 0) {
                leftBehind();
            } else if (n < 0) {
                endOfStream();
            }
            return n;
        } catch (IOException e) {
            readFailed(e);
            return -1;
        }
    }

    // ==================================================================================== poll-thread entry points

    /**
     * Poll thread, right after registering the channel (also from await, so no flush and no callbacks here). A
     * connection that connected at once was flushed by its sender; if that write blocked before the key existed,
     * the OP_WRITE interest it asked for is added now.
     */
    void registered() {
        if (connected && wantWrite) {
            try {
                key.interestOpsOr(SelectionKey.OP_WRITE);
            } catch (CancelledKeyException e) {
                // closed meanwhile
            }
        }
    }

    /** Poll thread: OP_CONNECT is ready. */
    void onConnectable() {
        try {
            if (!channel.finishConnect()) {
                return;
            }
            key.interestOps(SelectionKey.OP_READ);
        } catch (IOException | CancelledKeyException e) {
            transport.connectionFailed(this, e instanceof IOException io ? io : new IOException(e));
            return;
        }
        connected = true;
        requestFlush();
    }

    /**
     * Poll thread: OP_READ is ready, or the poll looks without the selector ({@link TcpTransport#poll}). Reads what is
     * there and hands every complete frame to the sink; whether it read anything (or the connection ended).
     */
    boolean onReadable() {
        boolean any = false;
        try {
            if (laneLeft && placing == null && !held) {
                laneLeft = false;
                any = true;
                if (!deliver()) {
                    return true;
                }
            }
            for (int round = 0; round < 8 && !held; round++) {
                ByteBuffer target = placing != null ? placing : in;
                int space = target.remaining();
                int n = channel.read(target);
                if (n != 0) {
                    any = true;
                }
                if (n > 0 && target == placing) {
                    if (placementComplete() && !placed()) {
                        return true;
                    }
                    if (n < space) {
                        return true;
                    }
                    continue;
                }
                if (n < 0) {
                    endOfStream();
                    return true;
                }
                // a full buffer (frames the lane left there, or a frame larger than it) is delivered, made room in or
                // grown before the next read
                if ((n == 0 && space > 0) || !deliver() || n < space) {
                    return any;
                }
            }
        } catch (IOException e) {
            readFailed(e);
            return true;
        }
        return any;
    }

    /** The peer closed its side: the end of a goodbye, else a failure. */
    private void endOfStream() {
        if (saidBye) {
            transport.connectionEnded(this);
        } else {
            readFailed(new EOFException(
                    peer >= 0 ? "connection closed by rank " + peer : "connection closed before hello"));
        }
    }

    /** Moves the {@code pending} bytes from {@code head} to the start of the read buffer. */
    private void compact(int pending) {
        FastCopy.copy(inSeg, head, inSeg, 0, pending);
        head = 0;
        in.position(pending);
    }

    /** The read side ended or broke: the peer failed, unless this side had stopped sending here (then it is over). */
    private void readFailed(IOException e) {
        if (successor != null) {
            transport.connectionRetired(this);
        } else {
            transport.connectionFailed(this, e);
        }
    }

    /** Poll thread: the frames held back ({@link #held}) may go now; hands over those already read. */
    void resume() {
        if (!held) {
            return;
        }
        held = false;
        try {
            deliver();
        } catch (ProtocolException e) {
            transport.connectionFailed(this, e);
        }
    }

    /** Poll thread: whether {@link TcpTransport#poll} may read this connection without the selector. */
    boolean readsDirectly() {
        return connected && !wantWrite && !closed && key != null;
    }

    /** Returns {@code false} when the connection (or the transport) was closed meanwhile. */
    private boolean deliver() throws ProtocolException {
        int end = in.position();
        if (!helloDone) {
            int length = TcpLayout.helloLength(inSeg, head, end - head);
            if (length == 0) {
                return true;
            }
            if (!transport.helloReceived(this, inSeg, head)) {
                return false;
            }
            head += length;
            helloDone = true;
        }
        FrameSink sink = transport.sink;
        MemorySegment header = transport.rxHeader;
        int from = peer;
        int need = SHORT; // the bytes the frame at the head needs
        for (; ; ) {
            int available = end - head;
            if (available < SHORT) {
                need = SHORT;
                break;
            }
            long first = inWords.get(head); // the payload's length, then the kind
            int length = (int) first;
            if (length < 0 || length > maxFrame) {
                throw new ProtocolException("frame with a payload of " + length + " bytes from rank " + from
                        + " (limit " + TcpConfig.MAX_FRAME + "=" + maxFrame + ")");
            }
            int h = TcpLayout.headerBytes(first);
            need = h + length;
            if (available < need) {
                if (available >= h && length >= PLACE_MIN) {
                    readHeader(head, h, header);
                    MemorySegment into = sink.placement(from, header);
                    if (into != null) {
                        place(into, header, h, available - h);
                        return true;
                    }
                }
                break;
            }
            int at = head;
            head += need;
            int kind = (int) (first >>> 32);
            if (kind < 0) {
                if (!transportFrame(kind)) {
                    return false;
                }
                if (held) {
                    break;
                }
                continue;
            }
            if (h == HEADER || !shortTaken(sink, at, kind & ~TcpLayout.SHORT_KIND, length)) {
                readHeader(at, h, header);
                sink.onFrame(from, header, length == 0 ? EMPTY : payloadView(at + h, length));
            }
            if (closed) {
                return false;
            }
        }
        int pending = end - head;
        if (pending == 0) {
            head = 0;
            in.clear();
            return true;
        }
        int capacity = in.capacity();
        if (need > capacity) {
            grow(need, end);
        } else if (head + need > capacity || (capacity - end < MIN_READ_SPACE && pending <= COMPACT_LIMIT)) {
            compact(pending);
        }
        return true;
    }

    /**
     * Whether the sink took the short frame at {@code at} in the read buffer as such ({@link FrameSink#onShort}: its
     * fields as values, without a header to copy and read field by field). A frame with flags comes with its whole
     * header instead ({@code onShort} has no flags).
     */
    private boolean shortTaken(FrameSink sink, int at, int kind, int length) {
        LittleWords w = inWords;
        long envelope = w.get(at + 8); // the context, then the source
        long tagWord = w.get(at + 16); // the tag, then the flags
        return tagWord >>> 32 == 0 && sink.onShort(peer, kind, (int) envelope, (int) (envelope >>> 32), (int) tagWord,
                inSeg, at + SHORT, length);
    }

    /**
     * Copies the header of the frame at {@code at} in the read buffer ({@code h} bytes there) into {@code header}, a
     * short one as the whole header it stands for.
     */
    private void readHeader(int at, int h, MemorySegment header) {
        FastCopy.copy(inSeg, at, header, 0, h);
        if (h == SHORT) {
            FrameLayout.putInt(header, FrameLayout.KIND,
                    FrameLayout.getInt(header, FrameLayout.KIND) & ~TcpLayout.SHORT_KIND);
            FrameLayout.restoreShort(header);
        }
    }

    /**
     * A frame of the transport's own ({@code kind} below zero) was read; false when the connection was closed. Out of
     * {@link #deliver}'s loop, which every frame runs.
     */
    private boolean transportFrame(int kind) throws ProtocolException {
        switch (kind) {
            case FrameLayout.KIND_TRANSPORT_BYE -> {
                saidBye = true;
                return !transport.byeReceived(this);
            }
            case FrameLayout.KIND_TRANSPORT_SWITCH -> {
                transport.switchReceived(this);
                return false;
            }
            case FrameLayout.KIND_TRANSPORT_SWITCHED -> {
                held = transport.switchedReceived(this);
                return true;
            }
            default -> throw new ProtocolException("frame of unknown transport kind " + kind + " from rank " + peer);
        }
    }

    /**
     * A frame whose payload has not all arrived and for which the sink has memory ({@link FrameSink#placement}):
     * copies the {@code have} bytes already read there, empties the read buffer and makes the rest of the payload go
     * there from the socket ({@link #placing}): straight into native memory; into the read buffer and from there on
     * after each read for heap memory (a Java array), so that each piece is copied while it is in the cache and while
     * the next one arrives, not all at the end. Out of the read loop, which asks for placement at every large frame
     * that is not all there (an eager one too): what the JIT compiles for that loop stays small.
     */
    private void place(MemorySegment into, MemorySegment header, int h, int have) {
        if (placedHeader == null) {
            placedHeader = java.lang.foreign.Arena.ofAuto().allocate(HEADER, 8);
        }
        FastCopy.copy(header, 0, placedHeader, 0, HEADER);
        FastCopy.copy(inSeg, head + h, into, 0, have);
        head = 0;
        in.clear();
        if (into.isNative()) {
            placing = into.asByteBuffer();
            placing.position(have);
        } else {
            placingHeap = into;
            placingOffset = have;
            placing = in;
            in.limit((int) Math.min(in.capacity(), into.byteSize() - have));
        }
    }

    /**
     * After a read into {@link #placing}: whether the placed payload is complete. Through the read buffer (heap memory)
     * what was read is copied on and the buffer emptied for the next piece.
     */
    private boolean placementComplete() {
        MemorySegment into = placingHeap;
        if (into == null) {
            return !placing.hasRemaining();
        }
        int n = in.position();
        FastCopy.copy(inSeg, 0, into, placingOffset, n);
        placingOffset += n;
        in.clear();
        long left = into.byteSize() - placingOffset;
        if (left == 0) {
            return true;
        }
        in.limit((int) Math.min(in.capacity(), left));
        return false;
    }

    /** The placed payload is complete: hands its frame to the sink. False when the connection was closed meanwhile. */
    private boolean placed() {
        placing = null;
        placingHeap = null;
        transport.sink.onPlaced(peer, placedHeader);
        return !closed;
    }

    private MemorySegment payloadView(long offset, int length) {
        if (offset != viewOffset || length != viewLength) {
            view = inSeg.asSlice(offset, length);
            viewOffset = offset;
            viewLength = length;
        }
        return view;
    }

    private void grow(int need, int end) {
        long limit = (long) maxFrame + HEADER;
        long size = Math.max(need, Math.min(2L * in.capacity(), limit));
        size = Math.min(limit, (size + 4095) & ~4095L);
        size = Math.max(size, need);
        ByteBuffer bigger = buffer((int) size);
        MemorySegment biggerSeg = MemorySegment.ofBuffer(bigger);
        int pending = end - head;
        FastCopy.copy(inSeg, head, biggerSeg, 0, pending);
        bigger.position(pending);
        in = bigger;
        inSeg = biggerSeg;
        inWords = new LittleWords(bigger);
        head = 0;
        viewOffset = -1;
        view = null;
    }

    // ======================================================================================================= close

    /**
     * True while frames or bytes wait to be written. Exact only when no other thread is sending (as during the
     * transport's graceful close).
     */
    boolean hasPendingOutput() {
        return !queue.isEmpty() || out.position() > 0 || curCopy != null;
    }

    /** Closes the socket; returns {@code false} if it was closed already. Any thread. */
    boolean close() {
        synchronized (this) {
            if (closed) {
                return false;
            }
            closed = true;
        }
        try {
            channel.close(); // also cancels the key
        } catch (IOException e) {
            // nothing left to do with it
        }
        requestFlush(); // lets the writer (this thread or the current one) drop what is queued
        return true;
    }

    @Override
    public String toString() {
        return "TcpConnection[peer=" + peer + (initiated ? ", initiated" : ", accepted") + ", " + channel + "]";
    }
}
