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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jmpi.bootstrap.pmi.Pmi1Message;

/**
 * A PMI-1 server for one job of {@code size} ranks, listening on 127.0.0.1 at an ephemeral port. It answers in
 * Hydra's dialect (the one MPICH's client and ours both parse), so the exchange a rank sees is the one of
 * {@code mpiexec.hydra -pmi-port}:
 *
 * <pre>
 * -> cmd=initack pmiid=1                       &lt;- cmd=initack, cmd=set size=N, cmd=set rank=1, cmd=set debug=0
 * -> cmd=init pmi_version=1 pmi_subversion=1   &lt;- cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0
 * -> cmd=get_maxes                             &lt;- cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024
 * -> cmd=get_appnum                            &lt;- cmd=appnum appnum=0
 * -> cmd=get_my_kvsname                        &lt;- cmd=my_kvsname kvsname=K
 * -> cmd=get_universe_size                     &lt;- cmd=universe_size size=N
 * -> cmd=put kvsname=K key=k value=v           &lt;- cmd=put_result rc=0 msg=success
 * -> cmd=barrier_in                            &lt;- cmd=barrier_out          (once all N ranks entered)
 * -> cmd=get kvsname=K key=k                   &lt;- cmd=get_result rc=0 msg=success value=v
 *                                                 or cmd=get_result rc=-1 msg=key_k_not_found value=unknown
 * -> cmd=abort exitcode=7 error_msg=m          (no reply; the listener hears of it)
 * -> cmd=finalize                              &lt;- cmd=finalize_ack
 * </pre>
 *
 * Puts become visible to {@code get} at the next completed barrier, as under Hydra. {@code PMI_process_mapping} is
 * {@code (vector,(0,1,N))}: every rank on this one node. An unknown command, a multi-line {@code spawn} (not
 * supported yet) or a malformed request is reported to the listener as a protocol error; the launcher then ends the
 * job, as Hydra does.
 *
 * <p>Threading: one virtual thread accepts, one virtual thread per connection serves it. All shared state (the two
 * key-value maps, the barrier count and generation, per-rank flags, {@code closed}) is guarded by {@code lock};
 * {@code changed} is signalled whenever a barrier completes, a connection ends or the server closes. The listener
 * is called from connection threads without the lock held.
 */
public final class PmiServer implements AutoCloseable {
    /** Longest request line accepted (Slurm stops at 1024; we are lenient but bounded). */
    static final int MAX_LINE = 64 * 1024;

    /** What the launcher hears from the server. Called from connection threads; must not block for long. */
    public interface Listener {
        /** A rank sent {@code cmd=abort}. {@code rank} is -1 when the connection never identified itself. */
        void aborted(int rank, int exitCode, String message);

        /** A rank broke the protocol (unknown command, spawn, bad initack); the job should end. */
        void protocolError(int rank, String message);
    }

    private final int size;
    private final String kvsName;
    private final Listener listener;
    private final ServerSocket server;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, String> visible = new HashMap<>();
    private final Map<String, String> pending = new HashMap<>();
    private final boolean[] initialized;
    private final boolean[] finalized;
    private final boolean[] connected;
    private final boolean[] disconnected;
    private final List<Socket> sockets = new ArrayList<>();
    private int barrierArrived;
    private long barrierGeneration;
    private boolean closed;
    private Thread acceptor;

