package mpi;

import java.lang.foreign.MemorySegment;
import org.jmpi.coll.Collectives;
import org.jmpi.coll.Schedule;
import org.jmpi.datatype.MessageData;
import org.jmpi.op.Reduction;
import org.jmpi.pt2pt.SendMode;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;
import org.jmpi.runtime.RequestImpl;

/**
 * The blocking collectives on intercommunicators, built from collectives inside each group (on the local-group
 * communicator of {@link Intercomm#local()}) and messages between the two leaders (local rank 0 of each group) or
 * between the root and the remote leader, on the intercommunicator's collective context.
 *
 * <ul>
 *   <li>barrier: local barrier, leaders swap an empty message, local barrier.</li>
 *   <li>bcast: the root ({@code MPI.ROOT}) sends to the remote leader, which broadcasts in its group.</li>
 *   <li>gather / reduce: the sending group gathers or reduces to its leader, which sends the result to the root.</li>
 *   <li>scatter: the root sends everything to the remote leader, which scatters in its group.</li>
 *   <li>allgather / allreduce: each group gathers or reduces to its leader, the leaders swap, each broadcasts in its
 *       group what it received (the other group's data, as MPI defines).</li>
 *   <li>alltoall: every process sends block {@code j} straight to remote rank {@code j}.</li>
 *
 *   <li>reduce-scatter-block: each group reduces to its leader, the leaders swap, each scatters in its group.</li>
 *   <li>gatherv, scatterv, allgatherv, alltoallv, alltoallw: linear, every process exchanges its blocks straight
 *       with the remote processes.</li>
 * </ul>
 *
 * <p>Cost: an intracommunicator collective in each group plus one message between the leaders: {@code O(log P)}
 * rounds; the v/w forms {@code O(P)} messages per process. Restrictions: no non-blocking forms and no
 * reduceScatter with counts (these raise MPI_ERR_UNSUPPORTED_OPERATION); the receive buffers of the root group's non-root
 * processes are not touched.
 *
 * <p>Threading: stateless; MPI's rule of one collective at a time per communicator applies.
 */
final class InterCollectives {
    private InterCollectives() {}

    /** Tags of one call: its collective sequence number on the intercommunicator. */
    private static int tag(Communicator inter) {
        return inter.nextCollective() & Integer.MAX_VALUE;
    }

    private static void run(Schedule s) {
        s.start();
        Collectives.await(s);
        if (s.error() != 0) {
            throw new MpiError(s.error(), s.errorMessage());
        }
    }

    private static void await(RequestImpl r) {
        JmpiRuntime.get().progress().await(r);
        if (r.error() != 0) {
            throw new MpiError(r.error(), r.errorMessage());
        }
    }

    private static RequestImpl send(Communicator inter, MessageData d, int remote, int tag) {
        return JmpiRuntime.get().engine().isend(d, inter.worldRank(remote), inter.collectiveContext(), inter.rank(),
                tag, SendMode.STANDARD);
    }

    private static RequestImpl recv(Communicator inter, MessageData d, int remote, int tag) {
        return JmpiRuntime.get().engine().irecv(d, inter.collectiveContext(), remote, tag);
    }

    private static MessageData temp(long bytes) {
        if (bytes > Integer.MAX_VALUE - 16) {
            throw new MpiError(ErrorClass.ERR_COUNT, "more than 2 GiB in one intercommunicator collective");
        }
        return bytes == 0 ? MessageData.EMPTY : new MessageData.SegmentData(MemorySegment.ofArray(new byte[(int) bytes]));
    }

    /** Checks the root argument: ROOT, PROC_NULL, or a rank of the remote group. */
    private static void checkRoot(Communicator inter, int root) {
        if (root != MPI.ROOT && root != MPI.PROC_NULL && (root < 0 || root >= inter.size())) {
            throw new MpiError(ErrorClass.ERR_ROOT, "invalid root " + root + " (use MPI.ROOT, MPI.PROC_NULL or a "
                    + "rank of the remote group, of size " + inter.size() + ")");
        }
    }

