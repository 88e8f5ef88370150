package mpi;

/** A communicator with a graph or distributed-graph topology. */
public final class GraphComm extends Intracomm {
    GraphComm() {}

    @NotImplemented
    public GraphComm clone() {
        throw new UnsupportedOperationException("jmpi: GraphComm.clone() is not implemented yet");
    }

    @NotImplemented
    public GraphComm dup() throws MPIException {
        throw Unsupported.of("GraphComm.dup()");
    }

    @NotImplemented
    public GraphComm iDup() throws MPIException {
        throw Unsupported.of("GraphComm.iDup()");
    }

    @NotImplemented
    public GraphComm dupWithInfo(Info info) throws MPIException {
        throw Unsupported.of("GraphComm.dupWithInfo(Info)");
    }

    @NotImplemented
    public GraphParms getDims() throws MPIException {
        throw Unsupported.of("GraphComm.getDims()");
    }

    @NotImplemented
    public int[] getNeighbors(int rank) throws MPIException {
        throw Unsupported.of("GraphComm.getNeighbors(int)");
    }

    @NotImplemented
    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException {
        throw Unsupported.of("GraphComm.getDistGraphNeighbors()");
    }

    @NotImplemented
    public int map(int[] index, int[] edges) throws MPIException {
        throw Unsupported.of("GraphComm.map(int[], int[])");
    }
}