    /**
     * Binds the server socket to 127.0.0.1 at an ephemeral port; call {@link #start()} to accept connections.
     *
     * @param kvsName the KVS name ranks get; also the job id ({@code [A-Za-z0-9_.-]})
     */
    public PmiServer(int size, String kvsName, Listener listener) throws IOException {
        if (size < 1) {
            throw new IllegalArgumentException("a job needs at least one rank, not " + size);
        }
        this.size = size;
        this.kvsName = kvsName;
        this.listener = listener;
        this.initialized = new boolean[size];
        this.finalized = new boolean[size];
        this.connected = new boolean[size];
        this.disconnected = new boolean[size];
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Math.max(50, size));
    }

    /** Starts accepting connections. */
    public void start() {
        acceptor = Thread.ofVirtual().name("jmpi-pmi-accept").start(this::acceptLoop);
    }

    /** The port ranks connect to. */
    public int port() {
        return server.getLocalPort();
    }

    /** {@code 127.0.0.1:port}, the value of {@code PMI_PORT}. */
    public String address() {
        return server.getInetAddress().getHostAddress() + ":" + port();
    }

    public String kvsName() {
        return kvsName;
    }

    /** Whether the rank has sent {@code cmd=init}. */
    public boolean initialized(int rank) {
        return flag(initialized, rank);
    }

    /** Whether the rank has sent {@code cmd=finalize}. */
    public boolean finalized(int rank) {
        return flag(finalized, rank);
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
            while (connected[rank] && !disconnected[rank] && !closed) {
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

    private boolean flag(boolean[] flags, int rank) {
        lock.lock();
        try {
            return flags[rank];
        } finally {
            lock.unlock();
        }
    }

    private void acceptLoop() {
        while (true) {
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
                sockets.add(s);
            } finally {
                lock.unlock();
            }
            Thread.ofVirtual().name("jmpi-pmi-conn").start(() -> serve(s));
        }
    }

    /** Serves one connection until it ends. */
    private void serve(Socket s) {
        int rank = -1;
        try (s) {
            s.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            boolean first = true;
            for (String line = readLine(in); line != null; line = readLine(in)) {
                if (line.isBlank()) {
                    continue;
                }
                Pmi1Message m = Pmi1Message.parse(line);
                if (first && m.command().equals("initack")) {
                    first = false;
                    int id = m.intValue("pmiid", -1);
                    if (id < 0 || id >= size || !claim(id)) {
                        listener.protocolError(id, "bad or repeated PMI id in '" + line + "' (job of " + size
                                + " ranks)");
                        return;
                    }
                    rank = id;
                    send(out, "cmd=initack", "cmd=set size=" + size, "cmd=set rank=" + rank, "cmd=set debug=0");
                    continue;
                }
                first = false;
                if (!handle(rank, m, line, in, out)) {
                    return;
                }
            }
        } catch (IOException e) {
            // the rank went away; the launcher learns of it from the process exit
        } finally {
            lock.lock();
            try {
                if (rank >= 0) {
                    disconnected[rank] = true;
                }
                sockets.remove(s);
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private boolean claim(int rank) {
        lock.lock();
        try {
            if (connected[rank]) {
                return false;
            }
            connected[rank] = true;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Handles one request; returns false when the connection should end. */
    private boolean handle(int rank, Pmi1Message m, String line, InputStream in, OutputStream out)
            throws IOException {
        switch (m.command()) {
            case "init" -> {
                if (m.intValue("pmi_version", 1) != 1) {
                    send(out, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=-1");
                    listener.protocolError(rank, "rank asked for PMI version " + m.get("pmi_version")
                            + "; jmpirun serves PMI-1 only");
                    return false;
                }
                setFlag(initialized, rank);
                send(out, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0");
            }
            case "get_maxes" -> send(out, "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024");
            case "get_appnum" -> send(out, "cmd=appnum appnum=0");
            case "get_my_kvsname" -> send(out, "cmd=my_kvsname kvsname=" + kvsName);
            case "get_universe_size" -> send(out, "cmd=universe_size size=" + size);
            case "put" -> {
                String key = m.get("key");
                String value = m.get("value");
                if (key == null || value == null || !kvsName.equals(m.get("kvsname"))) {
                    send(out, "cmd=put_result rc=-1 msg=bad_put_request");
                } else {
                    lock.lock();
                    try {
                        pending.put(key, value);
                    } finally {
                        lock.unlock();
                    }
                    send(out, "cmd=put_result rc=0 msg=success");
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
                if (!barrier()) {
                    return false;
                }
                send(out, "cmd=barrier_out");
            }
            case "finalize" -> {
                setFlag(finalized, rank);
                send(out, "cmd=finalize_ack");
            }
            case "abort" -> {
                String msg = m.get("error_msg") != null ? m.get("error_msg") : m.get("message");
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

    private String lookup(String key) {
        if (key.equals("PMI_process_mapping")) {
            return "(vector,(0,1," + size + "))";
        }
        lock.lock();
        try {
            return visible.get(key);
        } finally {
            lock.unlock();
        }
    }

    private void setFlag(boolean[] flags, int rank) {
        if (rank < 0) {
            return;
        }
        lock.lock();
        try {
            flags[rank] = true;
        } finally {
            lock.unlock();
        }
    }

    /** Waits for all ranks to enter; the last one publishes the pending puts. Returns false if the server closed. */
    private boolean barrier() {
        lock.lock();
        try {
            if (closed) {
                return false;
            }
            long generation = barrierGeneration;
            if (++barrierArrived == size) {
                barrierArrived = 0;
                barrierGeneration++;
                visible.putAll(pending);
                pending.clear();
                changed.signalAll();
                return true;
            }
            while (generation == barrierGeneration) {
                if (closed) {
                    return false;
                }
                changed.await(1, TimeUnit.SECONDS);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    private static void send(OutputStream out, String... lines) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (String l : lines) {
            sb.append(l).append('\n');
        }
        out.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(128);
        while (true) {
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
