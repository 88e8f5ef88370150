package org.jmpi.bootstrap.pmi;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.jmpi.bootstrap.Bootstrap;
import org.jmpi.bootstrap.Bootstrap.FailureListener;

/**
 * {@link Bootstrap} over the PMI-1 "simple" wire, the protocol our {@code jmpirun}, MPICH's Hydra
 * ({@code mpiexec.hydra}) and Slurm ({@code srun --mpi=pmi2}) all serve.
 *
 * <p>Two ways in, chosen by {@link #fromEnvironment(Map)}:
 * <ul>
 *   <li>{@code PMI_FD}: an inherited socket (Hydra's default, Slurm). Rank and size come from {@code PMI_RANK} and
 *       {@code PMI_SIZE}. The descriptor is read and written through libc with {@code java.lang.foreign}.</li>
 *   <li>{@code PMI_PORT=host:port} with {@code PMI_ID}: TCP (our launcher, Hydra's {@code -pmi-port}). The client
 *       sends {@code cmd=initack pmiid=<PMI_ID>}; the server answers {@code cmd=initack} and pushes three
 *       {@code cmd=set} lines carrying size, rank and debug.</li>
 * </ul>
 * Then both speak the same lines: {@code init pmi_version=1 pmi_subversion=1}, {@code get_maxes},
 * {@code get_my_kvsname}, and per call {@code put}, {@code barrier_in}/{@code barrier_out} (the fence),
 * {@code get} (any {@code rc != 0} means "not found": Hydra says {@code rc=-1}, Slurm {@code rc=1}),
 * {@code abort} and {@code finalize}. Replies are parsed without regard to key order, since Hydra and Slurm differ.
 *
 * <p>Threading: PMI-1 is lock-step, one request in flight per connection, so every request and its reply run
 * under {@code lock}; any thread may call any method. A fence therefore blocks other callers until it completes.
 * The fields written after construction ({@code broken}, {@code finalized}, {@code closed}) are only touched under
 * {@code lock}.
 */
public final class Pmi1Bootstrap implements Bootstrap {
    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    /** Smallest key and value limits a server may announce in {@code maxes} (Hydra says 64 and 1024, Slurm more). */
    static final int MIN_KEY_MAX = 32;
    static final int MIN_VALUE_MAX = 256;
    /** The environment variable with the job secret that jmpirun gives every rank. */
    public static final String SECRET_VARIABLE = "JMPI_SECRET";
    /** The {@code initack} field that proves the job secret to jmpirun's PMI server. */
    public static final String SECRET_KEY = "jmpi_secret";

    private final ReentrantLock lock = new ReentrantLock();
    private final LineChannel channel;
    private final String via;
    private final int rank;
    private final int size;
    private final int debug;
    private final String kvsName;
    private final String jobId;
    private final int keyMax;
    private final int valueMax;
    private String broken;
    private boolean finalized;
    private boolean closed;
    /** Set before finalize and close: from then on the server's end of the connection is expected. */
    private volatile boolean ending;
    /** The bound on the finalize exchange ({@link FinalizeDeadline}); 0: none. */
    private long finalizeTimeoutNanos = FinalizeDeadline.configuredNanos();

    private Pmi1Bootstrap(LineChannel channel, String via, int rank, int size, int debug, String kvsName, int keyMax,
            int valueMax) {
        this.channel = channel;
        this.via = via;
        this.rank = rank;
        this.size = size;
        this.debug = debug;
        this.kvsName = kvsName;
        this.jobId = sanitize(kvsName);
        this.keyMax = keyMax;
        this.valueMax = valueMax;
    }

