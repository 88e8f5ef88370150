package org.jmpi.launcher.pmi;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jmpi.bootstrap.ProcessMapping;
import org.jmpi.bootstrap.pmi.Pmi1Bootstrap;
import org.jmpi.bootstrap.pmi.Pmi1Message;

/**
 * A PMI-1 server over TCP for the ranks of one host of a job (jmpirun's proxy runs one per host), or for every rank
 * of a job whose launcher gives no PMI (jmpirun's rendezvous server, {@code JMPI_KVS}). It answers in Hydra's
 * dialect, the one MPICH's client and ours both parse, so a rank sees the exchange of
 * {@code mpiexec.hydra -pmi-port}:
 *
 * <pre>
 * -> cmd=initack pmiid=1 jmpi_secret=S         &lt;- cmd=initack, cmd=set size=N, cmd=set rank=1, cmd=set debug=0
 * -> cmd=init pmi_version=1 pmi_subversion=1   &lt;- cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0
 * -> cmd=get_maxes                             &lt;- cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024
 * -> cmd=get_appnum                            &lt;- cmd=appnum appnum=A
 * -> cmd=get_my_kvsname                        &lt;- cmd=my_kvsname kvsname=K
 * -> cmd=get_universe_size                     &lt;- cmd=universe_size size=N
 * -> cmd=put kvsname=K key=k value=v           &lt;- cmd=put_result rc=0 msg=success
 * -> cmd=barrier_in                            &lt;- cmd=barrier_out          (once every rank entered)
 * -> cmd=get kvsname=K key=k                   &lt;- cmd=get_result rc=0 msg=success value=v
 *                                                 or cmd=get_result rc=-1 msg=key_k_not_found value=unknown
 * -> cmd=abort exitcode=7 error_msg=m          (no reply; the listener hears of it)
 * -> cmd=finalize                              &lt;- cmd=finalize_ack
 * </pre>
 *
 * <p><b>Who may connect.</b> The first line of a connection must be {@code initack}. When the server has a secret, the
 * line must carry it ({@code jmpi_secret=}, compared in constant time), or else the connection must belong to a
 * process this server trusts (a rank process or one of its descendants, checked through {@code /proc}: see
 * {@link PeerCredentials}); that second way admits unmodified MPICH programs, which cannot send a secret. Anything
 * else is closed at once and reported to {@link Listener#refused}; it does not disturb the job.
 *
 * <p><b>Fences.</b> A barrier completes when every rank served here that is still running has entered it. The
 * server then hands the puts made since the last barrier to the {@link Fence} (jmpirun's proxy forwards them to the
 * front end, which answers once every host has entered) and makes the answer visible to {@code get}. With
 * {@link Options#survivorsContinue} a rank that exited ({@link #rankExited}) no longer counts, so survivors of a
 * failure are not stuck in a barrier.
 * {@code PMI_process_mapping} is answered from the options (default {@code (vector,(0,1,N))}).
 *
 * <p><b>Failure notices.</b> A connection whose {@code initack} carries {@code jmpi_notices=1} is a rank's notice
 * channel: {@link #notifyFailure} writes {@code cmd=jmpi_failed rank=R reason=...} to each.
 *
 * <p>An unknown command, a {@code spawn} (not supported yet) or a malformed request from an admitted rank is
 * reported to the listener as a protocol error; jmpirun then ends the job, as Hydra does.
 *
 * <p>Threading: one platform daemon thread accepts, one platform daemon thread per connection serves it. Not virtual
 * threads: a virtual thread runs only when the JVM's scheduler gives it a carrier (and, for a socket, when the
 * scheduler's poller, itself a virtual thread, runs), and a JVM that embeds this server (jmpirun's, a test's, a
 * program's using {@code org.jmpi.launcher.Launcher}) may keep every carrier busy; a rank's request, such as its
 * {@code finalize}, would then wait unanswered for as long as that lasts, and the job would not end. All shared state (the two
 * key-value maps, the barrier state, per-rank flags, the notice channels, {@code closed}) is guarded by {@code lock};
 * {@code changed} is signalled whenever a barrier completes, a connection ends, a rank exits or the server closes.
 * The listener and the fence are called without the lock held. Notice lines are written under {@code lock}.
 */
