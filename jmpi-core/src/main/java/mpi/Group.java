package mpi;

/** An ordered set of processes (MPI_Group). Groups are local objects: creating one involves no communication. */
public final class Group implements Freeable {
    private final int[] worldRanks;
    private final int myWorldRank;
    private final boolean predefined;
    private boolean freed;

    /**
     * A group of the processes with the given world ranks, in group-rank order.
     *
     * @param worldRanks the world rank of each member; copied
     * @param myWorldRank the caller's own world rank
     */
    Group(int[] worldRanks, int myWorldRank) {
        this(worldRanks.clone(), myWorldRank, false);
    }

    private Group(int[] worldRanks, int myWorldRank, boolean predefined) {
        this.worldRanks = worldRanks;
        this.myWorldRank = myWorldRank;
        this.predefined = predefined;
    }

    /** The predefined empty group {@link MPI#GROUP_EMPTY}. */
    static Group newEmpty() {
        return new Group(new int[0], MPI.UNDEFINED, true);
    }

    /** The world rank of each member, in group-rank order (a copy). */
    int[] worldRanks() {
        return worldRanks.clone();
    }

    /** The caller's world rank, as given at creation. */
    int myWorldRank() {
        return myWorldRank;
    }

    /** True for the predefined {@link MPI#GROUP_EMPTY}. */
    boolean isPredefined() {
        return predefined;
    }

    @NotImplemented
    public int getSize() throws MPIException {
        throw Unsupported.of("Group.getSize()");
    }

    @NotImplemented
    public int getRank() throws MPIException {
        throw Unsupported.of("Group.getRank()");
    }

    @NotImplemented
    public void free() throws MPIException {
        throw Unsupported.of("Group.free()");
    }

    public boolean isNull() {
        return freed;
    }

    @NotImplemented
    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) throws MPIException {
        throw Unsupported.of("Group.translateRanks(Group, int[], Group)");
    }

    @NotImplemented
    public static int compare(Group group1, Group group2) throws MPIException {
        throw Unsupported.of("Group.compare(Group, Group)");
    }

    @NotImplemented
    public static Group union(Group group1, Group group2) throws MPIException {
        throw Unsupported.of("Group.union(Group, Group)");
    }

    @NotImplemented
    public static Group intersection(Group group1, Group group2) throws MPIException {
        throw Unsupported.of("Group.intersection(Group, Group)");
    }

    @NotImplemented
    public static Group difference(Group group1, Group group2) throws MPIException {
        throw Unsupported.of("Group.difference(Group, Group)");
    }

    @NotImplemented
    public Group incl(int[] ranks) throws MPIException {
        throw Unsupported.of("Group.incl(int[])");
    }

    @NotImplemented
    public Group excl(int[] ranks) throws MPIException {
        throw Unsupported.of("Group.excl(int[])");
    }

    @NotImplemented
    public Group rangeIncl(int[][] ranges) throws MPIException {
        throw Unsupported.of("Group.rangeIncl(int[][])");
    }

    @NotImplemented
    public Group rangeExcl(int[][] ranges) throws MPIException {
        throw Unsupported.of("Group.rangeExcl(int[][])");
    }
}
