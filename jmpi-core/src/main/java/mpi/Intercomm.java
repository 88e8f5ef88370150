package mpi;

/** An intercommunicator: communication between two disjoint groups of processes. */
public final class Intercomm extends Comm {
    Intercomm() {}

    @NotImplemented
    public Intercomm clone() {
        throw new UnsupportedOperationException("jmpi: Intercomm.clone() is not implemented yet");
    }

    @NotImplemented
    public Intercomm dup() throws MPIException {
        throw Unsupported.of("Intercomm.dup()");
    }

    @NotImplemented
    public Intercomm iDup() throws MPIException {
        throw Unsupported.of("Intercomm.iDup()");
    }

    @NotImplemented
    public Intercomm dupWithInfo(Info info) throws MPIException {
        throw Unsupported.of("Intercomm.dupWithInfo(Info)");
    }

    @NotImplemented
    public int getRemoteSize() throws MPIException {
        throw Unsupported.of("Intercomm.getRemoteSize()");
    }

    @NotImplemented
    public Group getRemoteGroup() throws MPIException {
        throw Unsupported.of("Intercomm.getRemoteGroup()");
    }

    @NotImplemented
    public Intracomm merge(boolean high) throws MPIException {
        throw Unsupported.of("Intercomm.merge(boolean)");
    }

    @NotImplemented
    public static Intercomm getParent() throws MPIException {
        throw Unsupported.of("Intercomm.getParent()");
    }
}
