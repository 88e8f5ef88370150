package org.jmpi.runtime;

/**
 * How public extension packages that sit above package {@code mpi} (such as {@code org.jmpi.ft}) reach what package
 * {@code mpi} keeps to itself: the runtime communicator behind a handle, new handles, and the error handlers. Package
 * {@code mpi} installs the one implementation when its {@code Comm} class initialises, which happens before any
 * handle can be passed in; the layers below never use it (they do not know package {@code mpi}), so the types are
 * {@code Object} here and cast by the caller.
 *
 * <p>Threading: the instance is published through a volatile field and is stateless.
 */
public abstract class FacadeAccess {
    private static volatile FacadeAccess instance;

    /** Called by package {@code mpi} only. */
    public static void install(FacadeAccess access) {
        if (instance == null) {
            instance = access;
        }
    }

    /** The implementation installed by package {@code mpi}. */
    public static FacadeAccess get() {
        FacadeAccess a = instance;
        if (a == null) {
            throw new IllegalStateException("package mpi is not loaded");
        }
        return a;
    }

    /**
     * The runtime communicator of an {@code mpi.Comm}, after checking that MPI is running and the handle is valid.
     *
     * @throws MpiError ERR_COMM for a null, freed or null-communicator handle
     */
    public abstract Communicator communicator(Object comm);

    /** A new {@code mpi.Intracomm} for {@code c}, with the error handler of {@code parent} (an {@code mpi.Comm}). */
    public abstract Object intracomm(Object parent, Communicator c);

    /** A new {@code mpi.Group} of the given world ranks, in that order. */
    public abstract Object group(int[] worldRanks);

    /**
     * The {@code mpi.MPIException} for {@code e} under the error handler of {@code comm} (an {@code mpi.Comm}, or
     * null for MPI_COMM_WORLD's); under MPI.ERRORS_ARE_FATAL this does not return.
     */
    public abstract Exception raise(Object comm, String call, MpiError e);

    /**
     * For a tool that follows a receive to whatever call completes it ({@code org.jmpi.tools.TraceTool}): keeps the
     * operation of an {@code mpi.Request} once its completion is observed, instead of handing it back to the engine
     * for reuse, so that {@link #completedReceive} can still read where the message came from. Costs the reuse of
     * that one request, nothing else.
     */
    public abstract void keepOperation(Object request);

    /**
     * {source, tag} of the message an {@code mpi.Request} kept by {@link #keepOperation} received, once a wait or a
     * test observed its completion (whatever the call: with a status or without, one request or an array); null while
     * it is pending, and for a request freed, cancelled or failed.
     */
    public abstract int[] completedReceive(Object request);
}