    static void barrier(Intercomm comm) {
        Communicator inter = comm.live();
        Communicator local = comm.local();
        int tag = tag(inter);
        intraBarrier(local);
        if (inter.rank() == 0) {
            RequestImpl r = recv(inter, MessageData.EMPTY, 0, tag);
            await(send(inter, MessageData.EMPTY, 0, tag));
            await(r);
        }
        intraBarrier(local);
    }

    private static void intraBarrier(Communicator local) {
        if (local.size() > 1) {
            Schedule s = Collectives.schedule(local, "MPI_Barrier");
            Collectives.barrier(s);
            run(s);
        }
    }

    static void bcast(Intercomm comm, Object buf, int count, Datatype type, int root) {
        Communicator inter = comm.live();
        checkRoot(inter, root);
        int tag = tag(inter);
        if (root == MPI.PROC_NULL) {
            return;
        }
        if (root == MPI.ROOT) {
            await(send(inter, CollectiveCalls.view(buf, count, type, false), 0, tag));
            return;
        }
        MessageData d = CollectiveCalls.view(buf, count, type, true);
        if (inter.rank() == 0) {
            await(recv(inter, d, root, tag));
        }
        intraBcast(comm.local(), d);
    }

    private static void intraBcast(Communicator local, MessageData d) {
        if (local.size() > 1) {
            Schedule s = Collectives.schedule(local, "MPI_Bcast");
            Collectives.bcast(s, d, 0);
            run(s);
        }
    }

    /** Gathers every local process's block to local rank 0 (null elsewhere) as packed bytes. */
    private static MessageData intraGather(Communicator local, MessageData mine, long block) {
        MessageData all = local.rank() == 0 ? temp(block * local.size()) : null;
        if (local.size() == 1) {
            org.jmpi.coll.Blocks.copy(mine, all);
            return all;
        }
        Schedule s = Collectives.schedule(local, "MPI_Gather");
        Collectives.gather(s, mine, all, block, 0);
        run(s);
        return all;
    }

    static void gather(Intercomm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype, int root) {
        Communicator inter = comm.live();
        checkRoot(inter, root);
        int tag = tag(inter);
        if (root == MPI.PROC_NULL) {
            return;
        }
        if (root == MPI.ROOT) {
            CollectiveCalls.checkCount(recvcount);
            await(recv(inter, CollectiveCalls.view(recvbuf, (long) inter.size() * recvcount, recvtype, true), 0,
                    tag));
            return;
        }
        MessageData mine = CollectiveCalls.view(sendbuf, sendcount, sendtype, false);
        MessageData all = intraGather(comm.local(), mine, mine.bytes());
        if (inter.rank() == 0) {
            await(send(inter, all, root, tag));
        }
    }

    static void scatter(Intercomm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype, int root) {
        Communicator inter = comm.live();
        checkRoot(inter, root);
        int tag = tag(inter);
        if (root == MPI.PROC_NULL) {
            return;
        }
        if (root == MPI.ROOT) {
            CollectiveCalls.checkCount(sendcount);
            await(send(inter, CollectiveCalls.view(sendbuf, (long) inter.size() * sendcount, sendtype, false), 0,
                    tag));
            return;
        }
        Communicator local = comm.local();
        MessageData mine = CollectiveCalls.view(recvbuf, recvcount, recvtype, true);
        long block = mine.bytes();
        MessageData all = null;
        if (inter.rank() == 0) {
            all = temp(block * local.size());
            await(recv(inter, all, root, tag));
        }
        if (local.size() == 1) {
            org.jmpi.coll.Blocks.copy(all, mine);
            return;
        }
        Schedule s = Collectives.schedule(local, "MPI_Scatter");
        Collectives.scatter(s, all, mine, block, 0);
        run(s);
    }

    static void allGather(Intercomm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype) {
        Communicator inter = comm.live();
        int tag = tag(inter);
        CollectiveCalls.checkCount(recvcount);
        MessageData mine = CollectiveCalls.view(sendbuf, sendcount, sendtype, false);
        MessageData theirs = CollectiveCalls.view(recvbuf, (long) inter.size() * recvcount, recvtype, true);
        MessageData all = intraGather(comm.local(), mine, mine.bytes());
        if (inter.rank() == 0) {
            RequestImpl r = recv(inter, theirs, 0, tag);
            await(send(inter, all, 0, tag));
            await(r);
        }
        intraBcast(comm.local(), theirs);
    }

