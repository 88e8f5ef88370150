package mpi;

/** The neighbours of a shift in a Cartesian communicator, as returned by {@link CartComm#shift(int, int)}. */
public final class ShiftParms {
    private final int rankSource;
    private final int rankDest;

    ShiftParms(int rankSource, int rankDest) {
        this.rankSource = rankSource;
        this.rankDest = rankDest;
    }

    /** The rank to receive from, or {@link MPI#PROC_NULL} at a non-periodic border. */
    public int getRankSource() {
        return rankSource;
    }

    /** The rank to send to, or {@link MPI#PROC_NULL} at a non-periodic border. */
    public int getRankDest() {
        return rankDest;
    }
}
