package org.jmpi.runtime;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The internal state of a communicator that the lower layers need: its context ids and its group as world
 * ranks. Point-to-point traffic uses {@link #context()}, collectives use {@link #collectiveContext()}, so the two
 * never match each other.
 *
 * <p>Threading: immutable, except the collective sequence counter, an atomic that any thread of the rank may
 * advance.
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

    public Communicator(int context, int[] worldRanks, int rank) {
        this.context = context;
        this.worldRanks = worldRanks;
        this.rank = rank;
        this.localGroup = null;
        BY_CONTEXT.put(context, this);
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
        BY_CONTEXT.put(context, this);
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
}
