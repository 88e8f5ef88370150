package mpi;

import java.util.Arrays;
import org.jmpi.comm.ContextIds;
import org.jmpi.comm.GroupCollectives;
import org.jmpi.comm.Intercomms;
import org.jmpi.comm.SplitPlan;
import org.jmpi.datatype.MessageData;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;
import org.jmpi.topo.CartTopology;
import org.jmpi.topo.DistGraphTopology;
import org.jmpi.topo.GraphTopology;
import org.jmpi.topo.NeighborExchange;
import org.jmpi.topo.Topology;

/**
 * Communicator construction and management for {@link Comm} and its subclasses: duplication, split, create,
 * comparison, freeing, topologies and neighbourhood collectives. Context ids come from
 * {@link org.jmpi.comm.ContextIds}; this class turns the runtime's {@link Communicator}s into API objects and copies
 * what a new communicator inherits (error handler, attributes, info, topology).
 *
 * <p>Threading: stateless; each method is a (collective) call on its communicator.
 */
final class CommOps {
    private CommOps() {}

    /** Fills a fresh API object {@code to} for the runtime communicator {@code impl}, inheriting from {@code from}. */
    static <T extends Comm> T adopt(Comm from, T to, Communicator impl, boolean copyAttributes) {
        to.impl = impl;
        to.errhandler = from.errhandler;
        to.session = from.session;
        if (copyAttributes && from.attributes != null) {
            to.attributes = from.attributes.copy();
        }
        return to;
    }

    /**
     * A null handle (MPI_COMM_NULL), as the Open MPI bindings return to non-members; errors on it go through the
     * error handler of the communicator it came from.
     */
    static <T extends Comm> T nullComm(Comm from, T blank) {
        blank.nullHandle = true;
        blank.errhandler = from.errhandler;
        return blank;
    }

    // ------------------------------------------------------------------ dup

    static Communicator dupImpl(Communicator c) {
        if (c.isInter()) {
            return Intercomms.dup(c);
        }
        int context = ContextIds.get().allocate(c);
        return new Communicator(context, c.worldRanks(), c.rank());
    }

    static <T extends Comm> T dup(Comm comm, T blank, Info info, String call) throws MPIException {
        try {
            Communicator c = comm.live();
            T d = adopt(comm, blank, dupImpl(c), true);
            d.topology = comm.topology;
            Info hints = info != null ? info : comm.info;
            d.info = hints == null || hints.isNull() ? null : hints.dup();
            return d;
        } catch (MpiError e) {
            throw comm.fail(call, e);
        }
    }

    /**
     * MPI_Comm_idup. On an intracommunicator of several processes the context is agreed by non-blocking allreduces
     * ({@link org.jmpi.comm.AsyncContextAgreement}); the new object is usable once its request
     * ({@code getRequest()}) completes. Intercommunicators and single processes duplicate at once.
     */
    static <T extends Comm> T iDup(Comm comm, T blank) throws MPIException {
        return iDup(comm, blank, null, "MPI_Comm_idup");
    }

    /** MPI_Comm_idup, or MPI_Comm_idup_with_info (MPI 4.0) when {@code info} is not null: the duplicate takes it. */
    static <T extends Comm> T iDup(Comm comm, T blank, Info info, String call) throws MPIException {
        Communicator c;
        try {
            c = comm.live();
        } catch (MpiError e) {
            throw comm.fail(call, e);
        }
        if (c.isInter() || c.size() == 1) {
            T d = dup(comm, blank, info, call);
            d.request = Request.of(comm, null, call);
            return d;
        }
        try {
            T d = blank;
            d.errhandler = comm.errhandler;
            if (comm.attributes != null) {
                d.attributes = comm.attributes.copy();
            }
            d.topology = comm.topology;
            Info hints = info != null ? info : comm.info;
            d.info = hints == null || hints.isNull() ? null : hints.dup();
            Communicator helper;
            synchronized (comm) {
                if (comm.idupHelper == null) {
                    comm.idupHelper = org.jmpi.comm.AsyncContextAgreement.helperFor(c);
                }
                helper = comm.idupHelper;
            }
            int[] group = c.worldRanks();
            int rank = c.rank();
            org.jmpi.comm.AsyncContextAgreement a = org.jmpi.comm.AsyncContextAgreement.start(helper, c.context(),
                    ctx -> d.impl = new Communicator(ctx, group, rank));
            d.request = Request.of(comm, a, call);
            return d;
        } catch (MpiError e) {
            throw comm.fail(call, e);
        }
    }

