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

    /**
     * Calls {@code onEnd} (from a daemon thread, at most once) when the process manager closes its connection to
     * this rank before the rank finalized or closed it: the launcher is gone. The default has no connection to
     * watch and never calls it.
     */
    default void watchEnd(Runnable onEnd) {
    }

    /**
     * The job's shared secret, which every transport connection must present, or {@code null} when the process
     * manager gave none (a singleton, threads mode). Launched by jmpirun it is {@code JMPI_SECRET}; under Hydra or
     * Slurm rank 0 makes one up and shares it through the key-value space at start-up.
     */
    default String secret() {
        return null;
    }

    /**
     * Whether world rank {@code peer} runs on the same host as this rank (same kernel and network namespace), so
     * that shared memory could reach it. Valid after the first {@link #fence()}. The default knows only itself.
     */
    default boolean isLocal(int peer) {
        return peer == rank();
    }

    /**
     * Which host world rank {@code r} runs on, as a value that compares equal ({@link Object#equals}) for two ranks on
     * one host and is the same at every rank of the job; null when this bootstrap cannot tell (then callers must not
     * treat ranks as on different hosts). The default cannot tell.
     */
    default Object host(int r) {
        return null;
    }

    /**
     * Where transports should listen when the job spans hosts (an address, an interface name, or {@code "*"}), or
     * {@code null} when every rank is on this host and loopback will do.
     */
    default String listenHost() {
        return null;
    }

    /**
     * Registers a listener told when the process manager reports another rank as failed (jmpirun
     * {@code --continue-on-failure}). Called from a thread of the bootstrap; must not block. Without such a process
     * manager this does nothing.
     */
    default void onPeerFailure(FailureListener listener) {
    }

    /**
     * The process manager's fault-tolerant agreement service, or null when it has none (then failures end the job,
     * and agreement can use plain messages). Valid after {@link #onPeerFailure} was first called.
     */
    default Agreement agreement() {
        return null;
    }

    /** Hears that a rank of the job failed. */
    @FunctionalInterface
    interface FailureListener {
        /**
         * @param rank the world rank that failed
         * @param reason one line for error messages ("exited with code 3", "killed by signal 9", ...)
         */
        void failed(int rank, String reason);
    }

    /** Release resources (sockets); idempotent. */
    @Override
    void close();
}
