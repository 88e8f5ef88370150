package org.jmpi.transport.tcp;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ProtocolException;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import org.jmpi.bootstrap.Bootstrap;
import org.jmpi.shared.SmallPayload;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.FrameSink;
import org.jmpi.transport.Transport;

/**
 * Frames between JVM processes over TCP, with non-blocking NIO and one {@link Selector} driven by the caller.
 *
 * <p><b>Set-up.</b> {@link #open} binds a listening socket and publishes the business card {@code tcp-<rank>} =
 * {@code host:port} through the bootstrap; it does not fence (the runtime fences once after every transport has put
 * its card). A connection to a peer is made lazily, by the first {@link #send} to it, which reads the peer's card
 * then. The connecting side first sends a hello ({@link TcpLayout}: magic, version, its rank, job id, job secret);
 * the accepting side checks it and closes the connection on any mismatch.
 *
 * <p><b>Ordering rule.</b> Between two ranks of a job there is one connection once both have sent: two while both
 * started connecting before either saw the other's hello, until the higher rank switches to the lower rank's. Frames
 * are read from every connection. Frames are sent on the peer's <em>send connection</em>, chosen under the peer's
 * lock: the first connection that is usable when this rank first needs one, that is, a connection the peer opened to
 * us and whose hello we already accepted, else a new connection we open ourselves. Since all frames from A to B use
 * A's send connection, and TCP keeps a connection's bytes in order, and a connection's frames are written in queue
 * order (see Threading), frames from A arrive at B in the order of A's send calls. The one change: when the higher
 * rank H accepts the hello of the lower rank L's connection while H sends on its own, H sends
 * {@code KIND_TRANSPORT_SWITCHED} first on L's connection, then retires its own ({@code TcpConnection.retireInto}:
 * a last {@code KIND_TRANSPORT_SWITCH} after every frame sent there, later frames go on L's connection) and makes
 * L's connection its send connection. L reads H's frames on L's connection only after the switch frame on H's (it
 * holds them back from the switched frame until then) and then closes H's connection; H forgets it at its end of
 * stream. Two connections cost every message a pure acknowledgement packet each way and the poll a read on the idle
 * one: an 8-byte ping-pong between two namespace hosts took 27 us a round trip after a barrier had made both connect,
 * against 18 on one connection (Open MPI Java 18; 2026-11-30). When a send connection breaks the peer is failed;
 * there is no reconnection. Processes of other jobs (numbered differently on each side) keep both.
 *
 * <p><b>Threading.</b> {@link #poll()} and {@link #await(long)} run in one thread at a time (the progress owner):
 * it alone selects, accepts, finishes connects, reads and calls {@link FrameSink#onFrame}, and registers channels
 * (connections opened by senders wait in {@code pendingRegistrations}, followed by a selector wakeup). {@link #send}
 * may be called by any thread, also from inside {@code onFrame} or {@code onWritten}: it writes the frame straight
 * into the socket when its connection is idle, else leaves it in the connection's queue for whichever thread is
 * writing (see {@link TcpConnection}); it never waits for the socket. No thread of its own: all progress happens in
 * the threads that call in. Per peer: {@code sendConnection} is written once under the peer's monitor and read
 * (volatile) without it; {@code failure} is written once under the monitor, and a non-null value marks the peer dead.
 * {@code closed} is set once by {@link #close()}. {@code awaitingHello} and {@code refusalsLogged} belong to the
 * thread inside {@link #poll()}.
 *
 * <p><b>Strangers.</b> At most {@link #MAX_AWAITING_HELLO} accepted connections may wait for their hello, each for at
 * most 10 s; while that many wait, no more are accepted (they wait in the kernel's backlog, so legitimate peers that
 * all connect at once are only delayed). Refusals are logged for the first 20 only.
 *
 * <p><b>Failures.</b> EOF, a reset, a refused connect or a protocol error on a connection with a known peer fails that
 * peer: its connections are closed, queued frames are dropped (their {@code onWritten} never runs) and
 * {@link FrameSink#onPeerFailure} is called once; every later send to it calls {@code onPeerFailure} again instead of
 * throwing. A connection whose hello is refused is closed without any report on the accepting side; the connecting
 * side sees EOF and fails that peer. Closing the transport reports nothing.
 */
public final class TcpTransport implements Transport, org.jmpi.transport.Lane {
    private static final System.Logger LOG = System.getLogger(TcpTransport.class.getName());
    private static final Consumer<SelectionKey> IGNORE = k -> {};

    /** The bootstrap key under which rank {@code r} publishes its card. */
    public static String cardKey(int rank) {
        return "tcp-" + rank;
    }

