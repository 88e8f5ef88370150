import mpi.*;

/*
 * Errors as exceptions: with MPI.ERRORS_RETURN a bad call throws MPIException with the MPI error class, and the
 * communicator keeps working; calling the handler returns normally.
 */
class ErrorHandlers {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        world.setErrhandler(MPI.ERRORS_RETURN);
        int rank = world.getRank();
        int size = world.getSize();

        expect(MPI.ERR_RANK, () -> world.send(new int[1], 1, MPI.INT, size, 0));
        expect(MPI.ERR_COUNT, () -> world.send(new int[1], -1, MPI.INT, 0, 0));
        expect(MPI.ERR_TAG, () -> world.send(new int[1], 1, MPI.INT, 0, -3));
        expect(MPI.ERR_BUFFER, () -> world.send(new int[1], 5, MPI.BYTE, 0, 0)); // 5 bytes of a 4-byte array
        expect(MPI.ERR_BUFFER, () -> world.send("not a buffer", 1, MPI.CHAR, 0, 0));
        expect(MPI.ERR_TYPE, () -> world.send(new int[1], 1, MPI.DATATYPE_NULL, 0, 0));
        expect(MPI.ERR_TRUNCATE, () -> world.sendRecv(new int[2], 2, MPI.INT, rank, 4, new int[1], 1, MPI.INT,
                rank, 4));

        world.callErrhandler(MPI.ERR_OTHER); // ERRORS_RETURN: the call returns

        int[] in = new int[1];
        world.sendRecv(new int[] {rank}, 1, MPI.INT, (rank + 1) % size, 6, in, 1, MPI.INT, (rank + size - 1) % size,
                6);
        Corpus.check(in[0] == (rank + size - 1) % size, "the communicator still works");
        Corpus.passed("ErrorHandlers");
        MPI.Finalize();
    }

    interface Call {
        void run() throws MPIException;
    }

    static void expect(int errorClass, Call call) {
        try {
            call.run();
        } catch (MPIException e) {
            Corpus.check(e.getErrorClass() == errorClass, "error class " + e.getErrorClass() + " for " + e
                    .getMessage() + ", expected " + errorClass);
            return;
        }
        throw new AssertionError("no MPIException; expected class " + errorClass);
    }
}
