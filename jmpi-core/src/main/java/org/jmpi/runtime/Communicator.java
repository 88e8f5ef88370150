package org.jmpi.runtime;

/**
 * The internal state of a communicator that the lower layers need: its context ids and its group as world
 * ranks. Point-to-point traffic uses {@link #context()}, collectives use {@link #collectiveContext()}, so the two
 * never match each other.
 *
 * <p>Threading: immutable.
 */
public final class Communicator {
    private final int context;
    private final int[] worldRanks;
    private final int rank;

    public Communicator(int context, int[] worldRanks, int rank) {
        this.context = context;
        this.worldRanks = worldRanks;
        this.rank = rank;
    }

    public int context() {
        return context;
    }

    public int collectiveContext() {
        return context + 1;
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