    private static final class Peer {
        final int rank;
        /** The connection frames to this peer go on; set once (changed once more by a switch, see "Ordering rule"). */
        volatile TcpConnection sendConnection;
        /** Non-null once the peer failed. */
        volatile Throwable failure;
        /** Non-null once the peer closed a connection after saying goodbye (it finalized): sends now fail. */
        volatile Throwable ended;
        /** The connection we opened, the one it opened (written once each under this; read by the lane without). */
        volatile TcpConnection initiated;

        volatile TcpConnection accepted;
        /**
         * Whether the {@link FrameLayout#KIND_TRANSPORT_SWITCH} of the connection this peer opened has been read
         * (poll thread only; see "Ordering rule").
         */
        boolean switchSeen;

        /** For a process of another job: its card and the hello we send it (null: the world's). */
        final String card;
        final byte[] hello;

        Peer(int rank) {
            this(rank, null, null);
        }

        Peer(int rank, String card, byte[] hello) {
            this.rank = rank;
            this.card = card;
            this.hello = hello;
        }
    }

    /**
     * Decides whether a hello that does not carry this job's id and secret comes from a process of another job that
     * this rank connected to (MPI dynamic processes), and under which peer index.
     */
    @FunctionalInterface
    public interface ForeignAdmission {
        /**
         * @param jobId the job id in the hello
         * @param rank the sender's rank in its own job
         * @param token the secret in the hello (a link token agreed when the two jobs connected)
         * @return the peer index of that process, or -1 to refuse the connection
         */
        int admit(String jobId, int rank, byte[] token);
    }

    private final Bootstrap bootstrap;
    final FrameSink sink;
    private final TcpConfig config;
    /**
     * Largest payload of the lane's frames: half the smaller of the read and write buffers (so that a frame fits behind
     * what the lane left in the read buffer), within the eager limit. 64 KiB with the defaults: OMB-J's sizes up to
     * 64 KiB, whose first size past the lane paid the general path's first compilations (32 KiB, when the lane stopped
     * at 32 KiB less a header: 35-97 us one way against 22.8 before the lane, cold, ungated, 2026-11-30).
     */
    private final int laneMax;
    private final int rank;
    private final byte[] jobId;
    private final byte[] secret;
    private final byte[] hello;
    private final Selector selector;
    private final ServerSocketChannel server;
    private final String card;
    private final Peer[] peers;
    /** Processes of other jobs (indices from the world size up), added and retired at run time. */
    private final ConcurrentHashMap<Integer, Peer> foreign = new ConcurrentHashMap<>();
    private volatile ForeignAdmission admission;
    private final ConcurrentLinkedQueue<TcpConnection> pendingRegistrations = new ConcurrentLinkedQueue<>();
    /**
     * Set after a connection is added to {@link #pendingRegistrations}, cleared by the poll before it takes them: so
     * that a poll with none to register (every poll but a few at the start) reads one field instead of calling into
     * the queue, JDK code the JIT then compiled (C1 with profiling, then C2) in a program's first iterations.
     */
    private volatile boolean registrationsPending;
    private final Set<TcpConnection> connections = ConcurrentHashMap.newKeySet();
    /** Changes of {@link #connections} (racy increments from any thread: only that it changed matters). */
    private volatile int connectionsVersion;
    /**
     * What {@link #poll} reads itself, without the selector (poll thread only): the connections at
     * {@link #directVersion}; used while there are at most {@link #DIRECT_MAX} of them.
     */
    private TcpConnection[] direct = new TcpConnection[0];
    private int directVersion = -1;
    /** Polls since the selector's last look (poll thread only). */
    private int directPasses;
    /** Most connections {@link #poll} reads directly; with more, every poll asks the selector. */
    static final int DIRECT_MAX = 4;
    /** Every this many polls (a power of two) the selector looks too: accepts, connects, writable sockets. */
    static final int SELECT_EVERY = 64;
    /** Accepted connections whose hello has not come yet, oldest first, with their deadlines (poll thread only). */
    private final java.util.ArrayDeque<Object[]> awaitingHello = new java.util.ArrayDeque<>();
    /** Accepted connections without a hello at most; beyond, further ones wait in the kernel's backlog. */
    static final int MAX_AWAITING_HELLO = 64;
    /** Time an accepted connection has to deliver its complete hello. */
    static final long HELLO_TIMEOUT_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    private final Consumer<SelectionKey> onReady = this::onReady;
    /** The connection {@link #pollOthers} leaves alone (poll thread only). */
    private TcpConnection laneSkip;
    /** Connections whose read buffer holds bytes the lane read and left (poll thread only; {@link #leftover}). */
    private TcpConnection[] leftovers = new TcpConnection[4];
    private int leftoverCount;
    /** Polled too by {@link #pollOthers}: the other transport of this rank (shared memory), or null. */
    private volatile Transport alongside;
    /** The header handed to {@code onFrame}: copied from the read buffer (poll thread only). */
    final MemorySegment rxHeader = Arena.ofAuto().allocate(FrameLayout.HEADER_BYTES, 8);

