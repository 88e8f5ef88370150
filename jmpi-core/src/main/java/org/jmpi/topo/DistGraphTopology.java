package org.jmpi.topo;

/**
 * A distributed graph (MPI_Dist_graph_create[_adjacent]): each process knows only its own in-edges (sources) and
 * out-edges (destinations), with optional weights.
 *
 * <p>Threading: immutable.
 */
public final class DistGraphTopology implements Topology {
    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destWeights;
    private final boolean weighted;

    public DistGraphTopology(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights,
            boolean weighted) {
        this.sources = sources.clone();
        this.sourceWeights = sourceWeights.clone();
        this.destinations = destinations.clone();
        this.destWeights = destWeights.clone();
        this.weighted = weighted;
    }

    public int[] sources() {
        return sources.clone();
    }

    public int[] sourceWeights() {
        return sourceWeights.clone();
    }

    public int[] destinations() {
        return destinations.clone();
    }

    public int[] destWeights() {
        return destWeights.clone();
    }

    public boolean weighted() {
        return weighted;
    }

    @Override
    public int[] inNeighbors(int rank) {
        return sources.clone();
    }

    @Override
    public int[] outNeighbors(int rank) {
        return destinations.clone();
    }
}