    // ------------------------------------------------------------------ split and create

    /** MPI_Comm_split over an intracommunicator; null for MPI.UNDEFINED. */
    static Communicator split(Communicator c, int color, int key) {
        if (color < 0 && color != MPI.UNDEFINED) {
            throw new MpiError(ErrorClass.ERR_ARG, "invalid colour " + color + " (use >= 0 or MPI.UNDEFINED)");
        }
        int[] all = GroupCollectives.allgather(c, new int[] {color, key});
        int context = ContextIds.get().allocate(c);
        if (color == MPI.UNDEFINED) {
            ContextIds.get().release(context); // this process holds no communicator on it
            return null;
        }
        int[] members = SplitPlan.members(all, color, MPI.UNDEFINED);
        int[] world = new int[members.length];
        int me = -1;
        for (int i = 0; i < members.length; i++) {
            world[i] = c.worldRank(members[i]);
            if (members[i] == c.rank()) {
                me = i;
            }
        }
        return new Communicator(context, world, me);
    }

    /** The colour of MPI_Comm_split_type(TYPE_SHARED): the lowest rank of {@code c} on this process's host. */
    static int sharedColor(Communicator c) {
        org.jmpi.bootstrap.Bootstrap b = JmpiRuntime.get().bootstrap();
        for (int r = 0; r < c.size(); r++) {
            int w = c.worldRank(r);
            if (w == b.rank() || b.isLocal(w)) {
                return r;
            }
        }
        return c.rank();
    }

    /** Whether every process of {@code c} runs on this host (every rank computes the same answer). */
    static boolean onOneHost(Communicator c) {
        org.jmpi.bootstrap.Bootstrap b = JmpiRuntime.get().bootstrap();
        for (int r = 0; r < c.size(); r++) {
            int w = c.worldRank(r);
            if (w != b.rank() && !b.isLocal(w)) {
                return false;
            }
        }
        return true;
    }

    /** MPI_Comm_create: every process of {@code c} calls it; null for processes outside {@code group}. */
    static Communicator create(Communicator c, Group group) {
        int[] world = checkSubgroup(c, group);
        int context = ContextIds.get().allocate(c);
        int me = indexOf(world, c.worldRank(c.rank()));
        if (me < 0) {
            ContextIds.get().release(context);
            return null;
        }
        return new Communicator(context, world, me);
    }

    /** MPI_Comm_create_group: only the members of {@code group} call it. */
    static Communicator createGroup(Communicator c, Group group, int tag) {
        if (tag < 0) {
            throw new MpiError(ErrorClass.ERR_TAG, "invalid tag " + tag);
        }
        return createGroupTagged(c, group, tag);
    }

    /** {@link #createGroup} with any tag but -1 (MPI_Comm_create_from_group uses negative ones). */
    static Communicator createGroupTagged(Communicator c, Group group, int tag) {
        int[] world = checkSubgroup(c, group);
        int me = indexOf(world, c.worldRank(c.rank()));
        if (me < 0) {
            return null;
        }
        int spare = ContextIds.spareContext(c);
        int context = ContextIds.get().allocate(c.context(),
                m -> GroupCollectives.treeAllreduceBand(world, me, spare, tag, m));
        return new Communicator(context, world, me);
    }

