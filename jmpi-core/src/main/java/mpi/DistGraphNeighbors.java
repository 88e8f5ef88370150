package mpi;

import java.util.Objects;

/**
 * The caller's incoming and outgoing neighbours in a distributed graph communicator, as returned by
 * {@link GraphComm#getDistGraphNeighbors()}.
 */
public final class DistGraphNeighbors {
    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destWeights;

    /**
     * Copies the arrays. The weight arrays are both {@code null} for an unweighted graph, else they have the lengths
     * of {@code sources} and {@code destinations}.
     */
    DistGraphNeighbors(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights) {
        if ((sourceWeights == null) != (destWeights == null)) {
            throw new IllegalArgumentException("either both weight arrays or none");
        }
        if (sourceWeights != null
                && (sourceWeights.length != sources.length || destWeights.length != destinations.length)) {
            throw new IllegalArgumentException("weight arrays must match the neighbour arrays");
        }
        this.sources = sources.clone();
        this.destinations = destinations.clone();
        this.sourceWeights = sourceWeights == null ? null : sourceWeights.clone();
        this.destWeights = destWeights == null ? null : destWeights.clone();
    }

    /** The number of incoming neighbours. */
    public int getInDegree() {
        return sources.length;
    }

    /** The number of outgoing neighbours. */
    public int getOutDegree() {
        return destinations.length;
    }

    /** Whether the graph carries edge weights. */
    public boolean isWeighted() {
        return sourceWeights != null;
    }

    /** Incoming neighbour {@code i}. */
    public int getSource(int i) {
        return sources[Objects.checkIndex(i, sources.length)];
    }

    /**
     * The weight of the edge from incoming neighbour {@code i}.
     *
     * @throws IllegalStateException when the graph is not weighted
     */
    public int getSourceWeight(int i) {
        return weights(sourceWeights)[Objects.checkIndex(i, sources.length)];
    }

    /** Outgoing neighbour {@code i}. */
    public int getDestination(int i) {
        return destinations[Objects.checkIndex(i, destinations.length)];
    }

    /**
     * The weight of the edge to outgoing neighbour {@code i}.
     *
     * @throws IllegalStateException when the graph is not weighted
     */
    public int getDestinationWeight(int i) {
        return weights(destWeights)[Objects.checkIndex(i, destinations.length)];
    }

    private static int[] weights(int[] w) {
        if (w == null) {
            throw new IllegalStateException("the distributed graph is not weighted");
        }
        return w;
    }
}
