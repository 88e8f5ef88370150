package mpi;

import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;

/**
 * An MPI 4.0 session (section 11.3): a library's own start of MPI, without {@code MPI.Init} and without
 * {@code MPI.COMM_WORLD}. A session offers process sets ({@code mpi://WORLD}, {@code mpi://SELF}); a group made from
 * one ({@link Group#fromSessionPset}) gives a communicator ({@link Intracomm#createFromGroup}) that the library owns.
 * Several sessions may be open in one process, beside the world model or without it; MPI runs until the last of them
 * (and {@code MPI.Finalize}, if the program called {@code MPI.Init}) has finished. Once everything has finished, MPI
 * cannot start again in the same process.
 *
 * <pre>{@code
 * try (Session s = Session.init(null, MPI.ERRORS_RETURN)) {
 *     Group g = Group.fromSessionPset(s, "mpi://WORLD");
 *     Intracomm comm = Intracomm.createFromGroup(g, "org.example.mylib", null, MPI.ERRORS_RETURN);
 *     ... comm.allReduce(...) ...
 *     comm.free();
 * }
 * }</pre>
 *
 * <p>The info key {@code thread_level} asks for a thread level ({@code MPI_THREAD_SINGLE} ...
 * {@code MPI_THREAD_MULTIPLE}); {@link #getInfo()} tells the level provided. Finishing a session is collective over
 * the processes it connected to: with jmpi, every rank of the job, like {@code MPI.Finalize}.
 */
public final class Session implements AutoCloseable {
    /** The process set of every process of the job. */
    public static final String WORLD_PSET = "mpi://WORLD";
    /** The process set of the calling process alone. */
    public static final String SELF_PSET = "mpi://SELF";
    private static final String[] LEVELS = {
        "MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"
    };

    private final Errhandler errhandler;
    private final int threadLevel;
    private boolean finished;
    /** The buffer of the buffered sends on this session's communicators that have none of their own (MPI 4.1). */
    final BufferedSends.Pool bsendPool = new BufferedSends.Pool();

    private Session(Errhandler errhandler, int threadLevel) {
        this.errhandler = errhandler;
        this.threadLevel = threadLevel;
    }

    /**
     * MPI_Session_init.
     *
     * @param info may be null; the key {@code thread_level} asks for a thread level (default MPI_THREAD_SINGLE)
     * @param errhandler the session's error handler (null: MPI.ERRORS_ARE_FATAL); it also applies to the calls that
     *     take the session
     */
    public static Session init(Info info, Errhandler errhandler) throws MPIException {
        try {
            int required = MPI.THREAD_SINGLE;
            String level = info == null || info.isNull() ? null : info.get("thread_level");
            if (level != null) {
                required = java.util.Arrays.asList(LEVELS).indexOf(level.trim().toUpperCase(java.util.Locale.ROOT));
                if (required < 0) {
                    throw new MpiError(ErrorClass.ERR_ARG, "unknown thread_level \"" + level + "\" (one of "
                            + String.join(", ", LEVELS) + ")");
                }
            }
            JmpiRuntime rt = JmpiRuntime.acquire(required);
            return new Session(errhandler, rt.threadLevel());
        } catch (MpiError e) {
            throw Errors.raise(errhandler, "MPI_Session_init", e);
        }
    }

    /** MPI_Session_init with no info and the error handler MPI.ERRORS_RETURN. */
    public static Session init() throws MPIException {
        return init(null, MPI.ERRORS_RETURN);
    }

    MPIException fail(String call, MpiError e) {
        return Errors.raise(errhandler, call, e);
    }

    void checkOpen(String call) throws MPIException {
        if (finished) {
            throw fail(call, new MpiError(ErrorClass.ERR_SESSION, "the session was finalized"));
        }
    }

    /** MPI_Session_get_num_psets: the number of process sets ({@code mpi://WORLD} and {@code mpi://SELF}). */
    public int getNumPsets(Info info) throws MPIException {
        checkOpen("MPI_Session_get_num_psets");
        return 2;
    }