    /**
     * Connects to the process manager named by the environment: {@code PMI_FD} first (with {@code PMI_RANK} and
     * {@code PMI_SIZE}), else {@code PMI_PORT} with {@code PMI_ID}.
     *
     * @return the connected bootstrap, or {@code null} when neither {@code PMI_FD} nor {@code PMI_PORT} is set
     * @throws PmiException when the variables are malformed or the server cannot be reached or misbehaves
     */
    public static Pmi1Bootstrap fromEnvironment(Map<String, String> env) {
        String fd = blankToNull(env.get("PMI_FD"));
        if (fd != null) {
            int descriptor = parseInt(env, "PMI_FD");
            int rank = parseInt(env, "PMI_RANK");
            int size = parseInt(env, "PMI_SIZE");
            LineChannel ch;
            try {
                ch = new FdLineChannel(descriptor);
            } catch (RuntimeException | LinkageError e) {
                throw new PmiException("cannot use PMI_FD=" + fd + " (run the JVM with "
                        + "--enable-native-access=ALL-UNNAMED, or start the job with PMI_PORT): " + e, e);
            }
            return open(ch, "PMI_FD=" + fd, -1, rank, size);
        }
        String port = blankToNull(env.get("PMI_PORT"));
        if (port == null) {
            return null;
        }
        if (blankToNull(env.get("PMI_ID")) == null) {
            throw new PmiException("PMI_PORT=" + port + " is set but PMI_ID is not");
        }
        String secret = blankToNull(env.get(SECRET_VARIABLE));
        return connect(port, parseInt(env, "PMI_ID"),
                secret == null ? Map.of() : Map.of(SECRET_KEY, secret), "PMI_PORT=" + port);
    }

    /** Connects over TCP to {@code hostPort} and identifies as {@code pmiId} ({@code PMI_PORT} mode). */
    public static Pmi1Bootstrap connect(String hostPort, int pmiId) {
        return connect(hostPort, pmiId, Map.of(), "PMI_PORT=" + hostPort);
    }

    /**
     * Connects to jmpirun's rendezvous server ({@code JMPI_KVS=host:port}, env-only mode): the same PMI-1 wire, with
     * the rank, the job size and the job secret in the {@code initack} line, since no launcher told the server.
     */
    public static Pmi1Bootstrap connectKvs(String hostPort, int rank, int size, String secret) {
        if (secret == null || secret.isBlank()) {
            throw new PmiException("JMPI_KVS=" + hostPort + " is set but " + SECRET_VARIABLE + " is not (pass both "
                    + "to every rank, e.g. mpirun -x JMPI_KVS -x JMPI_SECRET)");
        }
        return connect(hostPort, rank, Map.of("size", Integer.toString(size), SECRET_KEY, secret),
                "JMPI_KVS=" + hostPort);
    }

    private static Pmi1Bootstrap connect(String hostPort, int pmiId, Map<String, String> extra, String via) {
        LineChannel ch;
        try {
            ch = SocketLineChannel.connect(hostPort, CONNECT_TIMEOUT_MILLIS);
        } catch (IOException e) {
            throw new PmiException("cannot connect to the PMI server at " + via + ": " + e.getMessage(), e);
        }
        return open(ch, via, pmiId, -1, -1, extra);
    }

    /**
     * Opens jmpirun's notice channel (failure notices and agreements, see {@link NoticeChannel}): a second
     * connection to the {@code PMI_PORT} server. Only jmpirun's server knows this request.
     */
    public static NoticeChannel openFailureNotices(String hostPort, int pmiId, String secret,
            FailureListener listener) {
        return NoticeChannel.open(hostPort, pmiId, secret, CONNECT_TIMEOUT_MILLIS, listener);
    }

    /**
     * Runs the start-up exchange on {@code ch}. With {@code pmiId >= 0} this is {@code PMI_PORT} mode: initack, and
     * rank and size come from the server's {@code set} lines; otherwise they are the given values.
     */
    static Pmi1Bootstrap open(LineChannel ch, String via, int pmiId, int rank, int size) {
        return open(ch, via, pmiId, rank, size, Map.of());
    }

