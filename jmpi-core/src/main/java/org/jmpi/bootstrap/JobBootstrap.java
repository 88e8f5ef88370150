package org.jmpi.bootstrap;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jmpi.bootstrap.pmi.Pmi1Bootstrap;

/**
 * The bootstrap of a rank that a process manager started (jmpirun, Hydra, Slurm, or jmpirun's rendezvous server in
 * env-only mode): a PMI client plus what every such job needs on top of it.
 *
 * <ul>
 *   <li><b>Job secret</b> ({@link #secret()}): {@code JMPI_SECRET} when the launcher gave one (jmpirun does).
 *       Otherwise rank 0 draws 128 random bits and puts them under {@code jmpi-secret}; everyone reads it after the
 *       start-up fence. The key-value space is only reachable through the process manager's private channel
 *       ({@code PMI_FD}), so the secret stays inside the job.</li>
 *   <li><b>Node locality</b> ({@link #isLocal}): from {@code PMI_process_mapping} when the process manager publishes
 *       one (Hydra, Slurm, jmpirun); otherwise every rank puts its {@link HostIdentity} under
 *       {@code jmpi-host-<rank>} at start-up, and a peer's is read lazily, on the first question about it.</li>
 *   <li><b>Listening address</b> ({@link #listenHost()}): {@code null} (loopback) when the job is on one host, else
 *       the address Hydra names in {@code MPIR_CVAR_CH3_INTERFACE_HOSTNAME} if it is one of ours, else {@code "*"}.
 *       </li>
 *   <li><b>Failure notices</b> ({@link #onPeerFailure}): under jmpirun {@code --continue-on-failure}
 *       ({@code JMPI_FT=1}), a second connection to the PMI server on which it reports failed ranks.</li>
 * </ul>
 *
 * <p>Cost at start-up: nothing extra under jmpirun (secret and mapping are given); under Hydra or Slurm one put and
 * one fence (the shared secret); in env-only mode two puts and one fence. Business cards of transports are never
 * fetched here: transports get a peer's card on first contact.
 *
 * <p>Threading: the fields set in the constructor are final; {@code hosts} is an atomic array filled lazily (two
 * threads may both fetch a value, which is harmless); {@code listeners} is copy-on-write; {@code notices} is set once
 * under the object's monitor. The wrapped client serialises its own calls.
 */
public final class JobBootstrap implements Bootstrap {
    static final String SECRET_KEY = "jmpi-secret";
    static final String HOST_KEY_PREFIX = "jmpi-host-";

    private final Bootstrap client;
    private final Map<String, String> env;
    private final ProcessMapping mapping;
    private final String secret;
    private final String listenHost;
    private final AtomicReferenceArray<String> hosts;
    private final List<FailureListener> listeners = new CopyOnWriteArrayList<>();
    private org.jmpi.bootstrap.pmi.NoticeChannel notices;

    /**
     * Wraps a connected PMI client and runs the start-up exchange described above (collective: every rank of the job
     * must construct its {@code JobBootstrap} at start-up).
     *
     * @param mappingValue the process manager's {@code PMI_process_mapping}, or null
     * @param env the environment (for {@code JMPI_SECRET}, {@code JMPI_FT}, the local-size hints)
     */
    public JobBootstrap(Bootstrap client, String mappingValue, Map<String, String> env) {
        this.client = client;
        this.env = Map.copyOf(env);
        int size = client.size();
        int rank = client.rank();
        ProcessMapping m = ProcessMapping.parse(mappingValue, size);
        this.mapping = m;
        this.hosts = new AtomicReferenceArray<>(size);
        if (m == null) { // only locality without a mapping needs the host identity (a SHA-256: costly at start-up)
            hosts.set(rank, HostIdentity.get());
        }
        String given = env.get(Pmi1Bootstrap.SECRET_VARIABLE);
        boolean shareSecret = size > 1 && (given == null || given.isBlank());
        boolean shareHosts = size > 1 && m == null;
        if (shareSecret && rank == 0) {
            byte[] bits = Secrets.randomBytes(16);
            client.put(SECRET_KEY, HexFormat.of().formatHex(bits));
        }
        if (shareHosts) {
            client.put(HOST_KEY_PREFIX + rank, HostIdentity.get());
        }
        if (shareSecret || shareHosts) {
            client.fence();
        }
        if (shareSecret) {
            String s = client.get(SECRET_KEY);
            if (s == null) {
                throw new IllegalStateException("rank 0 published no job secret (" + SECRET_KEY + ")");
            }
            this.secret = s;
        } else {
            this.secret = given == null || given.isBlank() ? null : given;
        }
        this.listenHost = spansHosts(m, size, env) ? chooseListenHost(env) : null;
    }