    private static int[] checkSubgroup(Communicator c, Group group) {
        if (group == null || group.isNull()) {
            throw new MpiError(ErrorClass.ERR_GROUP, "invalid group (null or freed)");
        }
        int[] world = group.worldRanks();
        int[] parent = c.worldRanks();
        for (int w : world) {
            if (indexOf(parent, w) < 0) {
                throw new MpiError(ErrorClass.ERR_GROUP, "the group holds a process (world rank " + w
                        + ") that is not in the communicator");
            }
        }
        return world;
    }

    static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        return -1;
    }

    // ------------------------------------------------------------------ compare, free

    static int compare(Communicator a, Communicator b) {
        if (a == b || a.context() == b.context() && Arrays.equals(a.worldRanks(), b.worldRanks())
                && a.isInter() == b.isInter()) {
            return MPI.IDENT;
        }
        if (a.isInter() != b.isInter()) {
            return MPI.UNEQUAL;
        }
        int local = groupCompare(a.localWorldRanks(), b.localWorldRanks());
        int remote = a.isInter() ? groupCompare(a.worldRanks(), b.worldRanks()) : MPI.IDENT;
        int worst = Math.max(local, remote);
        return worst == MPI.IDENT ? MPI.CONGRUENT : worst;
    }

    private static int groupCompare(int[] a, int[] b) {
        if (Arrays.equals(a, b)) {
            return MPI.IDENT;
        }
        int[] x = a.clone();
        int[] y = b.clone();
        Arrays.sort(x);
        Arrays.sort(y);
        return Arrays.equals(x, y) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    static void free(Comm comm) {
        Communicator c = comm.live();
        if (comm == MPI.COMM_WORLD || comm == MPI.COMM_SELF || c.context() < JmpiRuntime.FIRST_FREE_CONTEXT) {
            throw new MpiError(ErrorClass.ERR_COMM, "a predefined communicator cannot be freed");
        }
        ContextIds.get().release(c.context());
        comm.impl = null;
        comm.nullHandle = true;
        comm.topology = null;
        if (comm.attributes != null) {
            comm.attributes.clear();
        }
    }

    // ------------------------------------------------------------------ topologies

    static CartComm createCart(Intracomm comm, int[] dims, boolean[] periods) {
        Communicator c = comm.live();
        int n = CartTopology.check(dims, periods, c.size());
        Communicator sub = split(c, c.rank() < n ? 0 : MPI.UNDEFINED, c.rank());
        if (sub == null) {
            return nullComm(comm, new CartComm());
        }
        CartComm cart = adopt(comm, new CartComm(), sub, false);
        cart.topology = new CartTopology(dims, Arrays.copyOf(periods, dims.length));
        return cart;
    }

    static GraphComm createGraph(Intracomm comm, int[] index, int[] edges) {
        Communicator c = comm.live();
        GraphTopology.check(index, edges, c.size());
        Communicator sub = split(c, c.rank() < index.length ? 0 : MPI.UNDEFINED, c.rank());
        if (sub == null) {
            return nullComm(comm, new GraphComm());
        }
        GraphComm g = adopt(comm, new GraphComm(), sub, false);
        g.topology = new GraphTopology(index, edges);
        return g;
    }

    static GraphComm createDistGraphAdjacent(Intracomm comm, int[] sources, int[] sourceWeights,
            int[] destinations, int[] destWeights, boolean weighted) {
        Communicator c = comm.live();
        checkRanks(c, sources, "sources");
        checkRanks(c, destinations, "destinations");
        int[] sw = weights(sourceWeights, sources.length, weighted);
        int[] dw = weights(destWeights, destinations.length, weighted);
        GraphComm g = adopt(comm, new GraphComm(), dupImpl(c), false);
        g.topology = new DistGraphTopology(sources, sw, destinations, dw, weighted);
        return g;
    }

    /**
     * MPI_Dist_graph_create: each process gives edges from {@code sources[i]} to {@code degrees[i]} destinations.
     * Every process learns its in- and out-edges from an allgather of all edge lists ({@code O(E)} data per rank).
     */
    static GraphComm createDistGraph(Intracomm comm, int[] sources, int[] degrees, int[] destinations,
            int[] weights, boolean weighted) {
        Communicator c = comm.live();
        if (sources == null || degrees == null || destinations == null) {
            throw new MpiError(ErrorClass.ERR_ARG, "sources, degrees and destinations must not be null");
        }
        if (degrees.length < sources.length) {
            throw new MpiError(ErrorClass.ERR_ARG, "degrees has fewer entries than sources");
        }
        checkRanks(c, sources, "sources");
        int edges = 0;
        for (int i = 0; i < sources.length; i++) {
            if (degrees[i] < 0) {
                throw new MpiError(ErrorClass.ERR_ARG, "negative degree " + degrees[i]);
            }
            edges += degrees[i];
        }
        if (destinations.length < edges) {
            throw new MpiError(ErrorClass.ERR_ARG, "destinations has " + destinations.length + " entries for "
                    + edges + " edges");
        }
        checkRanks(c, Arrays.copyOf(destinations, edges), "destinations");
        int[] w = weights(weights, edges, weighted);
        // triples (source, destination, weight)
        int[] mine = new int[3 * edges];
        for (int i = 0, e = 0; i < sources.length; i++) {
            for (int k = 0; k < degrees[i]; k++, e++) {
                mine[3 * e] = sources[i];
                mine[3 * e + 1] = destinations[e];
                mine[3 * e + 2] = w[e];
            }
        }
        int[] counts = GroupCollectives.allgather(c, new int[] {edges});
        int max = 0;
        for (int n : counts) {
            max = Math.max(max, n);
        }
        int[] padded = Arrays.copyOf(mine, 3 * max);
        int[] all = GroupCollectives.allgather(c, padded);
        int me = c.rank();
        IntList src = new IntList();
        IntList srcW = new IntList();
        IntList dst = new IntList();
        IntList dstW = new IntList();
        for (int r = 0; r < c.size(); r++) {
            for (int e = 0; e < counts[r]; e++) {
                int base = r * 3 * max + 3 * e;
                if (all[base + 1] == me) {
                    src.add(all[base]);
                    srcW.add(all[base + 2]);
                }
                if (all[base] == me) {
                    dst.add(all[base + 1]);
                    dstW.add(all[base + 2]);
                }
            }
        }
        GraphComm g = adopt(comm, new GraphComm(), dupImpl(c), false);
        g.topology = new DistGraphTopology(src.toArray(), srcW.toArray(), dst.toArray(), dstW.toArray(), weighted);
        return g;
    }

    private static final class IntList {
        private int[] a = new int[8];
        private int n;

        void add(int v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, 2 * n);
            }
            a[n++] = v;
        }

        int[] toArray() {
            return Arrays.copyOf(a, n);
        }
    }

    private static void checkRanks(Communicator c, int[] ranks, String what) {
        if (ranks == null) {
            throw new MpiError(ErrorClass.ERR_ARG, what + " must not be null");
        }
        for (int r : ranks) {
            if (r < 0 || r >= c.size()) {
                throw new MpiError(ErrorClass.ERR_RANK, "invalid rank " + r + " in " + what
                        + " (communicator of size " + c.size() + ")");
            }
        }
    }

    private static int[] weights(int[] w, int n, boolean weighted) {
        if (!weighted) {
            return new int[n];
        }
        if (w == null || w.length < n) {
            throw new MpiError(ErrorClass.ERR_ARG, "the weights must have " + n + " entries");
        }
        return Arrays.copyOf(w, n);
    }

    // ------------------------------------------------------------------ neighbourhood collectives

    static Topology topology(Comm comm) {
        comm.live();
        if (comm.topology == null) {
            throw new MpiError(ErrorClass.ERR_TOPOLOGY, "the communicator has no process topology");
        }
        return comm.topology;
    }

    /** Starts a neighbour allgather(v): {@code recvCounts}/{@code displs} null for the plain form. */
    static NeighborExchange allGather(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int recvcount, int[] recvCounts, int[] displs, Datatype recvtype) {
        return allGatherInit(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvCounts, displs, recvtype)
                .get();
    }

    /**
     * A neighbour allgather(v) with its views made and its sequence number taken now; each {@code get()} starts one
     * activation (a persistent neighbourhood collective starts it many times, a non-blocking one once).
     */
    static java.util.function.Supplier<NeighborExchange> allGatherInit(Comm comm, Object sendbuf, int sendcount,
            Datatype sendtype, Object recvbuf, int recvcount, int[] recvCounts, int[] displs, Datatype recvtype) {
        Topology t = topology(comm);
        Communicator c = comm.impl;
        int[] in = t.inNeighbors(c.rank());
        int[] out = t.outNeighbors(c.rank());
        MessageData s = CollectiveCalls.view(sendbuf, sendcount, sendtype, false);
        MessageData[] send = new MessageData[out.length];
        Arrays.fill(send, s);
        MessageData[] recv = recvBlocks(in.length, recvbuf, recvcount, recvCounts, displs, recvtype);
        int seq = c.nextCollective();
        return () -> NeighborExchange.start(c, t, send, recv, seq);
    }

    /** Starts a neighbour alltoall(v): counts/displs null for the plain form. */
    static NeighborExchange allToAll(Comm comm, Object sendbuf, int sendcount, int[] sendCounts, int[] sdispls,
            Datatype sendtype, Object recvbuf, int recvcount, int[] recvCounts, int[] rdispls, Datatype recvtype) {
        return allToAllInit(comm, sendbuf, sendcount, sendCounts, sdispls, sendtype, recvbuf, recvcount, recvCounts,
                rdispls, recvtype).get();
    }

    /** A neighbour alltoall(v), as {@link #allGatherInit}. */
    static java.util.function.Supplier<NeighborExchange> allToAllInit(Comm comm, Object sendbuf, int sendcount,
            int[] sendCounts, int[] sdispls, Datatype sendtype, Object recvbuf, int recvcount, int[] recvCounts,
            int[] rdispls, Datatype recvtype) {
        Topology t = topology(comm);
        Communicator c = comm.impl;
        int[] in = t.inNeighbors(c.rank());
        int[] out = t.outNeighbors(c.rank());
        MessageData[] send = blocksOf(out.length, sendbuf, sendcount, sendCounts, sdispls, sendtype, false);
        MessageData[] recv = recvBlocks(in.length, recvbuf, recvcount, recvCounts, rdispls, recvtype);
        int seq = c.nextCollective();
        return () -> NeighborExchange.start(c, t, send, recv, seq);
    }

    private static MessageData[] recvBlocks(int n, Object buf, int count, int[] counts, int[] displs, Datatype type) {
        return blocksOf(n, buf, count, counts, displs, type, true);
    }

    private static MessageData[] blocksOf(int n, Object buf, int count, int[] counts, int[] displs, Datatype type,
            boolean forReceive) {
        MessageData[] out = new MessageData[n];
        if (counts == null) {
            CollectiveCalls.checkCount(count);
            MessageData whole = CollectiveCalls.view(buf, (long) count * n, type, forReceive);
            long b = CollectiveCalls.blockBytes(count, type);
            for (int i = 0; i < n; i++) {
                out[i] = CollectiveCalls.slice(whole, i * b, b);
            }
        } else {
            long[] offsets = new long[n];
            long[] lengths = new long[n];
            MessageData whole = CollectiveCalls.blocks(buf, counts, displs, type, forReceive, n, offsets, lengths);
            for (int i = 0; i < n; i++) {
                out[i] = CollectiveCalls.slice(whole, offsets[i], lengths[i]);
            }
        }
        return out;
    }
}