    static void allToAll(Intercomm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype) {
        Communicator inter = comm.live();
        int tag = tag(inter);
        int p = inter.size();
        CollectiveCalls.checkCount(sendcount);
        CollectiveCalls.checkCount(recvcount);
        MessageData out = CollectiveCalls.view(sendbuf, (long) p * sendcount, sendtype, false);
        MessageData in = CollectiveCalls.view(recvbuf, (long) p * recvcount, recvtype, true);
        long sb = CollectiveCalls.blockBytes(sendcount, sendtype);
        long rb = CollectiveCalls.blockBytes(recvcount, recvtype);
        RequestImpl[] rs = new RequestImpl[2 * p];
        for (int j = 0; j < p; j++) {
            rs[j] = recv(inter, CollectiveCalls.slice(in, j * rb, rb), j, tag);
        }
        for (int j = 0; j < p; j++) {
            int to = (inter.rank() + j) % p; // spread the load
            rs[p + j] = send(inter, CollectiveCalls.slice(out, to * sb, sb), to, tag);
        }
        for (RequestImpl r : rs) {
            await(r);
        }
    }

    /** Reduces every local process's {@code count} elements to local rank 0; returns the packed result there. */
    private static MessageData intraReduce(Communicator local, MessageData mine, int count, Reduction red) {
        MessageData result = local.rank() == 0 ? temp(mine.bytes()) : null;
        if (local.size() == 1) {
            org.jmpi.coll.Blocks.copy(mine, result);
            return result;
        }
        Schedule s = Collectives.schedule(local, "MPI_Reduce");
        Collectives.reduce(s, mine, result, count, red, 0);
        run(s);
        return result;
    }

    static void reduce(Intercomm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root) {
        Communicator inter = comm.live();
        checkRoot(inter, root);
        int tag = tag(inter);
        if (root == MPI.PROC_NULL) {
            return;
        }
        CollectiveCalls.checkCount(count);
        Reduction red = CollectiveCalls.reduction(op, type);
        if (root == MPI.ROOT) {
            await(recv(inter, CollectiveCalls.view(recvbuf, count, type, true), 0, tag));
            return;
        }
        MessageData result = intraReduce(comm.local(), CollectiveCalls.view(sendbuf, count, type, false), count,
                red);
        if (inter.rank() == 0) {
            await(send(inter, result, root, tag));
        }
    }

    static void allReduce(Intercomm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        Communicator inter = comm.live();
        int tag = tag(inter);
        CollectiveCalls.checkCount(count);
        Reduction red = CollectiveCalls.reduction(op, type);
        CollectiveCalls.noAlias(sendbuf, recvbuf);
        MessageData out = CollectiveCalls.view(recvbuf, count, type, true);
        MessageData result = intraReduce(comm.local(), CollectiveCalls.view(sendbuf, count, type, false), count,
                red);
        if (inter.rank() == 0) {
            RequestImpl r = recv(inter, out, 0, tag);
            await(send(inter, result, 0, tag));
            await(r);
        }
        intraBcast(comm.local(), out);
    }

