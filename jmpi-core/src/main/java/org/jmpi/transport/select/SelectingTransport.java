package org.jmpi.transport.select;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jmpi.bootstrap.Bootstrap;
import org.jmpi.transport.ProtocolHints;
import org.jmpi.transport.SingleCopy;
import org.jmpi.transport.Transport;
import org.jmpi.transport.shm.ShmTransport;
import org.jmpi.transport.tcp.TcpTransport;

/**
 * One {@link Transport} made of two: shared memory for the ranks of this host, TCP for the rest. Each peer's route is
 * chosen on first use and then fixed, so the ordering promise of the SPI carries over from the chosen transport.
 *
 * <p><b>Route of a peer:</b> TCP when TCP is forced or the peer is on another host; shared memory when this rank has a
 * segment and the peer's segment can be mapped (it published a card); TCP otherwise.
 *
 * <p><b>Polling.</b> Shared memory is polled on every pass. TCP is polled on every pass when some peer is on another
 * host (or TCP is forced, or shared memory is off), and otherwise at most every {@link #QUIET_TCP_POLL_NANOS} (looked
 * at on every 1024th pass): then nobody should connect, but a local peer that could not set up shared memory would,
 * and must not wait for ever; once anything arrives over TCP, it is polled on every pass from then on. Polled on every
 * 1024th pass, as it was before, the select ran thousands of times a second in a ping-pong, so that the JIT compiled
 * it (12-20 ms of a compiler thread, on two cores taken from the ranks) about a second into the program, in the middle
 * of its first timed loop; at most every 10 ms it takes most of a minute to become that hot. After a sleep in
 * {@link #await} the next pass looks (a rank that sleeps makes few passes).
 *
 * <p><b>Waiting.</b> With shared memory alone, {@link #await} sleeps on its futex doorbell, at most 10 ms at a time
 * while a TCP listener exists (for the fallback case above). With TCP alone it sleeps in the selector. With both in
 * use it sleeps in the selector for at most 1 ms: a shared-memory sender cannot wake a selector in another process,
 * so a frame arriving over shared memory while this rank sleeps waits up to that long (only after the spin and yield
 * phases, i.e. only when this rank had nothing to do for a while).
 *
 * <p><b>Threading.</b> {@code routes} entries are written once (racing writers compute the same value) and read
 * without a lock; {@code passes} is touched only by the progress owner. Everything else is final.
 */
public final class SelectingTransport implements Transport, ProtocolHints, SingleCopy {
    private static final byte UNDECIDED = 0;
    private static final byte SHM = 1;
    private static final byte TCP = 2;
    private static final long SHM_ONLY_SLEEP_CAP = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long MIXED_SLEEP_CAP = TimeUnit.MILLISECONDS.toNanos(1);
    /** Longest time between two polls of TCP while no peer uses it (see "Polling" above). */
    static final long QUIET_TCP_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final Bootstrap bootstrap;
    private final ShmTransport shm;
    private final Transport tcp;
    /** TCP's eager limit ({@link TcpTransport#eagerLimit}), -1 for another transport in its place (tests). */
    private final long tcpEagerLimit;
    /** TCP's data frame size ({@link TcpTransport#chunkBytes}), -1 for another transport in its place (tests). */
    private final long tcpChunkBytes;
    private final TransportChoice choice;
    private final byte[] routes;
    /** Final but for {@link #expectOtherJobs()}, which turns it on once. */
    private volatile boolean pollTcpAlways;
    private int passes;
    /** When TCP was last polled while {@link #pollTcpAlways} is false (progress owner only). */
    private long lastQuietTcpPoll;
    private volatile boolean described;

    SelectingTransport(Bootstrap bootstrap, ShmTransport shm, Transport tcp, TransportChoice choice,
            boolean anyRemote) {
        this.bootstrap = bootstrap;
        this.shm = shm;
        this.tcp = tcp;
        this.tcpEagerLimit = tcp instanceof TcpTransport t ? t.eagerLimit() : -1;
        this.tcpChunkBytes = tcp instanceof TcpTransport t ? t.chunkBytes() : -1;
        this.choice = choice;
        this.routes = new byte[bootstrap.size()];
        this.traffic = new org.jmpi.transport.Traffic(bootstrap.size());
        this.pollTcpAlways = tcp != null && (shm == null || anyRemote);
        if (tcp instanceof TcpTransport t && shm != null) {
            t.pollAlongside(shm); // a lane waiting for a rank of another host keeps this host's rings moving
        }
    }

