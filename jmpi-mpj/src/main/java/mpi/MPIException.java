package mpi;

/**
 * An MPI error. Unchecked, as in MPJ Express (programs call {@code Send} inside {@code Runnable.run()} without a
 * {@code try}); code written for mpiJava 1.2.5's checked exception compiles against it unchanged.
 */
public class MPIException extends mpjdev.MPJDevException {
    private static final long serialVersionUID = 1L;

    /** MPI's error class of this error (the values of Open MPI's {@code MPI.ERR_*}); {@code ERR_OTHER} if unknown. */
    private final int errorClass;

    public MPIException() {
        this("MPI error");
    }

    public MPIException(String message) {
        super(message);
        errorClass = 16; // MPI_ERR_OTHER
    }

    public MPIException(Throwable cause) {
        super(cause == null ? "MPI error" : cause.getMessage(), cause);

        errorClass = cause instanceof org.jmpi.mpj.ompi.MPIException e ? e.getErrorClass() : 16;
    }

    MPIException(String message, int errorClass) {
        super(message);
        this.errorClass = errorClass;
    }

    /** The MPI error class ({@code MPI_ERR_TRUNCATE}, {@code MPI_ERR_RANK}, ...; Open MPI's numbering). */
    public int getErrorClass() {
        return errorClass;
    }

    /** This facade's exception for one of the runtime's. */
    static MPIException of(org.jmpi.mpj.ompi.MPIException e) {
        return new MPIException(e);
    }
}
