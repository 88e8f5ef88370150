package org.jmpi.runtime;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The internal state of a communicator that the lower layers need: its context ids and its group as world
 * ranks. Point-to-point traffic uses {@link #context()}, collectives use {@link #collectiveContext()}, so the two
 * never match each other.
 *
 * <p>Threading: immutable, except the collective and agreement sequence counters (atomics that any thread of the
 * rank may advance) and the fault-tolerance marks (revoked, failures acknowledged: volatile, written by the ULFM
 * calls and the revocation handler).
 */
public final class Communicator {
    private final int context;
    private final int[] worldRanks;
    private final int rank;
    /** For an intercommunicator, the local group as world ranks ({@link #worldRanks} is then the remote group). */
    private final int[] localGroup;
    /** Counts the collective operations started on this communicator by this rank (see {@link #nextCollective}). */
    private final AtomicInteger collectives = new AtomicInteger();
    /**
     * Every communicator of this rank by point-to-point context id (the newest for a reused id), so that a failed
     * world rank can be matched to the receives that name it ({@link #forContext}). Static, hence one map per rank:
     * per class loader in threads mode. Bounded by the number of context ids in use at once.
     */
    private static final java.util.concurrent.ConcurrentHashMap<Integer, Communicator> BY_CONTEXT =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** Revoked (ULFM): set once, by the first revocation this rank sees. */
    private volatile boolean revoked;
    /** How many of its failed members this rank has acknowledged (ULFM's ack_failed). */
    private volatile int acknowledged;

    public Communicator(int context, int[] worldRanks, int rank) {
        this.context = context;
        this.worldRanks = worldRanks;
        this.rank = rank;
        this.localGroup = null;
        registerNew();
    }

    private void registerNew() {
        BY_CONTEXT.put(context, this);
        JmpiRuntime rt = JmpiRuntime.current();
        if (rt != null && rt.failures().any()) {
            rt.failures().onNewCommunicator(this);
        }
    }

    /** The communicators of this rank known by context (see {@link #forContext}). */
    static java.util.Collection<Communicator> registered() {
        return BY_CONTEXT.values();
    }

    /** Whether world rank {@code w} belongs to this communicator (for an intercommunicator, to either group). */
    public boolean contains(int w) {
        for (int x : worldRanks) {
            if (x == w) {
                return true;
            }
        }
        if (localGroup != null) {
            for (int x : localGroup) {
                if (x == w) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Used for collective work only (a library's private duplicate, such as MPI-IO's, whose point-to-point context
     * carries the messages of its collective operations): a failed member then poisons both contexts.
     */
    private volatile boolean collectiveOnly;

    /** Marks this communicator as used for collective work only (see {@link #collectiveOnly()}). */
    public void markCollectiveOnly() {
        collectiveOnly = true;
        JmpiRuntime rt = JmpiRuntime.current();
        if (rt != null && rt.failures().any()) {
            rt.failures().onNewCommunicator(this);
        }
    }

    /** Whether this communicator is used for collective work only. */
    public boolean collectiveOnly() {
        return collectiveOnly;
    }

    /** Whether this communicator has been revoked (ULFM). */
    public boolean isRevoked() {
        return revoked;
    }

    /** Marks this communicator revoked; true the first time. */
    public synchronized boolean markRevoked() {
        if (revoked) {
            return false;
        }
        revoked = true;
        return true;
    }

    /** Counts the agreements (ULFM agree and shrink) started on this communicator by this rank. */
    private final AtomicInteger agreements = new AtomicInteger();

    /** The sequence number of the next agreement on this communicator (the same at every member, as collectives). */
    public int nextAgreement() {
        return agreements.getAndIncrement();
    }

    /** Every member as a world rank (for an intercommunicator, both groups), ascending, without repeats. */
    public int[] allMembers() {
        java.util.TreeSet<Integer> all = new java.util.TreeSet<>();
        for (int w : worldRanks) {
            all.add(w);
        }
        if (localGroup != null) {
            for (int w : localGroup) {
                all.add(w);
            }
        }
        return all.stream().mapToInt(Integer::intValue).toArray();
    }

    /** A hash of the context and the members (the same value at every member). */
    public long membersHash() {
        long h = 0x9E3779B97F4A7C15L ^ context;
        for (int w : allMembers()) {
            h = (h ^ w) * 0x100000001B3L;
        }
        return h;
    }

    /** Number of failed members acknowledged. */
    public int acknowledged() {
        return acknowledged;
    }

    /** Sets the number of failed members acknowledged (ULFM's ack_failed). */
    public void acknowledge(int n) {
        acknowledged = n;
    }

    /** The communicator whose point-to-point or collective context is {@code context}, or null if none. */
    public static Communicator forContext(int context) {
        Communicator c = BY_CONTEXT.get(context);
        if (c == null) {
            c = BY_CONTEXT.get(context - 1);
            if (c != null && c.collectiveContext() != context) {
                c = null;
            }
        }
        return c;
    }

    /**
     * An intercommunicator: ranks given to {@link #worldRank} and {@link #size} name the remote group (so
     * point-to-point works unchanged), {@link #rank} is this process's rank in the local group.
     */
    public Communicator(int context, int[] remoteWorldRanks, int[] localWorldRanks, int rank) {
        this.context = context;
        this.worldRanks = remoteWorldRanks;
        this.rank = rank;
        this.localGroup = localWorldRanks;
        registerNew();
    }

    public boolean isInter() {
        return localGroup != null;
    }

    /** Size of the group this process belongs to (for an intracommunicator the same as {@link #size}). */
    public int localSize() {
        return localGroup != null ? localGroup.length : worldRanks.length;
    }

    /** World ranks of the group this process belongs to (a copy). */
    public int[] localWorldRanks() {
        return localGroup != null ? localGroup.clone() : worldRanks.clone();
    }

    public int context() {
        return context;
    }

    public int collectiveContext() {
        return context + 1;
    }

    /**
     * The sequence number of the next collective operation on this communicator. Every rank calls collectives in
     * the same order, so the numbers agree across ranks; collective schedules put them in their tags, so that the
     * messages of non-blocking collectives in flight at the same time never match each other.
     */
    public int nextCollective() {
        if (revoked) {
            throw new MpiError(ErrorClass.ERR_REVOKED, "the communicator has been revoked");
        }
        return collectives.getAndIncrement();
    }

    public int size() {
        return worldRanks.length;
    }

    /** This rank's rank in the communicator. */
    public int rank() {
        return rank;
    }

    /** World rank of communicator rank {@code r}. */
    public int worldRank(int r) {
        return worldRanks[r];
    }

    public int[] worldRanks() {
        return worldRanks.clone();
    }

    /** The collectives' record of which members share a host (org.jmpi.coll.Hosts), made on first use. */
    private volatile Object hosts;

    /** What {@link #hosts(Object)} kept, or null. */
    public Object hosts() {
        return hosts;
    }

    /** Keeps the collectives' host layout of this communicator (computed from values every member shares). */
    public void hosts(Object layout) {
        hosts = layout;
    }
}