    private volatile boolean closed;
    /**
     * The thread inside {@link #poll()}, else null, so that close() called from onFrame can tell. Written and read
     * plainly: a thread can read its own Thread here only through its own write, i.e. only while it is inside poll.
     */
    private Thread selecting;

    private TcpTransport(Bootstrap bootstrap, FrameSink sink, TcpConfig config, Selector selector,
            ServerSocketChannel server, String card) {
        this.bootstrap = bootstrap;
        this.sink = sink;
        this.config = config;
        this.laneMax = Math.max(0, Math.min(config.eagerLimit(),
                Math.min(config.readBuffer(), config.writeBuffer()) / 2));
        this.rank = bootstrap.rank();
        this.jobId = bootstrap.jobId().getBytes(StandardCharsets.UTF_8);
        this.secret = config.secret().getBytes(StandardCharsets.UTF_8);
        this.hello = TcpLayout.encodeHello(rank, jobId, secret);
        this.selector = selector;
        this.server = server;
        this.card = card;
        this.peers = new Peer[bootstrap.size()];
        for (int i = 0; i < peers.length; i++) {
            peers[i] = new Peer(i);
        }
    }

    /**
     * Listens on the configured address and publishes this rank's business card with {@code bootstrap.put}. Does not
     * fence and does not connect anywhere.
     *
     * @throws UncheckedIOException when the socket cannot be opened or bound
     */
    public static TcpTransport open(Bootstrap bootstrap, FrameSink sink, TcpConfig config) {
        // What only the bootstrap knows: the secret shared through the process manager (Hydra, Slurm), and where to
        // listen when the job spans hosts. Explicit settings (jmpi.secret, jmpi.tcp.host) win.
        if (config.secret().isEmpty() && bootstrap.secret() != null) {
            config = config.withSecret(bootstrap.secret());
        }
        if (config.host().equals(TcpConfig.defaults().host()) && bootstrap.listenHost() != null) {
            config = config.withHost(bootstrap.listenHost());
        }
        Selector selector = null;
        ServerSocketChannel server = null;
        try {
            selector = Selector.open();
            server = ServerSocketChannel.open();
            server.configureBlocking(false);
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            int receiveBuffer = config.receiveBufferToSet();
            if (receiveBuffer > 0) {
                server.setOption(StandardSocketOptions.SO_RCVBUF, receiveBuffer); // inherited
            }
            InetAddress bindAddress = bindAddress(config.host());
            server.bind(new InetSocketAddress(bindAddress, config.port()), Math.max(128, bootstrap.size()));
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            InetAddress published = bindAddress != null ? bindAddress : publicAddress();
            String card = formatCard(published, port);
            TcpTransport t = new TcpTransport(bootstrap, sink, config, selector, server, card);
            server.register(selector, SelectionKey.OP_ACCEPT, null);
            bootstrap.put(cardKey(t.rank), card);
            return t;
        } catch (IOException e) {
            closeQuietly(server);
            closeQuietly(selector);
            throw new UncheckedIOException("tcp transport: cannot listen on " + config.host() + ":" + config.port(), e);
        }
    }

    @Override
    public String name() {
        return "tcp";
    }

    /** Messages up to this many bytes go eagerly ({@link TcpConfig#eagerLimit}, at most a frame's payload). */
    public long eagerLimit() {
        return Math.min(config.eagerLimit(), config.maxFrame());
    }

    /** Data frames carry at most this many bytes ({@link TcpConfig#chunkBytes}, at most a frame's payload). */
    public long chunkBytes() {
        return Math.min(config.chunkBytes(), config.maxFrame());
    }

    /** The card this transport published: {@code host:port}. */
    public String businessCard() {
        return card;
    }

    // ================================================================================================ sending

    @Override
    public void send(int peer, MemorySegment header, MemorySegment payload, Runnable onWritten) {
        int length = FrameLayout.payloadLength(header);
        long actual = payload == null ? 0 : payload.byteSize();
        if (length != actual || header.byteSize() < FrameLayout.HEADER_BYTES) {
            throw new IllegalArgumentException("header says " + length + " payload bytes, payload has " + actual);
        }
        Peer p = peer(peer);
        if (p == null) {
            sink.onPeerFailure(peer, new ClosedChannelException());
            return;
        }
        TcpConnection c = p.sendConnection;
        Throwable failure = p.failure != null ? p.failure : p.ended;
        if (failure != null || closed) {
            sink.onPeerFailure(peer, failure != null ? failure : new ClosedChannelException());
            return;
        }
        if (c == null && (c = sendConnection(p)) == null) {
            return;
        }
        c.send(header, payload, onWritten);
    }