    /** As {@link #open(LineChannel, String, int, int, int)}, with extra fields in the {@code initack} line. */
    static Pmi1Bootstrap open(LineChannel ch, String via, int pmiId, int rank, int size, Map<String, String> extra) {
        try {
            int debug = 0;
            if (pmiId >= 0) {
                Map<String, String> fields = new java.util.LinkedHashMap<>();
                fields.put("pmiid", Integer.toString(pmiId));
                fields.putAll(extra);
                ch.writeLine(new Pmi1Message("initack", fields).format());
                Pmi1Message ack = expect(ch, "initack", via);
                if (ack.rc() != 0) {
                    throw new PmiException("PMI server at " + via + " refused pmiid " + pmiId + ": " + ack);
                }
                for (int i = 0; i < 3; i++) {
                    Pmi1Message set = expect(ch, "set", via);
                    size = set.intValue("size", size);
                    rank = set.intValue("rank", rank);
                    debug = set.intValue("debug", debug);
                }
            }
            if (size < 1 || rank < 0 || rank >= size) {
                throw new PmiException("PMI server at " + via + " gave rank " + rank + " of size " + size);
            }
            // jmpirun's servers (the ones that take a job secret) answer a connection's lines in order, so the three
            // start-up requests go out at once: two round trips fewer while every rank of the host starts. Other
            // servers (Hydra, Slurm) get them one at a time, as PMI-1 clients send them.
            boolean pipelined = extra.containsKey(SECRET_KEY);
            ch.writeLine("cmd=init pmi_version=1 pmi_subversion=1");
            if (pipelined) {
                ch.writeLine("cmd=get_maxes");
                ch.writeLine("cmd=get_my_kvsname");
            }
            Pmi1Message init = expect(ch, "response_to_init", via);
            if (init.rc() != 0) {
                throw new PmiException("PMI server at " + via + " refused PMI-1.1: " + init);
            }
            if (!pipelined) {
                ch.writeLine("cmd=get_maxes");
            }
            Pmi1Message maxes = expect(ch, "maxes", via);
            if (!pipelined) {
                ch.writeLine("cmd=get_my_kvsname");
            }
            Pmi1Message name = expect(ch, "my_kvsname", via);
            String kvs = name.get("kvsname");
            if (name.rc() != 0 || kvs == null || kvs.isEmpty()) {
                throw new PmiException("PMI server at " + via + " gave no KVS name: " + name);
            }
            int keyMax = maxes.intValue("keylen_max", 64);
            int valueMax = maxes.intValue("vallen_max", 1024);
            if (keyMax < MIN_KEY_MAX || valueMax < MIN_VALUE_MAX) {
                throw new PmiException("PMI server at " + via + " allows keys of " + keyMax + " and values of "
                        + valueMax + " bytes; jmpi needs at least " + MIN_KEY_MAX + " and " + MIN_VALUE_MAX + ": "
                        + maxes);
            }
            return new Pmi1Bootstrap(ch, via, rank, size, debug, kvs, keyMax, valueMax);
        } catch (IOException | RuntimeException e) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // already failing
            }
            if (e instanceof PmiException p) {
                throw p;
            }
            throw new PmiException("PMI start-up with the server at " + via + " failed: " + e, e);
        }
    }

    private static Pmi1Message expect(LineChannel ch, String command, String via) throws IOException {
        String line = ch.readLine();
        if (line == null) {
            throw new PmiException("the PMI server at " + via + " closed the connection while this rank waited for "
                    + "cmd=" + command + " (is the job ending?)");
        }
        Pmi1Message m = Pmi1Message.parse(line);
        if (!m.command().equals(command)) {
            throw new PmiException("expected cmd=" + command + " from the PMI server at " + via + ", got: " + line);
        }
        return m;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    /** The KVS name, made safe for file names ({@code [A-Za-z0-9_.-]}). */
    @Override
    public String jobId() {
        return jobId;
    }

    /** The KVS name exactly as the server gave it. */
    public String kvsName() {
        return kvsName;
    }

    /** The server's debug level (0 unless {@code PMI_PORT} mode said otherwise). */
    public int debug() {
        return debug;
    }

    @Override
    public void put(String key, String value) {
        checkKey(key);
        if (key.startsWith("PMI_")) {
            throw new IllegalArgumentException("PMI key '" + key + "' starts with PMI_, which is reserved");
        }
        checkValue(key, value);
        lock.lock();
        try {
            Pmi1Message r = call(Pmi1Message.of("put", "kvsname", kvsName, "key", key, "value", value), "put_result");
            if (r.rc() != 0) {
                throw new PmiException("PMI put of key '" + key + "' refused: " + r);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void fence() {
        lock.lock();
        try {
            Pmi1Message r = call(Pmi1Message.of("barrier_in"), "barrier_out");
            if (r.rc() != 0) {
                throw new PmiException("PMI barrier failed: " + r);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String get(String key) {
        checkKey(key);
        lock.lock();
        try {
            Pmi1Message r = call(Pmi1Message.of("get", "kvsname", kvsName, "key", key), "get_result");
            return r.rc() != 0 ? null : r.get("value");
        } finally {
            lock.unlock();
        }
    }

    /**
     * This process's application number from the server ({@code cmd=get_appnum}): Hydra numbers the executables of
     * one launch or one spawn from 0. Negative when the server does not know (Slurm says -1).
     */
    public int appnum() {
        return askNumber("get_appnum", "appnum", "appnum");
    }

    /**
     * The universe size from the server ({@code cmd=get_universe_size}); negative when it does not know (Hydra
     * without {@code -usize} says -1).
     */
    public int universeSize() {
        return askNumber("get_universe_size", "universe_size", "size");
    }

    /** Sends {@code cmd=command}; the number in field {@code key} of the {@code reply}, or -1 when it has none. */
    private int askNumber(String command, String reply, String key) {
        lock.lock();
        try {
            Pmi1Message r = call(Pmi1Message.of(command), reply);
            return r.rc() != 0 ? -1 : r.intValue(key, -1);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The server's {@code PMI_process_mapping}, e.g. {@code (vector,(0,1,2))} (block of ranks per node, repeated
     * cyclically), or null when it has none.
     */
    public String processMapping() {
        return get("PMI_process_mapping");
    }

    /**
     * Sends {@code cmd=abort exitcode=N error_msg=... jmpi_msg=...}: in {@code error_msg} spaces and other
     * unprintable characters of the message become {@code _}, for Hydra and Slurm; {@code jmpi_msg} is the message
     * encoded reversibly ({@link Pmi1Message#encodeText}) for jmpirun. PMI-1 has no reply to abort; this returns once the line is sent, and the caller ends the
     * process. Never throws: a rank that aborts is already failing.
     */
    @Override
    public void abort(int exitCode, String message) {
        ending = true; // the job ends; so will the connection
        lock.lock();
        try {
            if (broken != null || closed) {
                return;
            }
            String m = message == null || message.isEmpty() ? "aborted" : message;
            if (m.length() > 512) {
                m = m.substring(0, 512);
            }
            // error_msg is for any PMI server to print; jmpi_msg carries the text unchanged to jmpi's own
            channel.writeLine(Pmi1Message.of("abort", "exitcode", Integer.toString(exitCode), "error_msg",
                    sanitizeMessage(m), "jmpi_msg", Pmi1Message.encodeText(m)).format());
        } catch (IOException e) {
            broken = e.toString();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void watchEnd(Runnable onEnd) {
        channel.watchEnd(() -> {
            if (!ending) {
                onEnd.run();
            }
        });
    }

    /** Sets the bound on the finalize exchange (tests; the default comes from {@link FinalizeDeadline}). */
    void finalizeTimeout(java.time.Duration d) {
        lock.lock();
        try {
            finalizeTimeoutNanos = d.toNanos();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Tells the server this rank is done ({@code cmd=finalize}) and waits for {@code finalize_ack}, at most
     * {@code jmpi.pmi.finalize.timeout} seconds ({@link FinalizeDeadline}): a server that is gone or silent cannot
     * keep the rank in MPI_Finalize.
     *
     * @throws PmiException when the connection is broken or closed, or the answer did not come in time
     */
    @Override
    public void finalizeJob() {
        ending = true; // the server may close the connection once it has answered
        lock.lock();
        try {
            if (finalized) {
                return;
            }
            FinalizeDeadline.run(channel, finalizeTimeoutNanos, via,
                    () -> call(Pmi1Message.of("finalize"), "finalize_ack"));
            finalized = true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        ending = true;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            channel.close();
        } catch (IOException ignored) {
            // closing a connection we no longer need
        } finally {
            lock.unlock();
        }
    }

    /** One command of a PMI-1 spawn: the program, its arguments, how many, and Info hints for the process manager. */
    public record SpawnCommand(String executable, java.util.List<String> args, int count,
            Map<String, String> info) {}

    /**
     * MPI_Comm_spawn_multiple through the process manager (Hydra's multi-line {@code mcmd=spawn}): the children get a
     * key-value space of their own holding {@code preput}, and {@code PMI_SPAWNED=1}. Returns when the process manager
     * has answered ({@code spawn_result}); the children may still be starting.
     *
     * @throws PmiException when the server refuses (rc not 0) or the connection breaks
     */
    public void spawn(java.util.List<SpawnCommand> commands, Map<String, String> preput) {
        lock.lock();
        try {
            if (closed || broken != null) {
                throw new PmiException("PMI connection to " + via + " is " + (closed ? "closed" : "broken: " + broken));
            }
            for (int i = 0; i < commands.size(); i++) {
                SpawnCommand c = commands.get(i);
                StringBuilder sb = new StringBuilder("mcmd=spawn\nnprocs=").append(c.count()).append("\nexecname=")
                        .append(c.executable()).append("\ntotspawns=").append(commands.size())
                        .append("\nspawnssofar=").append(i + 1).append("\nargcnt=").append(c.args().size());
                for (int a = 0; a < c.args().size(); a++) {
                    sb.append("\narg").append(a + 1).append('=').append(c.args().get(a));
                }
                sb.append("\npreput_num=").append(preput.size());
                int k = 0;
                for (Map.Entry<String, String> e : preput.entrySet()) {
                    sb.append("\npreput_key_").append(k).append('=').append(e.getKey());
                    sb.append("\npreput_val_").append(k).append('=').append(e.getValue());
                    k++;
                }
                sb.append("\ninfo_num=").append(c.info().size());
                k = 0;
                for (Map.Entry<String, String> e : c.info().entrySet()) {
                    sb.append("\ninfo_key_").append(k).append('=').append(e.getKey());
                    sb.append("\ninfo_val_").append(k).append('=').append(e.getValue());
                    k++;
                }
                sb.append("\nendcmd");
                channel.writeLine(sb.toString());
            }
            Pmi1Message r = expect(channel, "spawn_result", via);
            if (r.rc() != 0) {
                throw new PmiException("the process manager at " + via + " refused the spawn (rc " + r.rc() + ")");
            }
        } catch (IOException e) {
            broken = e.getMessage();
            throw new PmiException("PMI spawn to " + via + " failed: " + e, e);
        } finally {
            lock.unlock();
        }
    }

    /** One request and its reply; caller holds the lock. */
    private Pmi1Message call(Pmi1Message request, String replyCommand) {
        if (closed) {
            throw new PmiException("PMI connection to " + via + " is closed");
        }
        if (broken != null) {
            throw new PmiException("PMI connection to " + via + " is broken: " + broken);
        }
        try {
            channel.writeLine(request.format());
            return expect(channel, replyCommand, via);
        } catch (IOException | PmiException e) {
            broken = e.getMessage();
            if (e instanceof PmiException p) {
                throw p;
            }
            throw new PmiException("PMI " + request.command() + " to " + via + " failed: " + e, e);
        }
    }

    private void checkKey(String key) {
        PmiText.checkKey(key, keyMax);
    }

    private void checkValue(String key, String value) {
        PmiText.checkValue(key, value, Math.min(MAX_VALUE, valueMax - 1));
    }

    private static String sanitizeMessage(String s) {
        return PmiText.sanitizeMessage(s);
    }

    private static String sanitize(String s) {
        return PmiText.safeName(s);
    }

    private static String blankToNull(String s) {
        return PmiText.blankToNull(s);
    }

    private static int parseInt(Map<String, String> env, String name) {
        return PmiText.parseInt(env, name);
    }

    @Override
    public String toString() {
        return "Pmi1Bootstrap[rank " + rank + " of " + size + ", kvs " + kvsName + ", " + via + "]";
    }
}