public final class PmiServer implements AutoCloseable {
    /** Longest request line accepted (Slurm stops at 1024; we are lenient but bounded). */
    static final int MAX_LINE = 64 * 1024;
    /** Connections that have not proved the job secret yet, at most; further clients wait in the backlog. */
    static final int MAX_UNAUTHENTICATED = 64;
    /** Time a new connection has to send its complete {@code initack} line (slow senders are cut off). */
    static final long AUTH_TIMEOUT_MILLIS = 10_000;
    /** Keys the key-value space holds at most (visible and pending); a put beyond gets {@code rc=-1}. */
    static final int MAX_KEYS = 1 << 20;
    /** Bytes of keys and values the key-value space holds at most. */
    static final long MAX_KVS_BYTES = 256L << 20;
    /** Largest job size a rendezvous client may announce ({@code size=N} in its initack). */
    static final int MAX_JOB_SIZE = 1 << 20;
    /** Refused connections reported to the listener one by one; after that only every 1000th (a flood). */
    private static final int REFUSALS_REPORTED = 20;

    /** What the launcher hears from the server. Called from connection threads; must not block for long. */
    public interface Listener {
        /** A rank sent {@code cmd=abort}. */
        void aborted(int rank, int exitCode, String message);

        /** A rank broke the protocol (unknown command, spawn, bad or repeated id); the job should end. */
        void protocolError(int rank, String message);

        /** A connection was refused (no or wrong secret, not a process of the job). Default: ignore. */
        default void refused(String remote, String reason) {}

        /**
         * A rank sent a line on its notice channel ({@code cmd=jmpi_agree ...}, see
         * {@link org.jmpi.bootstrap.pmi.NoticeChannel}). Default: ignore (the rank then waits until the job ends).
         */
        default void agreementRequest(int rank, String line) {}
    }

    /** Completes a barrier across hosts: given the puts made here, answers with every put of the job's fence. */
    @FunctionalInterface
    public interface Fence {
        CompletableFuture<Map<String, String>> fence(Map<String, String> puts);

        /** A job served entirely by this server: the puts are all there is. */
        Fence LOCAL = CompletableFuture::completedFuture;
    }

    /** Settings of a server. Not thread-safe. */
    public static final class Options {
        private int size;
        private final String kvsName;
        private String secret;
        private Supplier<Collection<ProcessHandle>> trusted;
        private int[] localRanks;
        private String mapping;
        private int[] appnums;
        private Fence fence = Fence.LOCAL;
        private boolean dynamicSize;
        private boolean survivorsContinue;
        private InetAddress bind = InetAddress.getLoopbackAddress();
        private Listener listener;
        private Duration authTimeout = Duration.ofMillis(AUTH_TIMEOUT_MILLIS);

        private Options(int size, String kvsName) {
            this.size = size;
            this.kvsName = Objects.requireNonNull(kvsName);
        }

        /** Connections must prove this secret (or come from a trusted process); null: no check (tests only). */
        public Options secret(String s) {
            this.secret = s;
            return this;
        }

        /** Processes whose connections are admitted without the secret (ranks started here, with descendants). */
        public Options trusted(Supplier<Collection<ProcessHandle>> processes) {
            this.trusted = processes;
            return this;
        }

        /** The world ranks served here (default: all). */
        public Options localRanks(int[] ranks) {
            this.localRanks = ranks.clone();
            return this;
        }

        /** The {@code PMI_process_mapping} value (default: every rank on node 0). */
        public Options mapping(String m) {
            this.mapping = m;
            return this;
        }

        /** The MPMD application number of each world rank (default 0 for all). */
        public Options appnums(int[] a) {
            this.appnums = a.clone();
            return this;
        }