    /** Slow path of the first send to a peer: picks (or opens) the connection frames to it will use. */
    private TcpConnection sendConnection(Peer p) {
        IOException error;
        synchronized (p) {
            if (p.sendConnection != null) {
                return p.sendConnection;
            }
            if (p.failure == null) {
                if (p.accepted != null) {
                    p.sendConnection = p.accepted;
                    return p.accepted;
                }
                try {
                    TcpConnection c = connect(p);
                    p.initiated = c;
                    p.sendConnection = c;
                    return c;
                } catch (IOException e) {
                    error = e;
                }
            } else {
                error = null;
            }
        }
        if (error != null) {
            failPeer(p.rank, error);
        } else {
            sink.onPeerFailure(p.rank, p.failure);
        }
        return null;
    }

    /** Opens a non-blocking connection to a peer (under the peer's monitor). */
    private TcpConnection connect(Peer p) throws IOException {
        int peer = p.rank;
        String peerCard = p.card != null ? p.card : bootstrap.get(cardKey(peer));
        if (peerCard == null) {
            throw new IOException("rank " + peer + " published no " + cardKey(peer) + " business card");
        }
        InetSocketAddress address = parseCard(peerCard);
        SocketChannel ch = SocketChannel.open();
        try {
            ch.configureBlocking(false);
            configure(ch);
            TcpConnection c = new TcpConnection(this, ch, peer, true, config);
            c.stageHello(p.hello != null ? p.hello : hello);
            if (ch.connect(address)) {
                c.connected = true;
            }
            addConnection(c);
            if (closed) {
                c.close();
            }
            pendingRegistrations.add(c);
            registrationsPending = true;
            selector.wakeup();
            return c;
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch);
            throw e instanceof IOException io ? io : new IOException("cannot connect to rank " + peer, e);
        }
    }

    private void configure(SocketChannel ch) throws IOException {
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ch.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        int sendBuffer = config.sendBufferToSet();
        if (sendBuffer > 0) {
            ch.setOption(StandardSocketOptions.SO_SNDBUF, sendBuffer);
        }
        int receiveBuffer = config.receiveBufferToSet();
        if (receiveBuffer > 0) {
            ch.setOption(StandardSocketOptions.SO_RCVBUF, receiveBuffer);
        }
    }

    // ================================================================================================ the lane

    /**
     * The lane to a rank of this job: the frames of blocking eager messages written straight into the connection's
     * write buffer and taken straight out of its read buffer, without a header segment, a request or the matching
     * queues when the receive is the only one waiting (see {@link org.jmpi.transport.Lane}, docs/transports.md).
     */
    @Override
    public org.jmpi.transport.Lane lane(int peer) {
        return peer >= 0 && peer < peers.length && peer != rank ? this : null;
    }

    /** Another transport of this rank that {@link #pollOthers} polls too (shared memory, in a job across hosts). */
    public void pollAlongside(Transport other) {
        this.alongside = other;
    }

    @Override
    public int shortPayloadMax() {
        return laneMax;
    }

    @Override
    public boolean sendShort(int peer, int kind, int context, int source, int tag, MemorySegment payload, long offset,
            int length, SmallPayload small) {
        Peer p = peers[peer];
        TcpConnection c = p.sendConnection;
        return c != null && p.failure == null && p.ended == null && !closed
                && c.laneSend(kind, context, source, tag, payload, offset, length);
    }

    @Override
    public long takeShort(int peer, int kind, int context, int source, int tag, MemorySegment into, long offset,
            long capacity, SmallPayload small) {
        TcpConnection c = inbound(peer);
        return c == null ? OTHER : c.laneTake(kind, context, source, tag, into, offset, capacity);
    }

    @Override
    public boolean arrived(int peer) {
        TcpConnection c = inbound(peer);
        return c == null || c.laneArrived();
    }

    @Override
    public boolean passOne(int peer) {
        TcpConnection c = inbound(peer);
        return c != null && c.deliverBuffered();
    }

    @Override
    public boolean pollOthers(int peer) {
        Transport other = alongside;
        boolean any = other != null && other.poll();
        laneSkip = inbound(peer);
        try {
            return poll() || any;
        } finally {
            laneSkip = null;
        }
    }

    /**
     * Poll thread: {@code c}'s read buffer holds bytes the lane read and did not take. The selector reports only new
     * bytes on a socket, so {@link #poll} hands these over itself ({@link #deliverLeftovers}).
     */
    void leftover(TcpConnection c) {
        if (leftoverCount == leftovers.length) {
            leftovers = java.util.Arrays.copyOf(leftovers, leftovers.length * 2);
        }
        leftovers[leftoverCount++] = c;
    }

    /** Poll thread: hands over what the lane left in read buffers (but {@link #laneSkip}'s); whether any came. */
    private boolean deliverLeftovers() {
        int n = leftoverCount;
        int kept = 0;
        boolean any = false;
        for (int i = 0; i < n; i++) {
            TcpConnection c = leftovers[i];
            leftovers[i] = null;
            if (c != laneSkip && !c.closed && c.onReadable()) {
                any = true;
            }
            if (!c.closed && c.hasLeftover()) {
                leftovers[kept++] = c; // skipped, held back or in the middle of a placement: the next poll looks again
            }
        }
        for (int i = n; i < leftoverCount; i++) { // added meanwhile (a lane call from a frame's handler)
            leftovers[kept++] = leftovers[i];
            leftovers[i] = null;
        }
        leftoverCount = kept;
        return any;
    }

    /**
     * The one connection {@code peer}'s frames arrive on, or null while there is none or there are two (a switch of
     * crossed connections under way: the lane leaves that to the usual way).
     */
    private TcpConnection inbound(int peer) {
        Peer p = peers[peer];
        TcpConnection a = p.accepted;
        TcpConnection i = p.initiated;
        boolean aLive = a != null && !a.closed;
        if (aLive == (i != null && !i.closed)) {
            return null;
        }
        return aLive ? a : i;
    }

    // ================================================================================================ progress

    @Override
    public boolean poll() {
        if (closed) {
            return false;
        }
        selecting = Thread.currentThread();
        try {
            if (!awaitingHello.isEmpty()) {
                dropSlowHellos(System.nanoTime());
            }
            boolean registered = registerPending();
            if (leftoverCount > 0 && deliverLeftovers()) {
                return true;
            }
            if ((++directPasses & (SELECT_EVERY - 1)) != 0 && !registered) {
                int read = readDirectly();
                if (read >= 0) {
                    return read > 0;
                }
            }
            return selector.selectNow(onReady) > 0 || registered;
        } catch (ClosedSelectorException e) {
            if (closed) {
                return false;
            }
            throw e;
        } catch (IOException e) {
            throw new UncheckedIOException("tcp transport: select failed", e);
        } finally {
            selecting = null;
            if (closed) {
                closeQuietly(selector); // close() was called from inside onFrame and left this to us
            }
        }
    }

    /**
     * A poll without the selector, for a rank that talks to a few peers: one read on each connection, which finds
     * what has arrived with one system call instead of the selector's epoll_wait, its bookkeeping and then the read
     * (a waiting rank spins on polls, so this is also how soon an arriving message is seen). Answers how many
     * connections had something, or -1 when the selector must look (no connection or too many, one connecting or
     * waiting to write). Poll thread only.
     */
    private int readDirectly() {
        int v = connectionsVersion;
        if (v != directVersion) {
            int n = connections.size();
            direct = n > 0 && n <= DIRECT_MAX ? connections.toArray(new TcpConnection[0]) : null;
            directVersion = v;
        }
        TcpConnection[] d = direct;
        if (d == null) {
            return -1;
        }
        for (TcpConnection c : d) {
            if (!c.readsDirectly() && !c.closed) {
                return -1;
            }
        }
        int any = 0;
        for (TcpConnection c : d) {
            if (c != laneSkip && !c.closed && c.onReadable()) {
                any++;
            }
        }
        return any;
    }

    private void addConnection(TcpConnection c) {
        connections.add(c);
        connectionsVersion++;
    }

    private void removeConnection(TcpConnection c) {
        connections.remove(c);
        connectionsVersion++;
    }

    @Override
    public void await(long nanos) {
        if (closed || nanos <= 0) {
            return;
        }
        try {
            if (registerPending()) {
                return;
            }
            selector.select(IGNORE, Math.max(1, (nanos + 999_999) / 1_000_000));
        } catch (ClosedSelectorException e) {
            if (!closed) {
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("tcp transport: select failed", e);
        }
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    void wakeupSelector() {
        selector.wakeup();
    }

    private boolean registerPending() {
        if (!registrationsPending) {
            return false;
        }
        registrationsPending = false; // before taking them: one added from now on sets it again
        boolean any = false;
        TcpConnection c;
        while ((c = pendingRegistrations.poll()) != null) {
            any = true;
            if (c.closed) {
                continue;
            }
            int ops = c.connected ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT;
            try {
                c.key = c.channel.register(selector, ops, c);
            } catch (ClosedChannelException | CancelledKeyException e) {
                continue;
            }
            c.registered();
        }
        return any;
    }

    private void onReady(SelectionKey key) {
        if (!(key.attachment() instanceof TcpConnection c)) {
            acceptAll();
            return;
        }
        int ready;
        try {
            ready = key.readyOps();
        } catch (CancelledKeyException e) {
            return;
        }
        if ((ready & SelectionKey.OP_CONNECT) != 0) {
            c.onConnectable();
            return;
        }
        if ((ready & SelectionKey.OP_WRITE) != 0) {
            c.requestFlush();
        }
        if ((ready & SelectionKey.OP_READ) != 0 && !c.closed && c != laneSkip) {
            c.onReadable();
        }
    }

    private void acceptAll() {
        for (; ; ) {
            dropSlowHellos(System.nanoTime());
            if (awaitingHello.size() >= MAX_AWAITING_HELLO) {
                // leave the rest in the kernel's backlog until hellos come in or time out
                SelectionKey k = server.keyFor(selector);
                if (k != null) {
                    k.interestOps(0);
                }
                return;
            }
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(System.Logger.Level.WARNING, "tcp transport of rank " + rank + ": accept failed", e);
                }
                return;
            }
            if (ch == null) {
                return;
            }
            try {
                long now = System.nanoTime();
                ch.configureBlocking(false);
                configure(ch);
                TcpConnection c = new TcpConnection(this, ch, -1, false, config);
                addConnection(c);
                c.key = ch.register(selector, SelectionKey.OP_READ, c);
                awaitingHello.addLast(new Object[] {c, now + HELLO_TIMEOUT_NANOS});
            } catch (IOException e) {
                closeQuietly(ch);
            }
        }
    }

    /** Poll thread: closes the accepted connections whose hello is overdue. */
    private void dropSlowHellos(long now) {
        while (!awaitingHello.isEmpty() && now - (long) awaitingHello.peekFirst()[1] > 0) {
            dropAwaitingHello((TcpConnection) awaitingHello.peekFirst()[0], "no hello within "
                    + java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(HELLO_TIMEOUT_NANOS) + " s");
        }
    }

    /** Poll thread: {@code c} no longer waits for its hello; accepting resumes if it had stopped at the limit. */
    private void noLongerAwaitingHello(TcpConnection c) {
        if (awaitingHello.removeIf(e -> e[0] == c) && awaitingHello.size() < MAX_AWAITING_HELLO && !closed) {
            SelectionKey k = server.keyFor(selector);
            if (k != null && k.isValid() && k.interestOps() == 0) {
                k.interestOps(SelectionKey.OP_ACCEPT);
            }
        }
    }

    private void dropAwaitingHello(TcpConnection c, String why) {
        noLongerAwaitingHello(c);
        if (refusalsLogged++ < 20) {
            LOG.log(System.Logger.Level.WARNING, "tcp transport of rank " + rank + ": closed a connection from "
                    + remote(c) + ": " + why);
        }
        c.close();
        removeConnection(c);
    }

    /** Refusals logged so far (poll thread only): a flood of them is not logged line by line. */
    private int refusalsLogged;

    /**
     * Poll thread: the complete hello of an accepted connection is at {@code off}. Returns {@code true} if the
     * connection is admitted; otherwise closes it.
     */
    boolean helloReceived(TcpConnection c, MemorySegment buf, long off) {
        noLongerAwaitingHello(c);
        int from = TcpLayout.helloRank(buf, off);
        String refusal = null;
        ForeignAdmission other = admission;
        boolean ours = TcpLayout.helloMatches(buf, off, jobId, secret);
        if (!ours && other != null) {
            from = other.admit(new String(TcpLayout.helloJob(buf, off), StandardCharsets.UTF_8), from,
                    TcpLayout.helloSecret(buf, off));
        }
        Peer p = ours && from >= 0 && from < peers.length ? peers[from] : !ours && from >= 0 ? foreign.get(from) : null;
        TcpConnection crossed = null;
        if (!ours && p == null) {
            refusal = "wrong job id or secret";
        } else if (p == null) {
            refusal = "rank " + from + " is not in this job of " + peers.length;
        } else {
            synchronized (p) {
                if (p.failure != null) {
                    refusal = "rank " + from + " has failed before";
                } else if (p.accepted != null) {
                    refusal = "rank " + from + " is connected already";
                } else {
                    c.peer = from;
                    p.accepted = c;
                    if (ours && from < rank && p.initiated != null && p.sendConnection == p.initiated) {
                        crossed = p.initiated; // both connected: the lower rank's connection stays
                    }
                }
            }
        }
        if (refusal != null) {
            if (refusalsLogged++ < 20) {
                LOG.log(System.Logger.Level.WARNING, "tcp transport of rank " + rank + ": refused a connection from "
                        + remote(c) + ": " + refusal);
            }
            c.close();
            removeConnection(c);
            return false;
        }
        if (crossed != null) {
            MemorySegment h = transportFrame(FrameLayout.KIND_TRANSPORT_SWITCHED);
            c.send(h, null, null); // its first frame from us: nobody sends on it before the next line
            crossed.retireInto(c, transportFrame(FrameLayout.KIND_TRANSPORT_SWITCH));
            p.sendConnection = c;
        }
        return true;
    }

    private static MemorySegment transportFrame(int kind) {
        MemorySegment h = MemorySegment.ofArray(new byte[FrameLayout.HEADER_BYTES]);
        FrameLayout.putInt(h, FrameLayout.KIND, kind);
        return h;
    }

    /**
     * Poll thread: a higher rank's connection to this one ended with {@link FrameLayout#KIND_TRANSPORT_SWITCH}; every
     * frame it sent on it has been handed over. Closes it (this side never sends on it) and hands over what the
     * connection this rank opened holds back.
     */
    void switchReceived(TcpConnection c) throws ProtocolException {
        int from = c.peer;
        if (c.initiated || from <= rank || from >= peers.length) {
            throw new ProtocolException("unexpected switch of connections from rank " + from);
        }
        c.close();
        removeConnection(c);
        Peer p = peers[from];
        p.switchSeen = true;
        TcpConnection held = p.initiated;
        if (held != null && !held.closed) {
            held.resume();
        }
    }

    /**
     * Poll thread: a higher rank's first frame on the connection this rank opened; whether the frames after it must
     * wait for the end of the connection that rank opened (its switch not read yet).
     */
    boolean switchedReceived(TcpConnection c) throws ProtocolException {
        int from = c.peer;
        if (!c.initiated || from <= rank || from >= peers.length) {
            throw new ProtocolException("unexpected switch of connections from rank " + from);
        }
        return !peers[from].switchSeen;
    }

    /** A connection this side stopped sending on was closed by the peer, as it should be: forget it. */
    void connectionRetired(TcpConnection c) {
        c.close();
        removeConnection(c);
    }

    /**
     * Graceful close: every connected connection gets a goodbye frame after whatever is queued, and the writes are
     * flushed for at most {@link #GOODBYE_MILLIS}, so that a peer reading the end of the stream knows it is not a
     * failure and has every frame sent before it.
     */
    private void sayGoodbye() {
        MemorySegment bye = transportFrame(FrameLayout.KIND_TRANSPORT_BYE);
        java.util.List<TcpConnection> open = new java.util.ArrayList<>();
        for (TcpConnection c : connections) {
            // also connections still connecting: frames staged on them count as sent already; a retired one gets no
            // goodbye (its successor does), but its last frames must still leave
            if (!c.closed && c.peer >= 0) {
                if (!c.retired()) {
                    c.send(bye, null, null);
                }
                open.add(c);
            }
        }
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(GOODBYE_MILLIS);
        for (TcpConnection c : open) {
            while (!c.closed && c.hasPendingOutput() && System.nanoTime() < deadline) {
                c.requestFlush();
                if (c.hasPendingOutput()) {
                    try {
                        poll();
                    } catch (RuntimeException e) {
                        break;
                    }
                    Thread.onSpinWait();
                }
            }
        }
    }

    /** How long a graceful close waits for queued frames to leave. */
    static final long GOODBYE_MILLIS = 2000;

    /**
     * The peer said goodbye and closed: forget the connection. The peer has not failed (frames still arriving on
     * its other connection are taken), but frames sent to it from now on are reported as undeliverable.
     */
    void connectionEnded(TcpConnection c) {
        int from = c.peer;
        Peer p = from >= 0 ? peer(from) : null;
        if (p != null && p.ended == null) {
            p.ended = new EOFException("rank " + from + " has closed its connections (it finalized)");
        }
        c.close();
        removeConnection(c);
    }

    /** A connection broke or could not be made; fails its peer (if known) or just closes it. Any thread. */
    void connectionFailed(TcpConnection c, IOException cause) {
        int p = c.peer;
        if (p >= 0 && peer(p) != null) {
            failPeer(p, cause);
        } else {
            noLongerAwaitingHello(c); // an accepted connection: only the poll thread gets here
            if (cause instanceof ProtocolException && !closed && refusalsLogged++ < 20) {
                LOG.log(System.Logger.Level.WARNING, "tcp transport of rank " + rank + ": refused a connection from "
                        + remote(c) + ": " + cause.getMessage());
            }
            c.close();
            removeConnection(c);
        }
    }

    private void failPeer(int peer, Throwable cause) {
        Peer p = peer(peer);
        if (p == null) {
            return;
        }
        TcpConnection a;
        TcpConnection b;
        synchronized (p) {
            if (p.failure != null) {
                return;
            }
            p.failure = cause;
            a = p.initiated;
            b = p.accepted;
        }
        for (TcpConnection c : new TcpConnection[] {a, b}) {
            if (c != null) {
                c.close();
                removeConnection(c);
            }
        }
        if (!closed) {
            sink.onPeerFailure(peer, cause);
        }
    }

    // ================================================================================================ other jobs

    private Peer peer(int index) {
        return index < peers.length ? peers[index] : foreign.get(index);
    }

    /** Sets who decides about hellos from processes of other jobs (see {@link ForeignAdmission}). */
    public void setForeignAdmission(ForeignAdmission admission) {
        this.admission = admission;
    }

    /**
     * Makes a process of another job reachable as peer {@code index} (at least the world size): frames to it go to
     * {@code card} ({@code host:port}), and a connection this rank opens to it introduces itself with this rank's
     * world rank, job id and {@code token} instead of the job secret.
     */
    public void addForeign(int index, String card, byte[] token) {
        if (index < peers.length) {
            throw new IllegalArgumentException("peer index " + index + " is a rank of this job");
        }
        foreign.put(index, new Peer(index, card, TcpLayout.encodeHello(rank, jobId, token)));
    }

    /**
     * Forgets a process of another job: its send connection gets a goodbye frame after what is queued (the other side
     * then closes it, which we see as an end of stream and ignore), and later frames to the index are reported as
     * undeliverable.
     */
    public void retireForeign(int index) {
        Peer p = foreign.remove(index);
        if (p == null) {
            return;
        }
        MemorySegment bye = transportFrame(FrameLayout.KIND_TRANSPORT_BYE);
        TcpConnection a;
        TcpConnection b;
        TcpConnection s;
        synchronized (p) {
            p.ended = new EOFException("process " + index + " of another job was disconnected");
            a = p.initiated;
            b = p.accepted;
            s = p.sendConnection;
        }
        for (TcpConnection c : new TcpConnection[] {s, a != s ? a : null, b != s ? b : null}) {
            if (c != null && !c.closed) {
                c.send(bye, null, null);
                if (c.saidBye) { // the other side retired us first: the connection is done in both directions
                    c.requestFlush();
                    c.close();
                    removeConnection(c);
                }
            }
        }
        selector.wakeup();
    }

    /**
     * Poll thread: a goodbye frame arrived on {@code c}. When its peer is a process of another job that this rank has
     * retired already, both sides are done with the connection: close it (returns true).
     */
    boolean byeReceived(TcpConnection c) {
        int from = c.peer;
        if (from >= peers.length && !foreign.containsKey(from)) {
            c.close();
            removeConnection(c);
            return true;
        }
        return false;
    }

    /** Connections open now (accepted, initiated, connecting), for leak checks. */
    public int openConnections() {
        return connections.size();
    }

    // ================================================================================================ close

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        sayGoodbye();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        closeQuietly(server);
        for (TcpConnection c : connections) {
            c.close();
        }
        connections.clear();
        if (selecting != Thread.currentThread()) {
            // Closing a selector inside its own select pass would free the poll array the pass still reads; when
            // close() comes from onFrame, poll() closes the selector on its way out.
            closeQuietly(selector);
        }
    }

    // ================================================================================================ addresses

    /** The address to bind: an interface's first (IPv4 preferred) address, a host's address, or null for "*". */
    static InetAddress bindAddress(String host) throws IOException {
        if (host.equals("*")) {
            return null;
        }
        NetworkInterface nif = NetworkInterface.getByName(host);
        if (nif != null) {
            InetAddress any = null;
            for (Enumeration<InetAddress> e = nif.getInetAddresses(); e.hasMoreElements(); ) {
                InetAddress a = e.nextElement();
                if (a instanceof Inet4Address) {
                    return a;
                }
                if (any == null) {
                    any = a;
                }
            }
            if (any == null) {
                throw new IOException("network interface " + host + " has no address");
            }
            return any;
        }
        return InetAddress.getByName(host);
    }

    /** For a wildcard bind: the first non-loopback IPv4 address of an interface that is up. */
    private static InetAddress publicAddress() throws IOException {
        for (Enumeration<NetworkInterface> e = NetworkInterface.getNetworkInterfaces(); e.hasMoreElements(); ) {
            NetworkInterface nif = e.nextElement();
            if (!nif.isUp() || nif.isLoopback()) {
                continue;
            }
            for (Enumeration<InetAddress> a = nif.getInetAddresses(); a.hasMoreElements(); ) {
                InetAddress address = a.nextElement();
                if (address instanceof Inet4Address) {
                    return address;
                }
            }
        }
        return InetAddress.getLocalHost();
    }

    static String formatCard(InetAddress address, int port) {
        String host = address.getHostAddress();
        return (address instanceof Inet6Address ? "[" + host + "]" : host) + ":" + port;
    }

    static InetSocketAddress parseCard(String card) throws IOException {
        int colon = card.lastIndexOf(':');
        if (colon <= 0) {
            throw new IOException("malformed tcp business card '" + card + "'");
        }
        String host = card.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(card.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IOException("malformed tcp business card '" + card + "'", e);
        }
        return new InetSocketAddress(InetAddress.getByName(host), port);
    }

    private static String remote(TcpConnection c) {
        try {
            return String.valueOf(c.channel.getRemoteAddress());
        } catch (IOException e) {
            return "?";
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                // closing anyway
            }
        }
    }

    @Override
    public String toString() {
        return "TcpTransport[rank " + rank + " at " + card + "]";
    }
}
