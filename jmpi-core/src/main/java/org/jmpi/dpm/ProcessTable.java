package org.jmpi.dpm;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;

/**
 * The processes of other jobs this rank is connected to, by peer index. World ranks keep their index (0 to size-1);
 * a process of another job gets the next free index from the world size up when a connect, accept or spawn first
 * names it, and keeps it while any intercommunicator made by such a call still holds it ({@link #attach} counts,
 * {@link #detach} gives back). Indices are never reused, so a late frame from a disconnected process can never be
 * taken for another's.
 *
 * <p>A process is named by its {@link Identity}: job id, rank in its own job, and its card (where it is: a TCP business
 * card, or the JVM whose thread it is; see {@link Links}). Two processes of different jobs introduce themselves on
 * their TCP connection with a <em>link token</em>, 128 random bits made by the accepting root for one connect/accept
 * and sent to the connecting root over the port's connection (which the port's own token admitted): the TCP
 * transport admits a hello from another job only when its job id, rank and token match an attached process
 * ({@link #admit}). A job's own secret never leaves it. In threads mode there is no hello: the other job's ranks are
 * reached in this JVM.
 *
 * <p>Threading: every method is synchronized; the transport's admission calls {@link #admit} from its poll thread.
 * {@code links} is set once, before the table is shared.
 */
public final class ProcessTable {
    /** Who a process is, across jobs. */
    public record Identity(String jobId, int rank, String card) {
        /** One line: {@code jobId rank card} (none of the three holds a space). */
        String encode() {
            return jobId + " " + rank + " " + card;
        }

        static Identity parse(String line) {
            String[] f = line.trim().split(" ");
            if (f.length != 3) {
                throw new IllegalArgumentException("malformed process identity '" + line + "'");
            }
            return new Identity(f[0], Integer.parseInt(f[1]), f[2]);
        }
    }

    private static final class Entry {
        final int index;
        final Identity identity;
        final List<byte[]> tokens = new ArrayList<>();
        int holders;

        Entry(int index, Identity identity) {
            this.index = index;
            this.identity = identity;
        }
    }

    private final JmpiRuntime runtime;
    private final String jobId;
    private final int worldSize;
    private final Map<String, Entry> byName = new HashMap<>();
    private final Map<Integer, Entry> byIndex = new HashMap<>();
    private Links links;
    private int next;

    /** A table whose processes are reached over TCP (processes mode). */
    static ProcessTable overTcp(JmpiRuntime runtime, org.jmpi.transport.tcp.TcpTransport tcp) {
        ProcessTable t = new ProcessTable(runtime, null);
        t.links = new Links.Tcp(runtime, tcp, t::admit);
        return t;
    }

    /** A table whose processes are threads of this JVM (threads mode). */
    static ProcessTable inJvm(JmpiRuntime runtime) {
        return new ProcessTable(runtime, new Links.InJvm(runtime));
    }

    private ProcessTable(JmpiRuntime runtime, Links links) {
        this.runtime = runtime;
        this.links = links;
        this.jobId = runtime.bootstrap().jobId();
        this.worldSize = runtime.size();
        this.next = worldSize;
    }

    /** The address this rank's ports listen on. */
    synchronized String portHost() {
        return links.portHost();
    }

    /**
     * Whether process {@code id} can be reached from this rank: always for this job's ranks; for another job's
     * processes, when both sides run the same way (processes over TCP, or threads of this JVM).
     */
    synchronized boolean reaches(Identity id) {
        return id.jobId().equals(jobId) || links.reaches(id.card());
    }

    private static String key(String jobId, int rank) {
        return jobId + "/" + rank;
    }

    /** The identity of peer {@code index} (a world rank or an attached process of another job). */
    public synchronized Identity describe(int index) {
        if (index < worldSize) {
            return new Identity(jobId, index, links.cardOf(index));
        }
        Entry e = byIndex.get(index);
        if (e == null) {
            throw new MpiError(ErrorClass.ERR_INTERN, "process " + index + " is not connected any more");
        }
        return e.identity;
    }

    /**
     * The peer index of {@code id}, made reachable with {@code token} (a process of this job: its world rank). Each
     * call must be matched by one {@link #detach} of the index (processes of this job need none).
     */
    public synchronized int attach(Identity id, byte[] token) {
        if (id.jobId().equals(jobId)) {
            if (id.rank() < 0 || id.rank() >= worldSize) {
                throw new MpiError(ErrorClass.ERR_INTERN, "rank " + id.rank() + " is not in this job");
            }
            return id.rank();
        }
        Entry e = byName.get(key(id.jobId(), id.rank()));
        if (e == null) {
            e = new Entry(next, id);
            links.add(e.index, id, token);
            next++;
            byName.put(key(id.jobId(), id.rank()), e);
            byIndex.put(e.index, e);
        }
        e.tokens.add(token.clone());
        e.holders++;
        return e.index;
    }

    /** Gives back one hold on {@code index}; the last one retires the process from the transport and the engine. */
    public synchronized void detach(int index) {
        Entry e = byIndex.get(index);
        if (e == null || --e.holders > 0) {
            return;
        }
        byIndex.remove(index);
        byName.remove(key(e.identity.jobId(), e.identity.rank()));
        links.retire(index);
        runtime.engine().forgetPeer(index);
    }

    /** Transport admission: the index of the attached process with this job id, rank and token, else -1. */
    synchronized int admit(String otherJob, int rank, byte[] token) {
        Entry e = byName.get(key(otherJob, rank));
        if (e == null) {
            return -1;
        }
        boolean ok = false;
        for (byte[] t : e.tokens) {
            ok |= MessageDigest.isEqual(t, token);
        }
        return ok ? e.index : -1;
    }

    /** This rank finalizes (see {@link Links#close}). */
    synchronized void close() {
        links.close();
    }

    /** Processes of other jobs attached now (for leak checks). */
    public synchronized int attached() {
        return byIndex.size();
    }
}
