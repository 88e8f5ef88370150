package mpi;

/** Builds the exception thrown by API members that jmpi does not implement yet. */
final class Unsupported {
    private Unsupported() {}

    /**
     * The exception for a member that is not implemented yet.
     *
     * @param member the member with simple parameter types, e.g. {@code "Comm.bcast(Object, int, Datatype, int)"}
     */
    static MPIException of(String member) {
        return new MPIException(MPI.ERR_UNSUPPORTED_OPERATION, "jmpi: " + member + " is not implemented yet");
    }
}