    /** MPI_Session_get_nth_pset: the name of process set {@code n} (0: mpi://WORLD, 1: mpi://SELF). */
    public String getNthPset(Info info, int n) throws MPIException {
        checkOpen("MPI_Session_get_nth_pset");
        if (n < 0 || n > 1) {
            throw fail("MPI_Session_get_nth_pset", new MpiError(ErrorClass.ERR_ARG, "process set " + n
                    + " does not exist (0.." + 1 + ")"));
        }
        return n == 0 ? WORLD_PSET : SELF_PSET;
    }

    /** MPI_Session_get_pset_info: an info with the key {@code mpi_size}, the number of processes of the set. */
    public Info getPsetInfo(String pset) throws MPIException {
        checkOpen("MPI_Session_get_pset_info");
        try {
            Info i = new Info();
            i.set("mpi_size", Integer.toString(psetRanks(pset).length));
            return i;
        } catch (MpiError e) {
            throw fail("MPI_Session_get_pset_info", e);
        }
    }

    /** MPI_Session_get_info: {@code thread_level}, the level provided. */
    public Info getInfo() throws MPIException {
        checkOpen("MPI_Session_get_info");
        Info i = new Info();
        i.set("thread_level", LEVELS[threadLevel]);
        return i;
    }

    /** The thread level this session provides (the running MPI's). */
    public int getThreadLevel() {
        return threadLevel;
    }

    public Errhandler getErrhandler() {
        return errhandler;
    }

    /** The world ranks of a process set, in rank order. */
    int[] psetRanks(String pset) {
        if (pset == null) {
            throw new MpiError(ErrorClass.ERR_ARG, "null process set name");
        }
        org.jmpi.runtime.Communicator world = JmpiRuntime.get().world();
        if (pset.equalsIgnoreCase(WORLD_PSET)) {
            return world.worldRanks();
        }
        if (pset.equalsIgnoreCase(SELF_PSET)) {
            return new int[] {world.worldRank(world.rank())};
        }
        throw new MpiError(ErrorClass.ERR_ARG, "no process set \"" + pset + "\" (there are " + WORLD_PSET + " and "
                + SELF_PSET + ")");
    }

    /** This process's world rank. */
    static int myWorldRank() {
        org.jmpi.runtime.Communicator world = JmpiRuntime.get().world();
        return world.worldRank(world.rank());
    }

    /**
     * MPI_Session_attach_buffer (MPI 4.1): a buffer for the buffered sends on the communicators made from this
     * session's process sets that have no buffer of their own ({@link Comm#attachBuffer}); {@link MPI#BUFFER_AUTOMATIC}
     * lets them take the memory they need.
     */
    public void attachBuffer(byte[] buffer) throws MPIException {
        checkOpen("MPI_Session_attach_buffer");
        try {
            bsendPool.attach(buffer);
        } catch (MpiError e) {
            throw fail("MPI_Session_attach_buffer", e);
        }
    }

    /** MPI_Session_detach_buffer (MPI 4.1): waits until its buffered messages have left, then returns the buffer. */
    public byte[] detachBuffer() throws MPIException {
        checkOpen("MPI_Session_detach_buffer");
        try {
            return bsendPool.detach();
        } catch (MpiError e) {
            throw fail("MPI_Session_detach_buffer", e);
        }
    }

    /** MPI_Session_flush_buffer (MPI 4.1): waits until every message buffered in this session's buffer has left. */
    public void flushBuffer() throws MPIException {
        checkOpen("MPI_Session_flush_buffer");
        try {
            bsendPool.flush();
        } catch (MpiError e) {
            throw fail("MPI_Session_flush_buffer", e);
        }
    }

    /**
     * MPI_Session_finalize: ends the session (its communicators should have been freed) once the messages buffered in
     * its buffer have left. Once no session is open and the world model, if started, has finished, MPI ends in this
     * process (a barrier over the job).
     */
    public void finalizeSession() throws MPIException {
        checkOpen("MPI_Session_finalize");
        try {
            bsendPool.flush();
            finished = true;
            JmpiRuntime.release();
        } catch (MpiError e) {
            throw fail("MPI_Session_finalize", e);
        }
    }

    /** Whether {@link #finalizeSession()} was called. */
    public boolean isFinalized() {
        return finished;
    }

    /** {@link #finalizeSession()} unless done already, for try-with-resources. */
    @Override
    public void close() throws MPIException {
        if (!finished) {
            finalizeSession();
        }
    }
}
