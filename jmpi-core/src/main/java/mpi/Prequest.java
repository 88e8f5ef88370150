package mpi;

/** A persistent communication request: created once, started many times. */
public final class Prequest extends Request {
    Prequest() {}

    @NotImplemented
    public void start() throws MPIException {
        throw Unsupported.of("Prequest.start()");
    }

    @NotImplemented
    public static void startAll(Prequest[] requests) throws MPIException {
        throw Unsupported.of("Prequest.startAll(Prequest[])");
    }
}