    /** Posts a receive from remote rank j into {@code recv[j]} and a send of {@code send[j]} to it (null: none). */
    private static void exchange(Communicator inter, MessageData[] send, MessageData[] recv, int tag) {
        int p = inter.size();
        RequestImpl[] rs = new RequestImpl[2 * p];
        for (int j = 0; recv != null && j < p; j++) {
            rs[j] = recv(inter, recv[j], j, tag);
        }
        for (int k = 0; send != null && k < p; k++) {
            int j = (inter.rank() + k) % p;
            rs[p + j] = send(inter, send[j], j, tag);
        }
        for (RequestImpl r : rs) {
            if (r != null) {
                await(r);
            }
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

    private static MessageData[] same(MessageData d, int p) {
        MessageData[] b = new MessageData[p];
        java.util.Arrays.fill(b, d);
        return b;
    }

    /** gatherv: the root receives straight from every remote process (linear). */
    static void gatherv(Intercomm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int[] recvcount, int[] displs, Datatype recvtype, int root) {
        Communicator inter = comm.live();
        checkRoot(inter, root);
        int tag = tag(inter);
        if (root == MPI.ROOT) {
            exchange(inter, null, vBlocks(recvbuf, recvcount, displs, recvtype, true, inter.size()), tag);
        } else if (root != MPI.PROC_NULL) {
            await(send(inter, CollectiveCalls.view(sendbuf, sendcount, sendtype, false), root, tag));
        }
    }

    /** scatterv: the root sends straight to every remote process (linear). */
    static void scatterv(Intercomm comm, Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype,
            Object recvbuf, int recvcount, Datatype recvtype, int root) {
        Communicator inter = comm.live();
        checkRoot(inter, root);
        int tag = tag(inter);
        if (root == MPI.ROOT) {
            exchange(inter, vBlocks(sendbuf, sendcount, displs, sendtype, false, inter.size()), null, tag);
        } else if (root != MPI.PROC_NULL) {
            await(recv(inter, CollectiveCalls.view(recvbuf, recvcount, recvtype, true), root, tag));
        }
    }

    /** allgatherv: every process sends its block to every remote process (linear). */
    static void allGatherv(Intercomm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int[] recvcount, int[] displs, Datatype recvtype) {
        Communicator inter = comm.live();
        int tag = tag(inter);
        int p = inter.size();
        exchange(inter, same(CollectiveCalls.view(sendbuf, sendcount, sendtype, false), p),
                vBlocks(recvbuf, recvcount, displs, recvtype, true, p), tag);
    }

    static void allToAllv(Intercomm comm, Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
            Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) {
        Communicator inter = comm.live();
        int tag = tag(inter);
        int p = inter.size();
        exchange(inter, vBlocks(sendbuf, sendcount, sdispls, sendtype, false, p),
                vBlocks(recvbuf, recvcount, rdispls, recvtype, true, p), tag);
    }

    static void allToAllw(Intercomm comm, Object sendbuf, int[] sendcount, int[] sdispls, Datatype[] sendtypes,
            Object recvbuf, int[] recvcount, int[] rdispls, Datatype[] recvtypes) {
        Communicator inter = comm.live();
        int tag = tag(inter);
        int p = inter.size();
        exchange(inter, CollectiveCalls.byteBlocks(sendbuf, sendcount, sdispls, sendtypes, false, p),
                CollectiveCalls.byteBlocks(recvbuf, recvcount, rdispls, recvtypes, true, p), tag);
    }

    /**
     * reduce-scatter-block: each group reduces its vectors ({@code recvcount} elements for each process of the
     * remote group) to its leader, the leaders swap the results, and each scatters what it received in its group.
     */
    static void reduceScatterBlock(Intercomm comm, Object sendbuf, Object recvbuf, int recvcount, Datatype type,
            Op op) {
        Communicator inter = comm.live();
        Communicator local = comm.local();
        int tag = tag(inter);
        CollectiveCalls.checkCount(recvcount);
        Reduction red = CollectiveCalls.reduction(op, type);
        CollectiveCalls.noAlias(sendbuf, recvbuf);
        int n = inter.size() * recvcount;
        MessageData result = intraReduce(local, CollectiveCalls.view(sendbuf, n, type, false), n, red);
        MessageData mine = CollectiveCalls.view(recvbuf, recvcount, type, true);
        long block = mine.bytes();
        MessageData theirs = null;
        if (inter.rank() == 0) {
            theirs = temp(block * local.size());
            RequestImpl r = recv(inter, theirs, 0, tag);
            await(send(inter, result, 0, tag));
            await(r);
        }
        if (local.size() == 1) {
            org.jmpi.coll.Blocks.copy(theirs, mine);
            return;
        }
        Schedule s = Collectives.schedule(local, "MPI_Reduce_scatter_block");
        Collectives.scatter(s, theirs, mine, block, 0);
        run(s);
    }

    static MpiError unsupported(String call) {
        return new MpiError(ErrorClass.ERR_UNSUPPORTED_OPERATION, call
                + " on an intercommunicator is not implemented yet (the blocking forms other than "
                + "reduceScatter are)");
    }
}
