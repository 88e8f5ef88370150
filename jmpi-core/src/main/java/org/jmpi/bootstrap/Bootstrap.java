package org.jmpi.bootstrap;

/**
 * Who am I, who are my peers: the process-management interface as the runtime sees it. One implementation per
 * way of starting ranks (singleton, threads of one JVM, PMI-1 over TCP or an inherited descriptor, ...).
 *
 * <p>The key-value space follows PMI-1 rules: {@link #put} values become visible to every rank after the next
 * {@link #fence}; keys are {@code [A-Za-z0-9_.-]}, never start with {@code PMI_}; values are printable ASCII
 * (33-126, no spaces) of at most {@link #MAX_VALUE} bytes.
 *
 * <p>Threading: implementations are safe to call from any thread; calls may be serialised internally.
 */
public interface Bootstrap extends AutoCloseable {
    /** Longest value a put may carry (Slurm's PMI-1 server limits a whole request line to 1024 bytes). */
    int MAX_VALUE = 900;

    /** This process's rank in the job (MPI_COMM_WORLD rank). */
    int rank();

    /** Number of ranks in the job. */
    int size();

    /** A name for the job, unique on this host while it runs (used for shared-memory names, logs). */
    String jobId();

    /** Publish a key-value pair; visible to the others after the next {@link #fence()}. */
    void put(String key, String value);

    /** Collective over every rank of the job: returns when every rank has entered; makes puts visible. */
    void fence();

    /** The value for a key, or {@code null} when no rank has put it (before the last fence). */
    String get(String key);

    /**
     * Ask the process manager to end the whole job with the given exit code. May not return.
     *
     * @param message one line, shown to the user
     */
    void abort(int exitCode, String message);

    /** Tell the process manager this rank finalized cleanly; called once from MPI.Finalize. */
    void finalizeJob();

    /** Release resources (sockets); idempotent. */
    @Override
    void close();
}
