package mpi;

/** A communicator with a Cartesian topology (MPI_Cart_*). */
public final class CartComm extends Intracomm {
    CartComm() {}

    @NotImplemented
    public CartComm clone() {
        throw new UnsupportedOperationException("jmpi: CartComm.clone() is not implemented yet");
    }

    @NotImplemented
    public CartComm dup() throws MPIException {
        throw Unsupported.of("CartComm.dup()");
    }

    @NotImplemented
    public CartComm iDup() throws MPIException {
        throw Unsupported.of("CartComm.iDup()");
    }

    @NotImplemented
    public CartComm dupWithInfo(Info info) throws MPIException {
        throw Unsupported.of("CartComm.dupWithInfo(Info)");
    }

    @NotImplemented
    public CartParms getTopo() throws MPIException {
        throw Unsupported.of("CartComm.getTopo()");
    }

    @NotImplemented
    public int getRank(int[] coords) throws MPIException {
        throw Unsupported.of("CartComm.getRank(int[])");
    }

    @NotImplemented
    public int[] getCoords(int rank) throws MPIException {
        throw Unsupported.of("CartComm.getCoords(int)");
    }

    @NotImplemented
    public ShiftParms shift(int direction, int disp) throws MPIException {
        throw Unsupported.of("CartComm.shift(int, int)");
    }

    @NotImplemented
    public CartComm sub(boolean[] remainDims) throws MPIException {
        throw Unsupported.of("CartComm.sub(boolean[])");
    }

    @NotImplemented
    public int map(int[] dims, boolean[] periods) throws MPIException {
        throw Unsupported.of("CartComm.map(int[], boolean[])");
    }

    @NotImplemented
    public static void createDims(int nnodes, int[] dims) throws MPIException {
        throw Unsupported.of("CartComm.createDims(int, int[])");
    }
}
