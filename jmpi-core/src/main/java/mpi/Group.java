package mpi;

import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * An ordered set of processes (MPI_Group). Groups are local objects: creating one involves no communication.
 *
 * <p>A group is a list of world ranks, one per member in group-rank order, plus the caller's own world rank. The
 * set operations ({@link #incl}, {@link #union}, ...) work on these lists and never touch the runtime.
 *
 * <p>Not thread-safe: a group object belongs to the thread that uses it (it is immutable apart from
 * {@link #free()}).
 */
public final class Group implements Freeable {
    private final int[] worldRanks;
    private final int myWorldRank;
    private final boolean predefined;
    /** The session whose process set this group was made from, or that of the group it was derived from; else null. */
    Session session;
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

    /**
     * MPI_Group_from_session_pset (MPI 4.0): the group of a session's process set, {@code mpi://WORLD} or
     * {@code mpi://SELF}.
     */
    public static Group fromSessionPset(Session session, String pset) throws MPIException {
        if (session == null) {
            throw Errors.raise(MPI.ERRORS_RETURN, "MPI_Group_from_session_pset",
                    new org.jmpi.runtime.MpiError(org.jmpi.runtime.ErrorClass.ERR_SESSION, "null session"));
        }
        session.checkOpen("MPI_Group_from_session_pset");
        try {
            Group g = new Group(session.psetRanks(pset), Session.myWorldRank());
            g.session = session;
            return g;
        } catch (org.jmpi.runtime.MpiError e) {
            throw session.fail("MPI_Group_from_session_pset", e);
        }
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

    public int getSize() throws MPIException {
        check(this, "Group.getSize");
        return worldRanks.length;
    }

    /** This process's rank in the group, or {@link MPI#UNDEFINED} when it is not a member. */
    public int getRank() throws MPIException {
        check(this, "Group.getRank");
        for (int i = 0; i < worldRanks.length; i++) {
            if (worldRanks[i] == myWorldRank) {
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    /**
     * Frees the group; {@link #isNull()} is true afterwards. Freeing the predefined {@link MPI#GROUP_EMPTY} is
     * allowed and leaves it usable, because the object is shared by the whole program.
     *
     * @throws MPIException {@link MPI#ERR_GROUP} when the group is already freed
     */
    @Override
    public void free() throws MPIException {
        check(this, "Group.free");
        if (!predefined) {
            freed = true;
        }
    }

    /** True once the group has been freed (MPI_GROUP_NULL). */
    public boolean isNull() {
        return freed;
    }

    /**
     * The ranks in {@code group2} of the processes that have ranks {@code ranks1} in {@code group1}:
     * {@link MPI#UNDEFINED} for a process that is not in {@code group2}, {@link MPI#PROC_NULL} for
     * {@code PROC_NULL}.
     *
     * @throws MPIException {@link MPI#ERR_GROUP} for a null or freed group, {@link MPI#ERR_RANK} for a rank outside
     *     {@code group1}, {@link MPI#ERR_ARG} when {@code ranks1} is null
     */
    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) throws MPIException {
        String call = "Group.translateRanks";
        check(group1, call);
        check(group2, call);
        if (ranks1 == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": the rank array is null");
        }
        Map<Integer, Integer> index2 = indexOf(group2.worldRanks);
        int[] out = new int[ranks1.length];
        for (int i = 0; i < ranks1.length; i++) {
            int r = ranks1[i];
            if (r == MPI.PROC_NULL) {
                out[i] = MPI.PROC_NULL;
                continue;
            }
            group1.checkRank(r, call);
            out[i] = index2.getOrDefault(group1.worldRanks[r], MPI.UNDEFINED);
        }
        return out;
    }

    /**
     * {@link MPI#IDENT} when both groups have the same members in the same order, {@link MPI#SIMILAR} when they
     * have the same members in another order, else {@link MPI#UNEQUAL}.
     *
     * @throws MPIException {@link MPI#ERR_GROUP} for a null or freed group
     */
    public static int compare(Group group1, Group group2) throws MPIException {
        check(group1, "Group.compare");
        check(group2, "Group.compare");
        int[] a = group1.worldRanks;
        int[] b = group2.worldRanks;
        if (a.length != b.length) {
            return MPI.UNEQUAL;
        }
        if (Arrays.equals(a, b)) {
            return MPI.IDENT;
        }
        Set<Integer> members = new HashSet<>();
        for (int w : a) {
            members.add(w);
        }
        for (int w : b) {
            if (!members.contains(w)) {
                return MPI.UNEQUAL;
            }
        }
        return MPI.SIMILAR;
    }

    /**
     * The members of {@code group1} in their order, followed by the members of {@code group2} that are not in
     * {@code group1}, in their order.
     *
     * @throws MPIException {@link MPI#ERR_GROUP} for a null or freed group
     */
    public static Group union(Group group1, Group group2) throws MPIException {
        check(group1, "Group.union");
        check(group2, "Group.union");
        Set<Integer> in1 = memberSet(group1.worldRanks);
        int[] out = new int[group1.worldRanks.length + group2.worldRanks.length];
        System.arraycopy(group1.worldRanks, 0, out, 0, group1.worldRanks.length);
        int n = group1.worldRanks.length;
        for (int w : group2.worldRanks) {
            if (!in1.contains(w)) {
                out[n++] = w;
            }
        }
        return group1.derive(Arrays.copyOf(out, n));
    }

    /**
     * The members of {@code group1} that are also in {@code group2}, in the order of {@code group1}.
     *
     * @throws MPIException {@link MPI#ERR_GROUP} for a null or freed group
     */
    public static Group intersection(Group group1, Group group2) throws MPIException {
        check(group1, "Group.intersection");
        check(group2, "Group.intersection");
        return group1.filter(memberSet(group2.worldRanks), true);
    }

    /**
     * The members of {@code group1} that are not in {@code group2}, in the order of {@code group1}.
     *
     * @throws MPIException {@link MPI#ERR_GROUP} for a null or freed group
     */
    public static Group difference(Group group1, Group group2) throws MPIException {
        check(group1, "Group.difference");
        check(group2, "Group.difference");
        return group1.filter(memberSet(group2.worldRanks), false);
    }

    /**
     * A group of the members with ranks {@code ranks}, in that order.
     *
     * @throws MPIException {@link MPI#ERR_RANK} for a rank outside this group or a repeated rank,
     *     {@link MPI#ERR_ARG} when {@code ranks} is null, {@link MPI#ERR_GROUP} when this group is freed
     */
    public Group incl(int[] ranks) throws MPIException {
        String call = "Group.incl";
        check(this, call);
        BitSet seen = checkRankList(ranks, call);
        int[] out = new int[seen.cardinality()];
        for (int i = 0; i < ranks.length; i++) {
            out[i] = worldRanks[ranks[i]];
        }
        return derive(out);
    }

    /**
     * This group without the members with ranks {@code ranks}; the others keep their order.
     *
     * @throws MPIException {@link MPI#ERR_RANK} for a rank outside this group or a repeated rank,
     *     {@link MPI#ERR_ARG} when {@code ranks} is null, {@link MPI#ERR_GROUP} when this group is freed
     */
    public Group excl(int[] ranks) throws MPIException {
        String call = "Group.excl";
        check(this, call);
        return keepUnless(checkRankList(ranks, call));
    }

    /**
     * A group of the members selected by the triplets {@code ranges[i] = {first, last, stride}}: ranks
     * {@code first, first + stride, ...} up to {@code last}, triplet after triplet.
     *
     * @throws MPIException {@link MPI#ERR_ARG} for a null array, a triplet that is not three ints, a zero stride or
     *     a stride pointing away from {@code last}; {@link MPI#ERR_RANK} for a first or last rank outside this group
     *     or a rank selected twice; {@link MPI#ERR_GROUP} when this group is freed
     */
    public Group rangeIncl(int[][] ranges) throws MPIException {
        String call = "Group.rangeIncl";
        check(this, call);
        int[] ranks = expandRanges(ranges, call);
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            out[i] = worldRanks[ranks[i]];
        }
        return derive(out);
    }

    /**
     * This group without the members selected by the triplets {@code ranges} (see {@link #rangeIncl}); the others
     * keep their order.
     *
     * @throws MPIException as {@link #rangeIncl}
     */
    public Group rangeExcl(int[][] ranges) throws MPIException {
        String call = "Group.rangeExcl";
        check(this, call);
        BitSet excluded = new BitSet(worldRanks.length);
        for (int r : expandRanges(ranges, call)) {
            excluded.set(r);
        }
        return keepUnless(excluded);
    }

    @Override
    public String toString() {
        return freed ? "MPI_GROUP_NULL" : "Group" + Arrays.toString(worldRanks);
    }

    private Group derive(int[] members) {
        Group g = new Group(members, myWorldRank, false);
        g.session = session;
        return g;
    }

    private Group filter(Set<Integer> other, boolean keepMembers) {
        int[] out = new int[worldRanks.length];
        int n = 0;
        for (int w : worldRanks) {
            if (other.contains(w) == keepMembers) {
                out[n++] = w;
            }
        }
        return derive(Arrays.copyOf(out, n));
    }

    private Group keepUnless(BitSet excluded) {
        int[] out = new int[worldRanks.length - excluded.cardinality()];
        int n = 0;
        for (int r = 0; r < worldRanks.length; r++) {
            if (!excluded.get(r)) {
                out[n++] = worldRanks[r];
            }
        }
        return derive(out);
    }

    /** Checks that {@code ranks} lists distinct ranks of this group; returns them as a set. */
    private BitSet checkRankList(int[] ranks, String call) throws MPIException {
        if (ranks == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": the rank array is null");
        }
        BitSet seen = new BitSet(worldRanks.length);
        for (int r : ranks) {
            checkRank(r, call);
            if (seen.get(r)) {
                throw new MPIException(MPI.ERR_RANK, call + ": rank " + r + " is listed twice");
            }
            seen.set(r);
        }
        return seen;
    }

    /** The ranks selected by range triplets, in order; validated as described at {@link #rangeIncl}. */
    private int[] expandRanges(int[][] ranges, String call) throws MPIException {
        if (ranges == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": the range array is null");
        }
        BitSet seen = new BitSet(worldRanks.length);
        int[] out = new int[worldRanks.length];
        int n = 0;
        for (int i = 0; i < ranges.length; i++) {
            int[] t = ranges[i];
            if (t == null || t.length != 3) {
                throw new MPIException(MPI.ERR_ARG, call + ": range " + i + " is not a {first, last, stride} triplet");
            }
            int first = t[0];
            int last = t[1];
            int stride = t[2];
            if (stride == 0) {
                throw new MPIException(MPI.ERR_ARG, call + ": range " + i + " has stride 0");
            }
            if ((first < last && stride < 0) || (first > last && stride > 0)) {
                throw new MPIException(MPI.ERR_ARG, call + ": range " + i + " {" + first + ", " + last + ", "
                        + stride + "} has a stride pointing away from its last rank");
            }
            checkRank(first, call);
            checkRank(last, call);
            long count = ((long) last - first) / stride + 1;
            for (long k = 0; k < count; k++) {
                int r = (int) (first + k * stride);
                if (seen.get(r)) {
                    throw new MPIException(MPI.ERR_RANK, call + ": rank " + r + " is selected twice");
                }
                seen.set(r);
                out[n++] = r;
            }
        }
        return Arrays.copyOf(out, n);
    }

    private void checkRank(int r, String call) throws MPIException {
        if (r < 0 || r >= worldRanks.length) {
            throw new MPIException(MPI.ERR_RANK,
                    call + ": rank " + r + " is not in a group of size " + worldRanks.length);
        }
    }

    private static void check(Group g, String call) throws MPIException {
        if (g == null) {
            throw new MPIException(MPI.ERR_GROUP, call + ": the group is null");
        }
        if (g.freed) {
            throw new MPIException(MPI.ERR_GROUP, call + ": the group has been freed");
        }
    }

    private static Set<Integer> memberSet(int[] members) {
        Set<Integer> s = new HashSet<>(members.length * 2);
        for (int w : members) {
            s.add(w);
        }
        return s;
    }

    private static Map<Integer, Integer> indexOf(int[] members) {
        Map<Integer, Integer> m = new HashMap<>(members.length * 2);
        for (int i = 0; i < members.length; i++) {
            m.put(members[i], i);
        }
        return m;
    }
}
