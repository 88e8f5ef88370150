package mpi;

/** The outcome of a receive, probe, wait or test: source, tag, error, element counts. */
public final class Status {
    int source = MPI.ANY_SOURCE;
    int tag = MPI.ANY_TAG;
    int error = MPI.SUCCESS;
    int index = MPI.UNDEFINED;

    Status() {}

    @NotImplemented
    public int getCount(Datatype datatype) throws MPIException {
        throw Unsupported.of("Status.getCount(Datatype)");
    }

    @NotImplemented
    public boolean isCancelled() throws MPIException {
        throw Unsupported.of("Status.isCancelled()");
    }

    @NotImplemented
    public int getElements(Datatype datatype) throws MPIException {
        throw Unsupported.of("Status.getElements(Datatype)");
    }

    @NotImplemented
    public Count getElementsX(Datatype datatype) throws MPIException {
        throw Unsupported.of("Status.getElementsX(Datatype)");
    }

    @NotImplemented
    public void setElements(Datatype datatype, int count) throws MPIException {
        throw Unsupported.of("Status.setElements(Datatype, int)");
    }

    @NotImplemented
    public void setElementsX(Datatype datatype, Count count) throws MPIException {
        throw Unsupported.of("Status.setElementsX(Datatype, Count)");
    }

    @NotImplemented
    public void setCancelled(boolean flag) throws MPIException {
        throw Unsupported.of("Status.setCancelled(boolean)");
    }

    public int getSource() {
        return source;
    }

    public int getTag() {
        return tag;
    }

    public int getError() {
        return error;
    }

    public int getIndex() {
        return index;
    }
}
