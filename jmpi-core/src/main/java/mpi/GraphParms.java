package mpi;

import java.util.Objects;

/** The topology of a graph communicator in the MPI_Graph_create form, as returned by {@link GraphComm#getDims()}. */
public final class GraphParms {
    private final int[] index;
    private final int[] edges;

    /** Copies {@code index} (cumulative degrees, one per node) and {@code edges} (flattened neighbour lists). */
    GraphParms(int[] index, int[] edges) {
        this.index = index.clone();
        this.edges = edges.clone();
    }

    /** The number of nodes. */
    public int getIndexCount() {
        return index.length;
    }

    /** The cumulative degree of nodes 0..i. */
    public int getIndex(int i) {
        return index[Objects.checkIndex(i, index.length)];
    }

    /** The number of edges. */
    public int getEdgeCount() {
        return edges.length;
    }

    /** Edge {@code i} of the flattened neighbour lists. */
    public int getEdge(int i) {
        return edges[Objects.checkIndex(i, edges.length)];
    }
}
