package mpi;

/** A handle to a pending non-blocking operation. */
public class Request implements Freeable {
    /** True for MPI_REQUEST_NULL, and for a request once it has completed or been freed. */
    boolean nullHandle = true;

    /** Creates a null request (MPI_REQUEST_NULL). */
    Request() {}

    @NotImplemented
    public void free() throws MPIException {
        throw Unsupported.of("Request.free()");
    }

    @NotImplemented
    public final void cancel() throws MPIException {
        throw Unsupported.of("Request.cancel()");
    }

    public final boolean isNull() {
        return nullHandle;
    }

    @NotImplemented
    public final Status waitStatus() throws MPIException {
        throw Unsupported.of("Request.waitStatus()");
    }

    @NotImplemented
    public final void waitFor() throws MPIException {
        throw Unsupported.of("Request.waitFor()");
    }

    @NotImplemented
    public final Status testStatus() throws MPIException {
        throw Unsupported.of("Request.testStatus()");
    }

    @NotImplemented
    public final Status getStatus() throws MPIException {
        throw Unsupported.of("Request.getStatus()");
    }

    @NotImplemented
    public final boolean test() throws MPIException {
        throw Unsupported.of("Request.test()");
    }

    @NotImplemented
    public static Status waitAnyStatus(Request[] requests) throws MPIException {
        throw Unsupported.of("Request.waitAnyStatus(Request[])");
    }

    @NotImplemented
    public static int waitAny(Request[] requests) throws MPIException {
        throw Unsupported.of("Request.waitAny(Request[])");
    }

    @NotImplemented
    public static Status testAnyStatus(Request[] requests) throws MPIException {
        throw Unsupported.of("Request.testAnyStatus(Request[])");
    }

    @NotImplemented
    public static int testAny(Request[] requests) throws MPIException {
        throw Unsupported.of("Request.testAny(Request[])");
    }

    @NotImplemented
    public static Status[] waitAllStatus(Request[] requests) throws MPIException {
        throw Unsupported.of("Request.waitAllStatus(Request[])");
    }

    @NotImplemented
    public static void waitAll(Request[] requests) throws MPIException {
        throw Unsupported.of("Request.waitAll(Request[])");
    }

    @NotImplemented
    public static Status[] testAllStatus(Request[] requests) throws MPIException {
        throw Unsupported.of("Request.testAllStatus(Request[])");
    }

    @NotImplemented
    public static boolean testAll(Request[] requests) throws MPIException {
        throw Unsupported.of("Request.testAll(Request[])");
    }

    @NotImplemented
    public static Status[] waitSomeStatus(Request[] requests) throws MPIException {
        throw Unsupported.of("Request.waitSomeStatus(Request[])");
    }

    @NotImplemented
    public static int[] waitSome(Request[] requests) throws MPIException {
        throw Unsupported.of("Request.waitSome(Request[])");
    }

    @NotImplemented
    public static Status[] testSomeStatus(Request[] requests) throws MPIException {
        throw Unsupported.of("Request.testSomeStatus(Request[])");
    }

    @NotImplemented
    public static int[] testSome(Request[] requests) throws MPIException {
        throw Unsupported.of("Request.testSome(Request[])");
    }
}