        public Options fence(Fence f) {
            this.fence = Objects.requireNonNull(f);
            return this;
        }

        /** The job size is not known in advance: the first {@code initack} brings it ({@code size=N}). */
        public Options dynamicSize() {
            this.dynamicSize = true;
            return this;
        }

        /**
         * Whether ranks that exited stop counting in barriers (jmpirun --continue-on-failure). Default false: a
         * barrier waits for every rank, as under Hydra, and the launcher ends the job when a rank fails.
         */
        public Options survivorsContinue(boolean b) {
            this.survivorsContinue = b;
            return this;
        }

        /** Address to listen on (default loopback). */
        public Options bind(InetAddress address) {
            this.bind = Objects.requireNonNull(address);
            return this;
        }

        /** Time a new connection has to send its complete {@code initack} (default 10 s; tests shorten it). */
        public Options authTimeout(Duration d) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("authentication timeout must be positive, not " + d);
            }
            authTimeout = d;
            return this;
        }

        public Options listener(Listener l) {
            this.listener = l;
            return this;
        }

        public PmiServer build() throws IOException {
            return new PmiServer(this);
        }
    }

    /** Options for a job of {@code size} ranks (ignored with {@link Options#dynamicSize()}). */
    public static Options options(int size, String kvsName) {
        return new Options(size, kvsName);
    }

    private final String kvsName;
    private final byte[] secret;
    private final Supplier<Collection<ProcessHandle>> trusted;
    private final String fixedMapping;
    private final int[] appnums;
    private final Fence fence;
    private final Listener listener;
    private final boolean dynamicRanks;
    private final boolean survivorsContinue;
    private final long authTimeoutNanos;
    private final ServerSocket server;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, String> visible = new HashMap<>();
    private final Map<String, String> pending = new HashMap<>();
    private final Map<Integer, RankState> ranks = new HashMap<>();
    private final List<Socket> sockets = new ArrayList<>();
    private final List<OutputStream> noticeChannels = new ArrayList<>();
    /**
     * Every failure notice sent so far (guarded by {@code lock}): a rank that opens its notice channel late (it was
     * still starting when another rank died) hears of them first.
     */
    private final List<String> failureNotices = new ArrayList<>();
    private int size;
    private int barrierArrived;
    private long barrierGeneration;
    private boolean fenceInFlight;
    private String fenceFailure;
    private boolean closed;
    private Thread acceptor;
    /** Connections accepted that have not passed authentication yet (guarded by lock). */
    private int unauthenticated;
    /** Connections refused so far (guarded by lock). */
    private long refusals;
    /** Bytes of keys and values in {@code visible}, and in {@code pending} (guarded by lock). */
    private long visibleBytes;
    private long pendingBytes;

    /** Per-rank flags (guarded by lock). */
    private static final class RankState {
        boolean connected;
        boolean disconnected;
        boolean initialized;
        boolean finalized;
        boolean exited;
        boolean inBarrier;
    }

    /**
     * A server for all {@code size} ranks of a job on loopback, without authentication (tests, and code that checks
     * peers some other way). Call {@link #start()} to accept connections.
     */
    public PmiServer(int size, String kvsName, Listener listener) throws IOException {
        this(options(size, kvsName).listener(listener));
    }

    private PmiServer(Options o) throws IOException {
        if (!o.dynamicSize && o.size < 1) {
            throw new IllegalArgumentException("a job needs at least one rank, not " + o.size);
        }
        this.kvsName = o.kvsName;
        this.secret = o.secret == null ? null : o.secret.getBytes(StandardCharsets.UTF_8);
        this.trusted = o.trusted;
        this.fixedMapping = o.mapping;
        this.appnums = o.appnums;
        this.fence = o.fence;
        this.listener = o.listener != null ? o.listener : new Listener() {
            @Override
            public void aborted(int rank, int exitCode, String message) {}

            @Override
            public void protocolError(int rank, String message) {}
        };
        this.size = o.dynamicSize ? -1 : o.size;
        this.dynamicRanks = o.dynamicSize && o.localRanks == null;
        this.survivorsContinue = o.survivorsContinue;
        this.authTimeoutNanos = o.authTimeout.toNanos();
        if (o.localRanks != null) {
            for (int r : o.localRanks) {
                ranks.put(r, new RankState());
            }
        } else if (!o.dynamicSize) {
            for (int r = 0; r < o.size; r++) {
                ranks.put(r, new RankState());
            }
        }
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(o.bind, 0), 128);
    }

    /** Starts accepting connections. */
    public void start() {
        acceptor = Thread.ofPlatform().daemon().name("jmpi-pmi-accept").start(this::acceptLoop);
    }

    /** The port ranks connect to. */
    public int port() {
        return server.getLocalPort();
    }

    /** {@code host:port}, the value of {@code PMI_PORT} (or {@code JMPI_KVS}). */
    public String address() {
        InetAddress a = server.getInetAddress();
        String h = a.getHostAddress();
        return (h.contains(":") ? "[" + h + "]" : h) + ":" + port();
    }

    public String kvsName() {
        return kvsName;
    }

    /** Whether the rank has sent {@code cmd=init}. */
    public boolean initialized(int rank) {
        lock.lock();
        try {
            RankState s = ranks.get(rank);
            return s != null && s.initialized;
        } finally {
            lock.unlock();
        }
    }

    /** Whether the rank has sent {@code cmd=finalize}. */
    public boolean finalized(int rank) {
        lock.lock();
        try {
            RankState s = ranks.get(rank);
            return s != null && s.finalized;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the rank's connection has ended (or it never connected), at most {@code timeout}. A rank process
     * that has exited has had its socket closed by the kernel, so this returns as soon as the server has read what
     * the rank sent before it died (an abort, say).
     *
     * @return true if no connection of that rank is open any more
     */
    public boolean awaitDisconnected(int rank, Duration timeout) throws InterruptedException {
        long left = timeout.toNanos();
        lock.lock();
        try {
            RankState s = ranks.get(rank);
            while (s != null && s.connected && !s.disconnected && !closed) {
                if (left <= 0) {
                    return false;
                }
                left = changed.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The rank's process has ended. With {@link Options#survivorsContinue} it no longer takes part in barriers (which
     * may complete now); otherwise barriers keep waiting for it (the launcher is ending the job).
     */
    public void rankExited(int rank) {
        lock.lock();
        try {
            RankState s = ranks.get(rank);
            if (s == null || s.exited || !survivorsContinue) {
                return;
            }
            s.exited = true;
            if (s.inBarrier) {
                s.inBarrier = false;
                barrierArrived--;
            }
        } finally {
            lock.unlock();
        }
        maybeStartFence();
    }

    /**
     * Tells every rank that opened a notice channel that {@code rank} failed. Spaces in the reason become
     * {@code _} on the wire.
     */
    public void notifyFailure(int rank, String reason) {
        String line = "cmd=jmpi_failed rank=" + rank + " reason=" + wireText(reason);
        lock.lock();
        try {
            failureNotices.add(line);
            broadcastNotice(line);
        } finally {
            lock.unlock();
        }
    }

    /** Writes {@code line} to every rank's notice channel. */
    public void broadcastNotice(String line) {
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.US_ASCII);
        lock.lock();
        try {
            for (OutputStream out : noticeChannels) {
                try {
                    out.write(bytes);
                    out.flush();
                } catch (IOException e) {
                    // that rank is gone too
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private static String wireText(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            sb.append(c > 32 && c < 127 ? c : '_');
        }
        return sb.isEmpty() ? "failed" : sb.toString();
    }

    private void acceptLoop() {
        while (true) {
            lock.lock();
            try {
                // at the limit, further clients wait in the kernel's backlog until one authenticates or times out
                while (unauthenticated >= MAX_UNAUTHENTICATED && !closed) {
                    changed.await();
                }
            } catch (InterruptedException e) {
                return; // closed
            } finally {
                lock.unlock();
            }
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            lock.lock();
            try {
                if (closed) {
                    closeQuietly(s);
                    return;
                }
                unauthenticated++;
                sockets.add(s);
            } finally {
                lock.unlock();
            }
            Thread.ofPlatform().daemon().name("jmpi-pmi-conn").start(() -> serve(s));
        }
    }

    /** Serves one connection until it ends. */
    private void serve(Socket s) {
        int rank = -1;
        boolean noticeChannel = false;
        OutputStream out = null;
        boolean authenticated = false;
        try (s) {
            s.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(s.getInputStream());
            out = s.getOutputStream();
            long deadline = System.nanoTime() + authTimeoutNanos;
            String first = readFirstLine(s, in, deadline);
            while (first != null && first.isBlank()) {
                first = readFirstLine(s, in, deadline);
            }
            if (first == null) {
                return;
            }
            Pmi1Message m = Pmi1Message.parse(first);
            if (!m.command().equals("initack")) {
                refuse(s, "the first request was not cmd=initack");
                return;
            }
            String why = authenticate(s, m);
            if (why != null) {
                refuse(s, why);
                return;
            }
            s.setSoTimeout(0);
            authenticated = true;
            lock.lock();
            try {
                unauthenticated--;
                changed.signalAll(); // the accept loop may wait for a free slot
            } finally {
                lock.unlock();
            }
            int id = m.intValue("pmiid", -1);
            if ("1".equals(m.get("jmpi_notices"))) {
                if (!knownRank(id)) {
                    refuse(s, "notice channel for unknown rank " + id);
                    return;
                }
                noticeChannel = true;
                lock.lock();
                try {
                    send(out, "cmd=initack");
                    if (!failureNotices.isEmpty()) {
                        send(out, failureNotices.toArray(String[]::new));
                    }
                    noticeChannels.add(out);
                } finally {
                    lock.unlock();
                }
                for (String line = readLine(in); line != null; line = readLine(in)) {
                    if (line.startsWith("cmd=jmpi_agree ")) {
                        listener.agreementRequest(id, line);
                    }
                }
                return;
            }
            String err = claim(id, m.get("size"));
            if (err != null) {
                listener.protocolError(id, err + " in '" + first + "'");
                return;
            }
            rank = id;
            int n;
            lock.lock();
            try {
                n = size;
            } finally {
                lock.unlock();
            }
            send(out, "cmd=initack", "cmd=set size=" + n, "cmd=set rank=" + rank, "cmd=set debug=0");
            for (String line = readLine(in); line != null; line = readLine(in)) {
                if (line.isBlank()) {
                    continue;
                }
                if (!handle(rank, Pmi1Message.parse(line), line, s, in, out)) {
                    return;
                }
            }
        } catch (SocketTimeoutException e) {
            refuse(s, "no complete initack within " + TimeUnit.NANOSECONDS.toMillis(authTimeoutNanos) + " ms");
        } catch (IOException e) {
            // the rank went away; the launcher learns of it from the process exit
        } finally {
            lock.lock();
            try {
                if (!authenticated) {
                    unauthenticated--;
                }
                if (rank >= 0) {
                    RankState st = ranks.get(rank);
                    if (st != null) {
                        st.disconnected = true;
                        if (st.inBarrier && survivorsContinue) {
                            st.inBarrier = false;
                            barrierArrived--;
                        }
                    }
                }
                if (noticeChannel) {
                    noticeChannels.remove(out);
                }
                sockets.remove(s);
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** Null when the connection may proceed, else why not. */
    private String authenticate(Socket s, Pmi1Message initack) {
        if (secret == null) {
            return null;
        }
        String offered = initack.get(Pmi1Bootstrap.SECRET_KEY);
        if (offered != null) {
            return MessageDigest.isEqual(secret, offered.getBytes(StandardCharsets.UTF_8)) ? null
                    : "wrong job secret";
        }
        if (trusted != null && PeerCredentials.belongsTo(s, trusted.get())) {
            return null;
        }
        return "no job secret, and not a process of this job";
    }

    private void refuse(Socket s, String reason) {
        long n;
        lock.lock();
        try {
            n = ++refusals;
        } finally {
            lock.unlock();
        }
        if (n <= REFUSALS_REPORTED || n % 1000 == 0) {
            listener.refused(String.valueOf(s.getRemoteSocketAddress()), reason + (n <= REFUSALS_REPORTED ? ""
                    : " (" + n + " connections refused so far)"));
        }
    }

    private boolean knownRank(int id) {
        lock.lock();
        try {
            return ranks.containsKey(id) || (size > 0 && id >= 0 && id < size && ranks.isEmpty());
        } finally {
            lock.unlock();
        }
    }

    /** Registers the connection of rank {@code id}; null on success, else the error. */
    private String claim(int id, String sizeField) {
        lock.lock();
        try {
            if (size < 0) {
                int n = -1;
                try {
                    n = sizeField == null ? -1 : Integer.parseInt(sizeField);
                } catch (NumberFormatException e) {
                    // reported below
                }
                if (n < 1 || n > MAX_JOB_SIZE) {
                    return "the first rank did not say the job size (size=N, 1 to " + MAX_JOB_SIZE + ")";
                }
                size = n;
            } else if (sizeField != null && !sizeField.equals(Integer.toString(size))) {
                return "rank says the job has " + sizeField + " ranks, but it has " + size;
            }
            if (id < 0 || id >= size) {
                return "bad PMI id " + id + " (job of " + size + " ranks)";
            }
            RankState st = ranks.get(id);
            if (st == null) {
                if (!dynamic()) {
                    return "PMI id " + id + " is not a rank of this host";
                }
                st = new RankState();
                ranks.put(id, st);
            }
            if (st.connected) {
                return "repeated PMI id " + id;
            }
            st.connected = true;
            return null;
        } finally {
            lock.unlock();
        }
    }

    private boolean dynamic() {
        return dynamicRanks;
    }

    /** Handles one request; returns false when the connection should end. */
    private boolean handle(int rank, Pmi1Message m, String line, Socket s, InputStream in, OutputStream out)
            throws IOException {
        switch (m.command()) {
            case "init" -> {
                if (m.intValue("pmi_version", 1) != 1) {
                    send(out, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=-1");
                    listener.protocolError(rank, "rank asked for PMI version " + m.get("pmi_version")
                            + "; jmpirun serves PMI-1 only");
                    return false;
                }
                setFlag(rank, true);
                send(out, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0");
            }
            case "get_maxes" -> send(out, "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024");
            case "get_appnum" -> send(out, "cmd=appnum appnum=" + (appnums == null ? 0 : appnums[rank]));
            case "get_my_kvsname" -> send(out, "cmd=my_kvsname kvsname=" + kvsName);
            case "get_universe_size" -> send(out, "cmd=universe_size size=" + currentSize());
            case "put" -> {
                String key = m.get("key");
                String value = m.get("value");
                if (key == null || value == null || !kvsName.equals(m.get("kvsname"))) {
                    send(out, "cmd=put_result rc=-1 msg=bad_put_request");
                } else {
                    boolean stored;
                    lock.lock();
                    try {
                        stored = store(key, value);
                    } finally {
                        lock.unlock();
                    }
                    send(out, stored ? "cmd=put_result rc=0 msg=success"
                            : "cmd=put_result rc=-1 msg=key-value_space_full");
                }
            }
            case "get" -> {
                String key = m.get("key");
                String value = key == null || !kvsName.equals(m.get("kvsname")) ? null : lookup(key);
                if (value == null) {
                    send(out, "cmd=get_result rc=-1 msg=key_" + key + "_not_found value=unknown");
                } else {
                    send(out, "cmd=get_result rc=0 msg=success value=" + value);
                }
            }
            case "barrier_in" -> {
                String failed = barrier(rank, s, in);
                if (failed != null) {
                    send(out, "cmd=barrier_out rc=-1 msg=" + wireText(failed));
                    return false;
                }
                send(out, "cmd=barrier_out");
            }
            case "finalize" -> {
                setFlag(rank, false);
                send(out, "cmd=finalize_ack");
            }
            case "abort" -> {
                String msg = m.get("jmpi_msg") != null ? Pmi1Message.decodeText(m.get("jmpi_msg"))
                        : m.get("error_msg") != null ? m.get("error_msg") : m.get("message");
                listener.aborted(rank, m.intValue("exitcode", 1), msg == null ? "" : msg);
            }
            case "spawn" -> {
                for (String l = readLine(in); l != null && !l.trim().equals("endcmd"); l = readLine(in)) {
                    // skip the rest of the multi-line request
                }
                send(out, "cmd=spawn_result rc=-1 msg=spawn_is_not_supported_by_jmpirun_yet");
                listener.protocolError(rank, "MPI_Comm_spawn is not supported by jmpirun yet");
            }
            default -> {
                listener.protocolError(rank, "unknown PMI command: " + line);
                return false;
            }
        }
        return true;
    }

    private int currentSize() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    private String lookup(String key) {
        lock.lock();
        try {
            if (key.equals("PMI_process_mapping")) {
                return fixedMapping != null ? fixedMapping : ProcessMapping.format(new int[Math.max(1, size)]);
            }
            return visible.get(key);
        } finally {
            lock.unlock();
        }
    }

    private void setFlag(int rank, boolean init) {
        lock.lock();
        try {
            RankState s = ranks.get(rank);
            if (s != null) {
                if (init) {
                    s.initialized = true;
                } else {
                    s.finalized = true;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Number of ranks a barrier waits for: the ranks served here that have not exited (caller holds lock). */
    private int participants() {
        if (dynamic()) {
            int gone = 0;
            for (RankState s : ranks.values()) {
                if (s.exited) {
                    gone++;
                }
            }
            return size - gone;
        }
        int n = 0;
        for (RankState s : ranks.values()) {
            if (!s.exited) {
                n++;
            }
        }
        return n;
    }

    /**
     * Waits for all ranks here to enter and the fence to complete. Returns null, or why the barrier failed: among
     * others, that the rank closed its connection or sent another request while it waited ({@link #clientMoved},
     * looked at every second; PMI-1 has one request in flight per connection), so that a client gone from a barrier
     * that cannot complete without it does not keep its connection open.
     */
    private String barrier(int rank, Socket s, InputStream in) {
        long generation;
        lock.lock();
        try {
            if (closed) {
                return "the job is ending";
            }
            RankState st = ranks.get(rank);
            st.inBarrier = true;
            barrierArrived++;
            generation = barrierGeneration;
        } finally {
            lock.unlock();
        }
        maybeStartFence();
        while (true) {
            lock.lock();
            try {
                if (generation != barrierGeneration) {
                    return null;
                }
                if (closed) {
                    return "the job is ending";
                }
                if (fenceFailure != null) {
                    return fenceFailure;
                }
                changed.await(1, TimeUnit.SECONDS);
                if (generation != barrierGeneration) {
                    return null;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            } finally {
                lock.unlock();
            }
            int moved = clientMoved(s, in);
            if (moved == GONE) {
                return "the rank closed its connection in the barrier"; // its exit tells the launcher
            }
            if (moved == SPOKE) {
                listener.protocolError(rank, "a PMI request before the answer to barrier_in");
                return "a request before the answer to barrier_in";
            }
        }
    }

    /** {@link #clientMoved}: the client waits quietly, has closed its side (or the connection broke), sent more. */
    private static final int QUIET = 0;
    private static final int GONE = 1;
    private static final int SPOKE = 2;

    /** What the client of {@code s} did while it waited for an answer: one read that waits at most a millisecond. */
    private static int clientMoved(Socket s, InputStream in) {
        try {
            s.setSoTimeout(1);
            return in.read() < 0 ? GONE : SPOKE;
        } catch (SocketTimeoutException nothingYet) {
            return QUIET;
        } catch (IOException broken) {
            return GONE;
        } finally {
            try {
                s.setSoTimeout(0);
            } catch (IOException ignored) {
                // closed: the next read says so
            }
        }
    }

    /** Starts the fence when every participant has entered the barrier. */
    private void maybeStartFence() {
        Map<String, String> puts;
        lock.lock();
        try {
            if (fenceInFlight || barrierArrived == 0 || barrierArrived < participants() || closed) {
                return;
            }
            fenceInFlight = true;
            puts = new HashMap<>(pending);
            pending.clear();
            pendingBytes = 0;
        } finally {
            lock.unlock();
        }
        CompletableFuture<Map<String, String>> f;
        try {
            f = fence.fence(puts);
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((all, error) -> {
            lock.lock();
            try {
                fenceInFlight = false;
                if (error != null) {
                    fenceFailure = "fence failed: " + error.getMessage();
                } else {
                    for (Map.Entry<String, String> e : all.entrySet()) {
                        String old = visible.put(e.getKey(), e.getValue());
                        visibleBytes += e.getValue().length() - (old == null ? -e.getKey().length() : old.length());
                    }
                    barrierArrived = 0;
                    for (RankState s : ranks.values()) {
                        s.inBarrier = false;
                    }
                    barrierGeneration++;
                }
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        });
    }

    private static void send(OutputStream out, String... lines) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (String l : lines) {
            sb.append(l).append('\n');
        }
        out.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /**
     * Puts a pending pair unless the key-value space would exceed {@link #MAX_KEYS} or {@link #MAX_KVS_BYTES}
     * (caller holds lock). A key put again replaces its value.
     */
    private boolean store(String key, String value) {
        String old = pending.get(key);
        long delta = value.length() - (old == null ? -key.length() : (long) old.length());
        if (old == null && visible.size() + pending.size() >= MAX_KEYS
                || visibleBytes + pendingBytes + delta > MAX_KVS_BYTES) {
            return false;
        }
        pending.put(key, value);
        pendingBytes += delta;
        return true;
    }

    /**
     * The first line of a connection, which must be complete by {@code deadline}: each read waits at most for what is
     * left of it, so a client that sends a byte now and then cannot hold the connection.
     */
    private static String readFirstLine(Socket s, InputStream in, long deadline) throws IOException {
        return readLine(in, () -> {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                throw new SocketTimeoutException("initack too slow");
            }
            s.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
        });
    }

    private static String readLine(InputStream in) throws IOException {
        return readLine(in, null);
    }

    /** Something to do before each byte is read (set the time left); may throw to give up. */
    @FunctionalInterface
    private interface BeforeRead {
        void check() throws IOException;
    }

    /** Reads up to a newline (not included) or the end; null at the end before any byte. */
    private static String readLine(InputStream in, BeforeRead beforeRead) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(128);
        while (true) {
            if (beforeRead != null) {
                beforeRead.check();
            }
            int b = in.read();
            if (b < 0) {
                return buf.size() == 0 ? null : buf.toString(StandardCharsets.US_ASCII);
            }
            if (b == '\n') {
                return buf.toString(StandardCharsets.US_ASCII);
            }
            if (buf.size() >= MAX_LINE) {
                throw new IOException("PMI request longer than " + MAX_LINE + " bytes");
            }
            buf.write(b);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** Stops accepting, closes every connection and releases ranks waiting in a barrier. Idempotent. */
    @Override
    public void close() {
        List<Socket> open;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            open = new ArrayList<>(sockets);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket s : open) {
            closeQuietly(s);
        }
        if (acceptor != null) {
            acceptor.interrupt();
        }
    }
}