    @Override
    public String name() {
        return shm == null ? tcp.name() : tcp == null ? shm.name() : shm.name() + "+" + tcp.name();
    }

    /**
     * Peers of other jobs (dynamic processes) will talk over TCP from now on: poll TCP on every pass and sleep in the
     * selector (as when some peer is on another host).
     */
    public void expectOtherJobs() {
        if (tcp != null) {
            pollTcpAlways = true;
            wakeup();
        }
    }

    /** Whether TCP is polled on every pass now (tests). */
    boolean pollsTcpOnEveryPass() {
        return pollTcpAlways;
    }

    /** The TCP transport, or null when there is none. */
    public org.jmpi.transport.tcp.TcpTransport tcp() {
        return (org.jmpi.transport.tcp.TcpTransport) tcp;
    }

    /** The shared-memory transport, or null when there is none. */
    public ShmTransport shm() {
        return shm;
    }

    /** The transport that serves {@code peer}: "shm" or "tcp" (decides the route if needed). */
    public String transportOf(int peer) {
        return to(peer).name();
    }

    private byte route(int peer) {
        if (peer >= routes.length) {
            return TCP; // a process of another job (dynamic processes): always over TCP
        }
        byte r = routes[peer];
        if (r == UNDECIDED) {
            r = shm != null && shm.reaches(peer) ? SHM : TCP;
            routes[peer] = r;
        }
        return r;
    }

    private Transport to(int peer) {
        return route(peer) == SHM || tcp == null ? shm : tcp;
    }

    @Override
    public void afterStartFence() {
        if (shm != null) {
            shm.mapAllPeers();
        }
    }

    /** Frames and bytes per peer; counted here for what is sent and by the engine for what arrives. */
    private final org.jmpi.transport.Traffic traffic;

    /** This rank's traffic counters. */
    public org.jmpi.transport.Traffic traffic() {
        return traffic;
    }

    /** "shm", "tcp" or "" (not decided yet): the transport that serves {@code peer}, without deciding it. */
    public String routeName(int peer) {
        byte r = peer >= 0 && peer < routes.length ? routes[peer] : UNDECIDED;
        return r == SHM ? "shm" : r == TCP ? "tcp" : "";
    }

    @Override
    public org.jmpi.transport.Lane lane(int peer) {
        if (peer >= routes.length) {
            return null; // a process of another job: the usual way
        }
        return route(peer) == SHM || tcp == null ? shm : tcp.lane(peer);
    }

    @Override
    public void send(int peer, MemorySegment header, MemorySegment payload, Runnable onWritten) {
        traffic.sent(peer, payload == null ? 0 : payload.byteSize());
        to(peer).send(peer, header, payload, onWritten);
    }

    @Override
    public boolean poll() {
        if (choice.verbose() && !described) {
            describe();
        }
        boolean any = false;
        if (shm != null) {
            any = shm.poll();
        }
        if (tcp != null) {
            if (pollTcpAlways) {
                if (tcp.poll()) {
                    any = true;
                    if (shm != null) {
                        shm.resetSleep(); // TCP is busy: sleep short again (see await)
                    }
                }
            } else if ((++passes & 1023) == 0) {
                any |= pollQuietTcp();
            }
        }
        return any;
    }

    /**
     * Shared memory's look when TCP is quiet (only local peers; TCP is then polled every 1024 passes, at most every
     * {@link #QUIET_TCP_POLL_NANOS}, and a waiter that spins on this runs a pass at least every few dozen spins);
     * true when TCP is polled on every pass, which needs a system call to know.
     */
    @Override
    public boolean mayHaveWork() {
        return shm == null || pollTcpAlways || shm.mayHaveWork();
    }

    /** Polls TCP if {@link #QUIET_TCP_POLL_NANOS} have passed since the last time; polls always once it had work. */
    private boolean pollQuietTcp() {
        long now = System.nanoTime();
        if (now - lastQuietTcpPoll < QUIET_TCP_POLL_NANOS) {
            return false;
        }
        lastQuietTcpPoll = now;
        boolean any = tcp.poll();
        if (any) {
            pollTcpAlways = true; // a peer talks over TCP after all (a local one that could not map our segment)
        }
        return any;
    }

