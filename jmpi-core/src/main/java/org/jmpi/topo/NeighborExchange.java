package org.jmpi.topo;

import org.jmpi.datatype.MessageData;
import org.jmpi.pt2pt.Engine;
import org.jmpi.pt2pt.SendMode;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.JmpiRuntime;

/**
 * The neighbourhood collectives (MPI_Neighbor_allgather[v], MPI_Neighbor_alltoall[v] and their non-blocking
 * forms): every process posts one receive per in-neighbour and one send per out-neighbour, all at once, on the
 * communicator's collective context; the request completes when all of them have.
 *
 * <p>Each message's tag holds the communicator's collective sequence number (so calls in flight at the same time
 * never mix) and, for Cartesian grids, the direction code of {@link Topology#inCodes}, so that on a periodic
 * dimension of size 1 or 2 the block from the lower neighbour is not confused with the block from the upper one.
 *
 * <p>Cost: one round; {@code indegree + outdegree} messages per process. Restriction: blocks of a PROC_NULL
 * neighbour (an edge of a non-periodic grid) are left untouched.
 *
 * <p>Threading: as {@link org.jmpi.runtime.CompositeRequest}.
 */
public final class NeighborExchange extends org.jmpi.runtime.CompositeRequest {
    private static final int PROC_NULL = CartTopology.PROC_NULL;

    private NeighborExchange() {
        super(JmpiRuntime.get().progress());
    }

    /**
     * Starts the exchange.
     *
     * @param send the block for each out-neighbour slot (the same object repeated for allgather)
     * @param recv the block for each in-neighbour slot
     */
    public static NeighborExchange start(Communicator c, Topology topo, MessageData[] send, MessageData[] recv) {
        return start(c, topo, send, recv, c.nextCollective());
    }

    /**
     * Starts the exchange with the tag of a collective sequence number taken earlier (a persistent neighbourhood
     * collective takes one at its init call and starts every activation with it).
     */
    public static NeighborExchange start(Communicator c, Topology topo, MessageData[] send, MessageData[] recv,
            int sequence) {
        NeighborExchange x = new NeighborExchange();
        Engine engine = JmpiRuntime.get().engine();
        int seq = sequence & 0x1fffff;
        int me = c.rank();
        int[] in = topo.inNeighbors(me);
        int[] out = topo.outNeighbors(me);
        int[] inCodes = topo.inCodes(me);
        int[] outCodes = topo.outCodes(me);
        int context = c.collectiveContext();
        for (int i = 0; i < in.length; i++) {
            if (in[i] != PROC_NULL) {
                x.add(engine.irecv(recv[i], context, in[i], seq << 10 | (inCodes == null ? 0 : inCodes[i])));
            }
        }
        for (int i = 0; i < out.length; i++) {
            if (out[i] != PROC_NULL) {
                x.add(engine.isend(send[i], c.worldRank(out[i]), context, me, seq << 10
                        | (outCodes == null ? 0 : outCodes[i]), SendMode.STANDARD));
            }
        }
        x.partDone(null);
        return x;
    }
}
