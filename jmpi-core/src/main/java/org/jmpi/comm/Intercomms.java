package org.jmpi.comm;

import java.util.function.UnaryOperator;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;

/**
 * Builds intercommunicators and what derives from them.
 *
 * <p>An intercommunicator is a {@link Communicator} whose ranks (for {@code worldRank}, {@code size}) name the
 * remote group and whose {@code rank()} is this process's rank in the local group. A message to remote rank
 * {@code r} goes to {@code worldRank(r)} enveloped with the sender's local rank, and a receive from remote rank
 * {@code r} matches exactly that envelope, so the point-to-point engine needs no change. Both groups use one context
 * id, agreed over both groups: each group ANDs its bitmaps ({@link GroupCollectives#allreduceBand}), the two leaders
 * swap their results, and each leader broadcasts the AND of both to its group. The slot's third and fourth contexts
 * carry the local group's own collectives ({@link #localOf}).
 *
 * <p>Cost of a creation: one allreduce and one broadcast in each group plus one message each way between the
 * leaders, so {@code O(log P)} messages per rank; createIntercomm also exchanges the two groups (leaders) and
 * broadcasts the remote one ({@code O(P)} bytes, {@code O(log P)} messages).
 *
 * <p>Threading: stateless.
 */
public final class Intercomms {
    /** Tag of the leaders' messages on an intercommunicator's collective context. */
    private static final int LEADER_TAG = 0x4c454144;

    private Intercomms() {}

    /** The intracommunicator of the local group of {@code inter} (on the third context of its slot). */
    public static Communicator localOf(Communicator inter) {
        int[] local = inter.localWorldRanks();
        return new Communicator(inter.context() + 2, local, inter.rank());
    }

    /**
     * MPI_Intercomm_create, at one process of the local group.
     *
     * @param local the local intracommunicator
     * @param localLeader the leader's rank in {@code local}
     * @param peer a communicator holding both leaders (significant at the leader only)
     * @param remoteLeader the remote leader's rank in {@code peer} (significant at the leader only)
     */
    public static Communicator create(Communicator local, int localLeader, Communicator peer, int remoteLeader,
            int tag) {
        boolean leader = local.rank() == localLeader;
        int[] localWorld = local.worldRanks();
        int[] remote;
        if (leader) {
            remote = GroupCollectives.exchange(peer, peer.context(), remoteLeader, tag, localWorld,
                    JmpiRuntime.get().size());
            GroupCollectives.bcast(local, new int[] {remote.length}, localLeader);
            GroupCollectives.bcast(local, remote, localLeader);
        } else {
            int[] n = GroupCollectives.bcast(local, new int[1], localLeader);
            remote = GroupCollectives.bcast(local, new int[n[0]], localLeader);
        }
        for (int w : remote) {
            for (int l : localWorld) {
                if (w == l) {
                    throw new MpiError(ErrorClass.ERR_COMM, "the local and remote groups overlap (world rank " + w
                            + " is in both)");
                }
            }
        }
        int context = ContextIds.get().allocate(local.context(), andOverBoth(local, localLeader, leader,
                m -> GroupCollectives.exchange(peer, peer.context(), remoteLeader, tag, m)));
        return new Communicator(context, remote, localWorld, local.rank());
    }

    /** A new context agreed by both groups of {@code inter} (for dup and merge); collective over both groups. */
    public static int allocateAcross(Communicator inter) {
        Communicator local = localOf(inter);
        boolean leader = inter.rank() == 0;
        return ContextIds.get().allocate(inter.context(), andOverBoth(local, 0, leader,
                m -> GroupCollectives.exchange(inter, inter.collectiveContext(), 0, LEADER_TAG, m)));
    }

    /** MPI_Comm_dup of an intercommunicator. */
    public static Communicator dup(Communicator inter) {
        int context = allocateAcross(inter);
        return new Communicator(context, inter.worldRanks(), inter.localWorldRanks(), inter.rank());
    }

    /**
     * MPI_Intercomm_merge: an intracommunicator over both groups, the group that passed {@code high = false} first.
     * When both pass the same, the order is the standard's to leave open but must be the same everywhere: the group
     * whose leader comes first by (job id, rank in its job) goes first. (World ranks cannot decide it: the two groups
     * of a spawn or a connect/accept belong to different jobs, and each side numbers the other's processes after its
     * own, so each leader would find itself the lower and both groups would take the low ranks.)
     */
    public static Communicator merge(Communicator inter, boolean high) {
        Communicator local = localOf(inter);
        // the two leaders' (high, job key, rank in job), swapped between them and then sent to their groups
        long[] both = new long[6];
        if (inter.rank() == 0) {
            org.jmpi.bootstrap.Bootstrap self = org.jmpi.runtime.JmpiRuntime.get().bootstrap();
            long[] mine = {high ? 1 : 0, jobKey(self.jobId()), self.rank()};
            long[] theirs = GroupCollectives.exchange(inter, inter.collectiveContext(), 0, LEADER_TAG + 1, mine);
            System.arraycopy(mine, 0, both, 0, 3);
            System.arraycopy(theirs, 0, both, 3, 3);
        }
        both = GroupCollectives.bcast(local, both, 0);
        boolean localFirst = both[0] != both[3] ? both[0] == 0
                : both[1] != both[4] ? both[1] < both[4] : both[2] < both[5];
        int context = allocateAcross(inter);
        int[] a = inter.localWorldRanks();
        int[] b = inter.worldRanks();
        int[] all = new int[a.length + b.length];
        int[] first = localFirst ? a : b;
        int[] second = localFirst ? b : a;
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        int rank = localFirst ? inter.rank() : b.length + inter.rank();
        return new Communicator(context, all, rank);
    }

    /** A 64-bit key of a job id, the same in every process that computes it (the leaders compare the keys). */
    static long jobKey(String jobId) {
        long h = 1125899906842597L;
        for (int i = 0; i < jobId.length(); i++) {
            h = 31 * h + jobId.charAt(i);
        }
        return h;
    }

    /**
     * A context id agreed by {@code local} and another group whose leader this group's leader reaches through
     * {@code swapWithRemoteLeader} (called at the leader only, once per agreement round, with this group's AND; it
     * returns the other group's). Used by connect/accept, where the two groups share no communicator yet.
     */
    public static int agreeAcross(Communicator local, int leaderRank, UnaryOperator<long[]> swapWithRemoteLeader) {
        return ContextIds.get().allocate(local.context(),
                andOverBoth(local, leaderRank, local.rank() == leaderRank, swapWithRemoteLeader));
    }

    /** A barrier over both groups of {@code inter}: each group's, one message each way between the leaders. */
    public static void barrierAcross(Communicator inter) {
        Communicator local = localOf(inter);
        andOverBoth(local, 0, inter.rank() == 0,
                m -> GroupCollectives.exchange(inter, inter.collectiveContext(), 0, LEADER_TAG + 2, m))
                .apply(new long[] {-1L});
    }

    private static UnaryOperator<long[]> andOverBoth(Communicator local, int leaderRank, boolean leader,
            UnaryOperator<long[]> swapWithRemoteLeader) {
        return m -> {
            long[] r = GroupCollectives.allreduceBand(local, m);
            if (leader) {
                long[] other = swapWithRemoteLeader.apply(r);
                for (int i = 0; i < r.length; i++) {
                    r[i] &= other[i];
                }
            }
            return GroupCollectives.bcast(local, r, leaderRank);
        };
    }
}