    @Override
    public void await(long nanos) {
        if (shm == null) {
            tcp.await(nanos);
        } else if (tcp == null) {
            shm.await(nanos);
        } else if (!pollTcpAlways) {
            shm.await(Math.min(nanos, SHM_ONLY_SLEEP_CAP));
            passes |= 1023; // the next pass looks at TCP (if it is due)
        } else {
            // Peers on this host and on others: sleep on the shared-memory doorbell, which a sender of this host
            // rings, for at most the shared-memory sleep's growing step (20 us, doubling while nothing arrives over
            // either transport) and at most MIXED_SLEEP_CAP, then poll TCP. A sleep in TCP's selector instead could
            // not be woken by a sender of this host: each shared-memory message then cost a waiting rank up to the
            // whole 1 ms (Jacobi 256 on 2 namespace hosts x 2 ranks, 4 ranks on 2 cores: 3.5 s to solution against
            // Open MPI Java's 0.46).
            shm.await(Math.min(nanos, MIXED_SLEEP_CAP));
        }
    }

    @Override
    public void wakeup() {
        if (shm != null) {
            shm.wakeup();
        }
        if (tcp != null) {
            tcp.wakeup();
        }
    }

    @Override
    public void close() {
        try {
            if (shm != null) {
                shm.close();
            }
        } finally {
            if (tcp != null) {
                tcp.close();
            }
        }
    }

    // ------------------------------------------------------------------------------------------ capabilities

    @Override
    public long eagerLimit(int peer) {
        byte r = route(peer);
        return r == SHM ? shm.eagerLimit(peer) : r == TCP ? tcpEagerLimit : -1;
    }

    @Override
    public long chunkBytes(int peer) {
        byte r = route(peer);
        return r == SHM ? shm.chunkBytes(peer) : r == TCP ? tcpChunkBytes : -1;
    }

    @Override
    public boolean splitsData(int peer) {
        return route(peer) != TCP;
    }

    @Override
    public long streamLimit(int peer) {
        return route(peer) == SHM ? shm.streamLimit(peer) : -1;
    }

    @Override
    public boolean canReadFrom(int peer) {
        return route(peer) == SHM && shm.canReadFrom(peer);
    }

    @Override
    public boolean read(int peer, long remoteAddress, MemorySegment into) {
        return route(peer) == SHM && shm.read(peer, remoteAddress, into);
    }

    @Override
    public boolean write(int peer, MemorySegment from, long remoteAddress) {
        return route(peer) == SHM && shm.write(peer, from, remoteAddress);
    }

    @Override
    public long splitMin(int peer) {
        return route(peer) == SHM ? shm.splitMin(peer) : -1;
    }

    // ------------------------------------------------------------------------------------------ verbose

    /** Prints this rank's routes once, on standard error (jmpirun --verbose). */
    private synchronized void describe() {
        if (described) {
            return;
        }
        described = true;
        System.err.println(describeRoutes());
    }

    /** One line: which transport serves which peer. Decides every route (maps every local peer's segment). */
    public String describeRoutes() {
        int me = bootstrap.rank();
        List<Integer> viaShm = new ArrayList<>();
        List<Integer> viaTcp = new ArrayList<>();
        String shmDetail = "";
        for (int p = 0; p < routes.length; p++) {
            if (p == me) {
                continue;
            }
            if (route(p) == SHM) {
                viaShm.add(p);
                shm.canReadFrom(p);
                shmDetail = " " + shm.describe(p);
            } else {
                viaTcp.add(p);
            }
        }
        StringBuilder sb = new StringBuilder("jmpi: rank ").append(me).append(" (pid ")
                .append(ProcessHandle.current().pid()).append("): self -> ").append(me);
        if (!viaShm.isEmpty()) {
            sb.append("; shm -> ").append(ranges(viaShm)).append(shmDetail);
        }
        if (!viaTcp.isEmpty()) {
            sb.append("; tcp -> ").append(ranges(viaTcp));
        }
        if (shm != null) {
            sb.append("; segment ").append(shm.segmentPath());
        }
        return sb.toString();
    }

    private static String ranges(List<Integer> ranks) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ranks.size(); ) {
            int j = i;
            while (j + 1 < ranks.size() && ranks.get(j + 1) == ranks.get(j) + 1) {
                j++;
            }
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(ranks.get(i));
            if (j > i) {
                sb.append('-').append(ranks.get(j));
            }
            i = j + 1;
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "SelectingTransport[" + name() + "]";
    }
}
