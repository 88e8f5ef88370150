package org.jmpi.topo;

/**
 * A process topology attached to a communicator: who a rank's neighbours are for the neighbourhood collectives.
 *
 * <p>Threading: implementations are immutable.
 */
public sealed interface Topology permits CartTopology, GraphTopology, DistGraphTopology {
    /** The ranks this rank receives from in a neighbourhood collective, in block order (PROC_NULL entries skip). */
    int[] inNeighbors(int rank);

    /** The ranks this rank sends to in a neighbourhood collective, in block order (PROC_NULL entries skip). */
    int[] outNeighbors(int rank);

    /**
     * For each in-neighbour slot, a code the matching message carries, and for each out-neighbour slot the code of
     * the message sent there; -1 everywhere when messages match in order. Cartesian grids need codes: on a periodic
     * dimension of size 1 or 2 the left and right neighbour are the same process.
     */
    default int[] inCodes(int rank) {
        return null;
    }

    default int[] outCodes(int rank) {
        return null;
    }
}
