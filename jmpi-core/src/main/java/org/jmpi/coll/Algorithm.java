package org.jmpi.coll;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Every collective algorithm, by collective. {@link #key()} is the name that forces it
 * ({@code jmpi.coll.<collective>.algorithm=<key>}, or {@link Tuning#force}). An algorithm that is not
 * {@link #orderPreserving} combines operands out of rank order, so it is never used for a non-commutative
 * operation: forcing it then has no effect. The classes named here document each algorithm's idea and cost.
 */
public enum Algorithm {
    /** {@link BarrierDissemination}. */
    BARRIER_DISSEMINATION(Collective.BARRIER, "dissemination", true),
    /** {@link BarrierTree}. */
    BARRIER_TREE(Collective.BARRIER, "tree", true),
    /** {@link Hierarchical#barrier}: on each host, among the hosts' first ranks, on each host. */
    BARRIER_HIERARCHICAL(Collective.BARRIER, "hierarchical", true),
    /** {@link BcastBinomial}. */
    BCAST_BINOMIAL(Collective.BCAST, "binomial", true),
    /** {@link BcastScatterAllgather}. */
    BCAST_SCATTER_ALLGATHER(Collective.BCAST, "scatter_allgather", true),
    /** {@link BcastPipeline}. */
    BCAST_PIPELINE(Collective.BCAST, "pipeline", true),
    /** {@link Hierarchical#bcast}: among the hosts' leaders, then on each host. */
    BCAST_HIERARCHICAL(Collective.BCAST, "hierarchical", true),
    /** {@link GatherLinear}. */
    GATHER_LINEAR(Collective.GATHER, "linear", true),
    /** {@link GatherBinomial}. */
    GATHER_BINOMIAL(Collective.GATHER, "binomial", true),
    /** {@link GathervLinear}. */
    GATHERV_LINEAR(Collective.GATHERV, "linear", true),
    /** {@link ScatterLinear}. */
    SCATTER_LINEAR(Collective.SCATTER, "linear", true),
    /** {@link ScatterBinomial}. */
    SCATTER_BINOMIAL(Collective.SCATTER, "binomial", true),
    /** {@link ScattervLinear}. */
    SCATTERV_LINEAR(Collective.SCATTERV, "linear", true),
    /** {@link AllgatherRing}. */
    ALLGATHER_RING(Collective.ALLGATHER, "ring", true),
    /** {@link AllgatherBruck}. */
    ALLGATHER_BRUCK(Collective.ALLGATHER, "bruck", true),
    /** {@link AllgatherRecursiveDoubling}. */
    ALLGATHER_RECURSIVE_DOUBLING(Collective.ALLGATHER, "recursive_doubling", true),
    /** {@link Hierarchical#allgather}: gather on each host, among the leaders, then on each host. */
    ALLGATHER_HIERARCHICAL(Collective.ALLGATHER, "hierarchical", true),
    /** {@link AllgathervRing}. */
    ALLGATHERV_RING(Collective.ALLGATHERV, "ring", true),
    /** {@link AllgathervBruck}. */
    ALLGATHERV_BRUCK(Collective.ALLGATHERV, "bruck", true),
    /** {@link AlltoallPairwise}. */
    ALLTOALL_PAIRWISE(Collective.ALLTOALL, "pairwise", true),
    /** {@link AlltoallBruck}. */
    ALLTOALL_BRUCK(Collective.ALLTOALL, "bruck", true),
    /** {@link AlltoallvLinear} with equal blocks. */
    ALLTOALL_LINEAR(Collective.ALLTOALL, "linear", true),
    /** {@link AlltoallvPairwise}. */
    ALLTOALLV_PAIRWISE(Collective.ALLTOALLV, "pairwise", true),
    /** {@link AlltoallvLinear}. */
    ALLTOALLV_LINEAR(Collective.ALLTOALLV, "linear", true),
    /** {@link AlltoallvPairwise} with a datatype per block. */
    ALLTOALLW_PAIRWISE(Collective.ALLTOALLW, "pairwise", true),
    /** {@link AlltoallvLinear} with a datatype per block. */
    ALLTOALLW_LINEAR(Collective.ALLTOALLW, "linear", true),
    /** {@link ReduceBinomial}. */
    REDUCE_BINOMIAL(Collective.REDUCE, "binomial", true),
    /** {@link ReduceRabenseifner}. */
    REDUCE_RABENSEIFNER(Collective.REDUCE, "rabenseifner", false),
    /** {@link Hierarchical#reduce}: on each host, then among the hosts' leaders. */
    REDUCE_HIERARCHICAL(Collective.REDUCE, "hierarchical", false),
    /** {@link AllreduceRecursiveDoubling}. */
    ALLREDUCE_RECURSIVE_DOUBLING(Collective.ALLREDUCE, "recursive_doubling", true),
    /** {@link AllreduceRabenseifner}. */
    ALLREDUCE_RABENSEIFNER(Collective.ALLREDUCE, "rabenseifner", false),
    /** {@link AllreduceRing}. */
    ALLREDUCE_RING(Collective.ALLREDUCE, "ring", false),
    /** {@link ReduceBinomial} to rank 0, then {@link BcastBinomial}. */
    ALLREDUCE_REDUCE_BCAST(Collective.ALLREDUCE, "reduce_bcast", true),
    /** {@link Hierarchical#allreduce}: reduce on each host, allreduce among the leaders, bcast on each host. */
    ALLREDUCE_HIERARCHICAL(Collective.ALLREDUCE, "hierarchical", false),
    /** {@link ReduceScatterRing}. */
    REDUCE_SCATTER_RING(Collective.REDUCE_SCATTER, "ring", false),
    /** {@link ReduceScatterRecursiveHalving}. */
    REDUCE_SCATTER_RECURSIVE_HALVING(Collective.REDUCE_SCATTER, "recursive_halving", false),
    /** {@link ReduceBinomial} to rank 0, then {@link ScattervLinear}. */
    REDUCE_SCATTER_REDUCE_SCATTERV(Collective.REDUCE_SCATTER, "reduce_scatterv", true),
    /** {@link ReduceScatterRing} with equal blocks. */
    REDUCE_SCATTER_BLOCK_RING(Collective.REDUCE_SCATTER_BLOCK, "ring", false),
    /** {@link ReduceScatterRecursiveHalving} with equal blocks. */
    REDUCE_SCATTER_BLOCK_RECURSIVE_HALVING(Collective.REDUCE_SCATTER_BLOCK, "recursive_halving", false),
    /** {@link ReduceBinomial} to rank 0, then {@link ScattervLinear}, with equal blocks. */
    REDUCE_SCATTER_BLOCK_REDUCE_SCATTERV(Collective.REDUCE_SCATTER_BLOCK, "reduce_scatterv", true),
    /** {@link ScanLinear}. */
    SCAN_LINEAR(Collective.SCAN, "linear", true),
    /** {@link ScanRecursiveDoubling}. */
    SCAN_RECURSIVE_DOUBLING(Collective.SCAN, "recursive_doubling", true),
    /** {@link ExscanLinear}. */
    EXSCAN_LINEAR(Collective.EXSCAN, "linear", true),
    /** {@link ExscanRecursiveDoubling}. */
    EXSCAN_RECURSIVE_DOUBLING(Collective.EXSCAN, "recursive_doubling", true);

    private final Collective collective;
    private final String key;
    private final boolean orderPreserving;

    Algorithm(Collective collective, String key, boolean orderPreserving) {
        this.collective = collective;
        this.key = key;
        this.orderPreserving = orderPreserving;
    }

    public Collective collective() {
        return collective;
    }

    /** The name that selects this algorithm in {@code jmpi.coll.<collective>.algorithm}. */
    public String key() {
        return key;
    }

    /**
     * True when the algorithm combines operands in rank order (so it is correct for non-commutative operations);
     * true for every algorithm of a collective without reductions.
     */
    public boolean orderPreserving() {
        return orderPreserving;
    }

    /** Whether this is a hierarchical algorithm (one for communicators that span hosts, {@link Hierarchical}). */
    public boolean hierarchical() {
        return key.equals("hierarchical");
    }

    /** The algorithms of one collective, in declaration order. */
    public static List<Algorithm> of(Collective c) {
        List<Algorithm> list = new ArrayList<>();
        for (Algorithm a : values()) {
            if (a.collective == c) {
                list.add(a);
            }
        }
        return list;
    }

    /** The algorithm of {@code c} called {@code key} (case-insensitive), or null. */
    public static Algorithm find(Collective c, String key) {
        for (Algorithm a : values()) {
            if (a.collective == c && a.key.equalsIgnoreCase(key.trim().toLowerCase(Locale.ROOT))) {
                return a;
            }
        }
        return null;
    }
}
