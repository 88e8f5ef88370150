package org.jmpi.coll;

import java.util.Locale;

/** The collective operations that have a choice of algorithms; {@link #key()} names them in parameters. */
public enum Collective {
    BARRIER,
    BCAST,
    GATHER,
    GATHERV,
    SCATTER,
    SCATTERV,
    ALLGATHER,
    ALLGATHERV,
    ALLTOALL,
    ALLTOALLV,
    ALLTOALLW,
    REDUCE,
    ALLREDUCE,
    REDUCE_SCATTER,
    REDUCE_SCATTER_BLOCK,
    SCAN,
    EXSCAN;

    /** The name in parameters: {@code reduce_scatter_block} in {@code jmpi.coll.reduce_scatter_block.algorithm}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
