package org.jmpi.topo;

import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * A graph given whole at every process (MPI_Graph_create): node {@code i}'s neighbours are
 * {@code edges[index[i-1] .. index[i])}.
 *
 * <p>Threading: immutable.
 */
public final class GraphTopology implements Topology {
    private final int[] index;
    private final int[] edges;

    public GraphTopology(int[] index, int[] edges) {
        this.index = index.clone();
        this.edges = edges.clone();
    }

    /** Checks MPI_Graph_create's arguments over a communicator of {@code commSize} ranks. */
    public static void check(int[] index, int[] edges, int commSize) {
        if (index == null || edges == null) {
            throw new MpiError(ErrorClass.ERR_ARG, "index and edges must not be null");
        }
        if (index.length > commSize) {
            throw new MpiError(ErrorClass.ERR_TOPOLOGY, "a graph of " + index.length
                    + " nodes needs more processes than the communicator's " + commSize);
        }
        int prev = 0;
        for (int i = 0; i < index.length; i++) {
            if (index[i] < prev || index[i] > edges.length) {
                throw new MpiError(ErrorClass.ERR_TOPOLOGY, "index[" + i + "] = " + index[i]
                        + " is not non-decreasing within 0.." + edges.length);
            }
            prev = index[i];
        }
        int n = index.length == 0 ? 0 : index[index.length - 1];
        for (int i = 0; i < n; i++) {
            if (edges[i] < 0 || edges[i] >= index.length) {
                throw new MpiError(ErrorClass.ERR_TOPOLOGY, "edge to " + edges[i] + " names no node (graph of "
                        + index.length + " nodes)");
            }
        }
    }

    public int nodes() {
        return index.length;
    }

    public int[] index() {
        return index.clone();
    }

    public int[] edges() {
        return java.util.Arrays.copyOf(edges, index.length == 0 ? 0 : index[index.length - 1]);
    }

    public int[] neighbors(int rank) {
        if (rank < 0 || rank >= index.length) {
            throw new MpiError(ErrorClass.ERR_RANK, "invalid rank " + rank + " (graph of " + index.length
                    + " nodes)");
        }
        int from = rank == 0 ? 0 : index[rank - 1];
        return java.util.Arrays.copyOfRange(edges, from, index[rank]);
    }

    @Override
    public int[] inNeighbors(int rank) {
        return neighbors(rank);
    }

    @Override
    public int[] outNeighbors(int rank) {
        return neighbors(rank);
    }
}
