package mpi;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jmpi.coll.Blocks;
import org.jmpi.coll.Collectives;
import org.jmpi.coll.Round;
import org.jmpi.coll.Schedule;
import org.jmpi.comm.ScheduleChain;
import org.jmpi.datatype.MessageData;
import org.jmpi.op.Reduction;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * The collectives on intercommunicators, blocking, non-blocking and persistent, as chains of schedules
 * ({@link ScheduleChain}): collectives inside each group (on the local-group communicator of
 * {@link Intercomm#local()}) and messages between the two leaders (local rank 0 of each group) or between the root
 * and the remote leader, on the intercommunicator's collective context.
 *
 * <ul>
 *   <li>barrier: local barrier, leaders swap an empty message, local barrier.</li>
 *   <li>bcast: the root ({@code MPI.ROOT}) sends to the remote leader, which broadcasts in its group.</li>
 *   <li>gather / reduce: the sending group gathers or reduces to its leader, which sends the result to the root.</li>
 *   <li>scatter: the root sends everything to the remote leader, which scatters in its group.</li>
 *   <li>allgather / allreduce: each group gathers or reduces to its leader, the leaders swap, each broadcasts in its
 *       group what it received (the other group's data, as MPI defines).</li>
 *   <li>reduce-scatter(-block): each group reduces to its leader, the leaders swap, each scatters in its group.</li>
 *   <li>alltoall, gatherv, scatterv, allgatherv, alltoallv, alltoallw: linear, every process exchanges its blocks
 *       straight with the remote processes.</li>
 * </ul>
 *
 * <p>Cost: an intracommunicator collective in each group plus one message between the leaders: {@code O(log P)}
 * rounds; the linear forms {@code O(P)} messages per process. Restrictions: no in-place forms (these raise
 * MPI_ERR_UNSUPPORTED_OPERATION); the receive buffers of the root group's non-root
 * processes are not touched.
 *
 * <p>Threading: stateless; MPI's rule of one collective at a time per communicator (in call order) applies.
 */
final class InterCollectives {
    private InterCollectives() {}

    /** The schedules of one call, built in order (each takes its communicator's next sequence number). */
    static final class Chain {
        final Intercomm comm;
        final Communicator inter;
        final List<Schedule> parts = new ArrayList<>();
        final String call;

        Chain(Intercomm comm, String call) {
            this.comm = comm;
            this.inter = comm.live();
            this.call = call;
        }

        /** A schedule between the groups (ranks name remote processes). */
        Schedule across() {
            Schedule s = Collectives.schedule(inter, call);
            parts.add(s);
            return s;
        }

        /** A schedule inside the local group. */
        Schedule within() {
            Schedule s = Collectives.schedule(comm.local(), call);
            parts.add(s);
            return s;
        }

        boolean leader() {
            return inter.rank() == 0;
        }

        int localSize() {
            return inter.localSize();
        }

        ScheduleChain start() {
            return ScheduleChain.start(parts);
        }

        /** The schedules, made persistent: a persistent collective's, run again at each start. */
        List<Schedule> persistentParts() {
            for (Schedule s : parts) {
                s.persistent();
            }
            return parts;
        }
    }

    /** Runs a chain to completion (blocking forms). */
    static void run(Chain c) {
        ScheduleChain r = c.start();
        org.jmpi.runtime.JmpiRuntime.get().progress().await(r);
        if (r.error() != 0) {
            throw new MpiError(r.error(), r.errorMessage());
        }
    }

    private static MessageData temp(long bytes) {
        if (bytes > Integer.MAX_VALUE - 16) {
            throw new MpiError(ErrorClass.ERR_COUNT, "more than 2 GiB in one intercommunicator collective");
        }
        return bytes == 0 ? MessageData.EMPTY
                : new MessageData.SegmentData(MemorySegment.ofArray(new byte[(int) bytes]));
    }

    /** Checks the root argument: ROOT, PROC_NULL, or a rank of the remote group. */
    private static void checkRoot(Communicator inter, int root) {
        if (root != MPI.ROOT && root != MPI.PROC_NULL && (root < 0 || root >= inter.size())) {
            throw new MpiError(ErrorClass.ERR_ROOT, "invalid root " + root + " (use MPI.ROOT, MPI.PROC_NULL or a "
                    + "rank of the remote group, of size " + inter.size() + ")");
        }
    }

    // ------------------------------------------------------------------ building blocks

    private static void localBarrier(Chain c) {
        Schedule s = c.within();
        if (c.localSize() > 1) {
            Collectives.barrier(s);
        }
    }

    private static void localBcast(Chain c, MessageData d) {
        Schedule s = c.within();
        if (c.localSize() > 1) {
            Collectives.bcast(s, d, 0);
        }
    }

    /** Gathers every local block to the leader into a new buffer (returned at the leader, null elsewhere). */
    private static MessageData localGather(Chain c, MessageData mine, long block) {
        Schedule s = c.within();
        MessageData all = c.leader() ? temp(block * c.localSize()) : null;
        if (c.localSize() == 1) {
            s.round().local(() -> Blocks.copy(mine, all));
        } else {
            Collectives.gather(s, mine, all, block, 0);
        }
        return all;
    }

    private static void localScatter(Chain c, MessageData all, MessageData mine, long block) {
        Schedule s = c.within();
        if (c.localSize() == 1) {
            s.round().local(() -> Blocks.copy(all, mine));
        } else {
            Collectives.scatter(s, all, mine, block, 0);
        }
    }

    private static MessageData localReduce(Chain c, MessageData mine, int count, Reduction red) {
        Schedule s = c.within();
        MessageData result = c.leader() ? temp(mine.bytes()) : null;
        if (c.localSize() == 1) {
            s.round().local(() -> Blocks.copy(mine, result));
        } else {
            Collectives.reduce(s, mine, result, count, red, 0);
        }
        return result;
    }

    /** The leaders swap {@code out} for {@code in}; a schedule with nothing elsewhere. */
    private static void leadersSwap(Chain c, MessageData out, MessageData in) {
        Schedule s = c.across();
        if (c.leader()) {
            s.round().recv(0, in).send(0, out);
        }
    }

    private static void exchange(Chain c, MessageData[] send, MessageData[] recv) {
        Schedule s = c.across();
        int p = c.inter.size();
        Round r = s.round();
        for (int j = 0; recv != null && j < p; j++) {
            r.recv(j, recv[j]);
        }
        for (int k = 0; send != null && k < p; k++) {
            int j = (c.inter.rank() + k) % p; // spread the load
            r.send(j, send[j]);
        }
    }

    private static MessageData[] vBlocks(Object buf, int[] counts, int[] displs, Datatype type, boolean forReceive,
            int p) {
        long[] offsets = new long[p];
        long[] lengths = new long[p];
        MessageData whole = CollectiveCalls.blocks(buf, counts, displs, type, forReceive, p, offsets, lengths);
        MessageData[] b = new MessageData[p];
        for (int j = 0; j < p; j++) {
            b[j] = CollectiveCalls.slice(whole, offsets[j], lengths[j]);
        }
        return b;
    }

    private static MessageData[] blocks(MessageData whole, long block, int p) {
        MessageData[] b = new MessageData[p];
        for (int j = 0; j < p; j++) {
            b[j] = CollectiveCalls.slice(whole, j * block, block);
        }
        return b;
    }

    // ------------------------------------------------------------------ the collectives

    static Chain barrier(Intercomm comm, String call) {
        Chain c = new Chain(comm, call);
        localBarrier(c);
        leadersSwap(c, MessageData.EMPTY, MessageData.EMPTY);
        localBarrier(c);
        return c;
    }

    static Chain bcast(Intercomm comm, String call, Object buf, int count, Datatype type, int root) {
        Chain c = new Chain(comm, call);
        checkRoot(c.inter, root);
        Schedule s = c.across();
        if (root == MPI.ROOT) {
            s.round().send(0, CollectiveCalls.view(buf, count, type, false));
        } else if (root != MPI.PROC_NULL) {
            MessageData d = CollectiveCalls.view(buf, count, type, true);
            if (c.leader()) {
                s.round().recv(root, d);
            }
            localBcast(c, d);
        }
        return c;
    }

    static Chain gather(Intercomm comm, String call, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf, int recvcount, Datatype recvtype, int root) {
        Chain c = new Chain(comm, call);
        checkRoot(c.inter, root);
        if (root == MPI.ROOT) {
            CollectiveCalls.checkCount(recvcount);
            c.across().round().recv(0, CollectiveCalls.view(recvbuf, (long) c.inter.size() * recvcount, recvtype,
                    true));
        } else if (root != MPI.PROC_NULL) {
            MessageData mine = CollectiveCalls.view(sendbuf, sendcount, sendtype, false);
            MessageData all = localGather(c, mine, mine.bytes());
            Schedule s = c.across();
            if (c.leader()) {
                s.round().send(root, all);
            }
        } else {
            c.across();
        }
        return c;
    }

    static Chain scatter(Intercomm comm, String call, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf, int recvcount, Datatype recvtype, int root) {
        Chain c = new Chain(comm, call);
        checkRoot(c.inter, root);
        if (root == MPI.ROOT) {
            CollectiveCalls.checkCount(sendcount);
            c.across().round().send(0, CollectiveCalls.view(sendbuf, (long) c.inter.size() * sendcount, sendtype,
                    false));
        } else if (root != MPI.PROC_NULL) {
            MessageData mine = CollectiveCalls.view(recvbuf, recvcount, recvtype, true);
            long block = mine.bytes();
            MessageData all = c.leader() ? temp(block * c.localSize()) : null;
            Schedule s = c.across();
            if (c.leader()) {
                s.round().recv(root, all);
            }
            localScatter(c, all, mine, block);
        } else {
            c.across();
        }
        return c;
    }

    static Chain allGather(Intercomm comm, String call, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf, int recvcount, Datatype recvtype) {
        Chain c = new Chain(comm, call);
        CollectiveCalls.checkCount(recvcount);
        MessageData mine = CollectiveCalls.view(sendbuf, sendcount, sendtype, false);
        MessageData theirs = CollectiveCalls.view(recvbuf, (long) c.inter.size() * recvcount, recvtype, true);
        MessageData all = localGather(c, mine, mine.bytes());
        leadersSwap(c, all, theirs);
        localBcast(c, theirs);
        return c;
    }

    static Chain allToAll(Intercomm comm, String call, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf, int recvcount, Datatype recvtype) {
        Chain c = new Chain(comm, call);
        int p = c.inter.size();
        CollectiveCalls.checkCount(sendcount);
        CollectiveCalls.checkCount(recvcount);
        MessageData out = CollectiveCalls.view(sendbuf, (long) p * sendcount, sendtype, false);
        MessageData in = CollectiveCalls.view(recvbuf, (long) p * recvcount, recvtype, true);
        exchange(c, blocks(out, CollectiveCalls.blockBytes(sendcount, sendtype), p),
                blocks(in, CollectiveCalls.blockBytes(recvcount, recvtype), p));
        return c;
    }

    static Chain reduce(Intercomm comm, String call, Object sendbuf, Object recvbuf, int count, Datatype type,
            Op op, int root) {
        Chain c = new Chain(comm, call);
        checkRoot(c.inter, root);
        CollectiveCalls.checkCount(count);
        if (root == MPI.ROOT) {
            CollectiveCalls.reduction(op, type);
            c.across().round().recv(0, CollectiveCalls.view(recvbuf, count, type, true));
        } else if (root != MPI.PROC_NULL) {
            Reduction red = CollectiveCalls.reduction(op, type);
            MessageData result = localReduce(c, CollectiveCalls.view(sendbuf, count, type, false), count, red);
            Schedule s = c.across();
            if (c.leader()) {
                s.round().send(root, result);
            }
        } else {
            c.across();
        }
        return c;
    }

    static Chain allReduce(Intercomm comm, String call, Object sendbuf, Object recvbuf, int count, Datatype type,
            Op op) {
        Chain c = new Chain(comm, call);
        CollectiveCalls.checkCount(count);
        Reduction red = CollectiveCalls.reduction(op, type);
        CollectiveCalls.noAlias(sendbuf, recvbuf);
        MessageData out = CollectiveCalls.view(recvbuf, count, type, true);
        MessageData result = localReduce(c, CollectiveCalls.view(sendbuf, count, type, false), count, red);
        leadersSwap(c, result, out);
        localBcast(c, out);
        return c;
    }

    /**
     * reduce-scatter-block: each group reduces its vectors ({@code recvcount} elements for each process of the
     * remote group) to its leader, the leaders swap the results, and each scatters what it received in its group.
     */
    static Chain reduceScatterBlock(Intercomm comm, String call, Object sendbuf, Object recvbuf, int recvcount,
            Datatype type, Op op) {
        Chain c = new Chain(comm, call);
        CollectiveCalls.checkCount(recvcount);
        Reduction red = CollectiveCalls.reduction(op, type);
        CollectiveCalls.noAlias(sendbuf, recvbuf);
        int n = c.inter.size() * recvcount;
        MessageData result = localReduce(c, CollectiveCalls.view(sendbuf, n, type, false), n, red);
        MessageData mine = CollectiveCalls.view(recvbuf, recvcount, type, true);
        long block = mine.bytes();
        MessageData theirs = c.leader() ? temp(block * c.localSize()) : null;
        leadersSwap(c, result, theirs);
        localScatter(c, theirs, mine, block);
        return c;
    }

    /**
     * reduce-scatter: each group reduces its vectors of {@code sum(recvcounts)} elements (the same total in both
     * groups) to its leader, the leaders swap, and each scatters what it received in its group by its own counts.
     */
    static Chain reduceScatter(Intercomm comm, String call, Object sendbuf, Object recvbuf, int[] recvcounts,
            Datatype type, Op op) {
        Chain c = new Chain(comm, call);
        int n = c.localSize();
        CollectiveCalls.checkCounts(recvcounts, n, "recvcounts");
        Reduction red = CollectiveCalls.reduction(op, type);
        CollectiveCalls.noAlias(sendbuf, recvbuf);
        long total = 0;
        for (int i = 0; i < n; i++) {
            total += recvcounts[i];
        }
        if (total > Integer.MAX_VALUE) {
            throw new MpiError(ErrorClass.ERR_COUNT, "the counts add up to more than 2^31 - 1 elements");
        }
        int count = (int) total;
        MessageData result = localReduce(c, CollectiveCalls.view(sendbuf, count, type, false), count, red);
        int me = c.inter.rank();
        MessageData mine = CollectiveCalls.view(recvbuf, recvcounts[me], type, true);
        long size = type.desc.size();
        long[] offsets = new long[n];
        long[] lengths = new long[n];
        long at = 0;
        for (int i = 0; i < n; i++) {
            offsets[i] = at;
            lengths[i] = recvcounts[i] * size;
            at += lengths[i];
        }
        MessageData theirs = c.leader() ? temp(at) : null;
        leadersSwap(c, result, theirs);
        Schedule s = c.within();
        if (n == 1) {
            s.round().local(() -> Blocks.copy(theirs, mine));
        } else {
            Collectives.scatterv(s, theirs, offsets, lengths, mine, 0);
        }
        return c;
    }

    static Chain gatherv(Intercomm comm, String call, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) {
        Chain c = new Chain(comm, call);
        checkRoot(c.inter, root);
        if (root == MPI.ROOT) {
            exchange(c, null, vBlocks(recvbuf, recvcount, displs, recvtype, true, c.inter.size()));
        } else if (root != MPI.PROC_NULL) {
            c.across().round().send(root, CollectiveCalls.view(sendbuf, sendcount, sendtype, false));
        } else {
            c.across();
        }
        return c;
    }

    static Chain scatterv(Intercomm comm, String call, Object sendbuf, int[] sendcount, int[] displs,
            Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, int root) {
        Chain c = new Chain(comm, call);
        checkRoot(c.inter, root);
        if (root == MPI.ROOT) {
            exchange(c, vBlocks(sendbuf, sendcount, displs, sendtype, false, c.inter.size()), null);
        } else if (root != MPI.PROC_NULL) {
            c.across().round().recv(root, CollectiveCalls.view(recvbuf, recvcount, recvtype, true));
        } else {
            c.across();
        }
        return c;
    }

    static Chain allGatherv(Intercomm comm, String call, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) {
        Chain c = new Chain(comm, call);
        int p = c.inter.size();
        MessageData[] same = new MessageData[p];
        java.util.Arrays.fill(same, CollectiveCalls.view(sendbuf, sendcount, sendtype, false));
        exchange(c, same, vBlocks(recvbuf, recvcount, displs, recvtype, true, p));
        return c;
    }

    static Chain allToAllv(Intercomm comm, String call, Object sendbuf, int[] sendcount, int[] sdispls,
            Datatype sendtype, Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) {
        Chain c = new Chain(comm, call);
        int p = c.inter.size();
        exchange(c, vBlocks(sendbuf, sendcount, sdispls, sendtype, false, p),
                vBlocks(recvbuf, recvcount, rdispls, recvtype, true, p));
        return c;
    }

    static Chain allToAllw(Intercomm comm, String call, Object sendbuf, int[] sendcount, int[] sdispls,
            Datatype[] sendtypes, Object recvbuf, int[] recvcount, int[] rdispls, Datatype[] recvtypes) {
        Chain c = new Chain(comm, call);
        int p = c.inter.size();
        exchange(c, CollectiveCalls.byteBlocks(sendbuf, sendcount, sdispls, sendtypes, false, p),
                CollectiveCalls.byteBlocks(recvbuf, recvcount, rdispls, recvtypes, true, p));
        return c;
    }
}
