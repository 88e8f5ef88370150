package org.jmpi.dl;

/** How a fused buffer is all-reduced. */
public enum Algorithm {
    /**
     * {@link #HIERARCHICAL} when the ranks span more than one host and at least one host holds several ranks,
     * {@link #MPI} otherwise.
     */
    AUTO,
    /** One {@code MPI_Allreduce} on the reducer's communicator: jmpi chooses the algorithm by message size. */
    MPI,
    /**
     * Bitwise reproducible: an all-to-all gives each rank one block of every rank's buffer, the rank adds the blocks
     * in rank order (rank 0 first), an all-gather returns the sums. Every element is {@code ((x0 + x1) + x2) + ...}
     * whatever the fusion, the buffer position or the rank's block, so fused and unfused runs, and runs with
     * different fusion settings, give the same bits. With 16-bit compression the sums are taken in fp32 and
     * rounded once. Moves as many bytes as a ring all-reduce, in 2 (p - 1) messages per rank.
     */
    ORDERED,
    /**
     * Reduce within each host to its first rank (shared memory), all-reduce among one leader per host, broadcast
     * within each host. Hosts are found with {@code MPI_Comm_split_type(TYPE_SHARED)}, or formed from consecutive
     * ranks by {@link ReducerOptions.Builder#ranksPerHost(int)} (for tests and experiments).
     */
    HIERARCHICAL
}