    /** Whether ranks of this job run on more than one host, as far as the mapping or the environment tells. */
    private static boolean spansHosts(ProcessMapping m, int size, Map<String, String> env) {
        if (size <= 1) {
            return false;
        }
        if (m != null) {
            return m.nodes() > 1;
        }
        for (String v : new String[] {"JMPI_LOCAL_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"}) {
            String s = env.get(v);
            if (s != null) {
                try {
                    return Integer.parseInt(s.trim()) < size;
                } catch (NumberFormatException e) {
                    // try the next hint
                }
            }
        }
        String nodes = env.get("SLURM_NNODES");
        if (nodes != null) {
            return !nodes.trim().equals("1");
        }
        return true; // cannot tell: listen where other hosts can reach us
    }

    private static String chooseListenHost(Map<String, String> env) {
        String named = env.get("MPIR_CVAR_CH3_INTERFACE_HOSTNAME");
        if (named != null && !named.isBlank()) {
            try {
                InetAddress a = InetAddress.getByName(named.trim());
                if (!a.isLoopbackAddress() && NetworkInterface.getByInetAddress(a) != null) {
                    return a.getHostAddress();
                }
            } catch (IOException e) {
                // fall back to every interface
            }
        }
        return "*";
    }

    /** The wrapped PMI client. */
    public Bootstrap client() {
        return client;
    }

    /** The process mapping, or null when the process manager gave none (locality then compares host identities). */
    public ProcessMapping mapping() {
        return mapping;
    }

    @Override
    public int rank() {
        return client.rank();
    }

    @Override
    public int size() {
        return client.size();
    }

    @Override
    public String jobId() {
        return client.jobId();
    }

    @Override
    public void put(String key, String value) {
        client.put(key, value);
    }

    @Override
    public void fence() {
        client.fence();
    }

    @Override
    public String get(String key) {
        return client.get(key);
    }

    @Override
    public void abort(int exitCode, String message) {
        client.abort(exitCode, message);
    }

    @Override
    public void finalizeJob() {
        client.finalizeJob();
    }

    @Override
    public void watchEnd(Runnable onEnd) {
        client.watchEnd(onEnd);
    }

    @Override
    public String secret() {
        return secret;
    }

    @Override
    public String listenHost() {
        return listenHost;
    }

    @Override
    public boolean isLocal(int peer) {
        Object h = host(peer);
        return h != null && h.equals(host(rank()));
    }

    /** The node of the mapping, else the {@link HostIdentity} rank {@code r} published (read on first use). */
    @Override
    public Object host(int r) {
        if (r < 0 || r >= size()) {
            return null;
        }
        if (mapping != null) {
            return mapping.nodeOf(r);
        }
        String h = hosts.get(r);
        if (h == null) {
            h = client.get(HOST_KEY_PREFIX + r);
            if (h == null) {
                return null;
            }
            hosts.compareAndSet(r, null, h);
        }
        return h;
    }

    /**
     * Registers a failure listener. Under jmpirun with {@code --continue-on-failure} ({@code JMPI_FT=1} and
     * {@code PMI_PORT} set) the first call opens the notice channel; elsewhere listeners are kept but never called.
     */
    @Override
    public void onPeerFailure(FailureListener listener) {
        listeners.add(listener);
        synchronized (this) {
            if (notices != null || !"1".equals(env.get("JMPI_FT"))) {
                return;
            }
            String port = env.get("PMI_PORT");
            String id = env.get("PMI_ID");
            if (port == null || id == null) {
                return;
            }
            notices = Pmi1Bootstrap.openFailureNotices(port, Integer.parseInt(id.trim()), secret, (r, why) -> {
                for (FailureListener l : listeners) {
                    l.failed(r, why);
                }
            });
        }
    }

    @Override
    public synchronized Agreement agreement() {
        return notices;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (notices != null) {
                try {
                    notices.close();
                } catch (Exception e) {
                    // closing anyway
                }
                notices = null;
            }
        }
        client.close();
    }

    @Override
    public String toString() {
        return "JobBootstrap[" + client + (mapping != null ? ", mapping " + mapping : ", host identities") + "]";
    }
}
