package mpi;

/**
 * An error raised by an MPI call. It carries the MPI error code and error class; compare the class with the
 * {@code MPI.ERR_*} constants.
 */
public final class MPIException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int errorCode;
    private final int errorClass;

    /** Creates an exception of class {@code org.jmpi.runtime.ErrorClass.ERR_UNKNOWN}. */
    public MPIException(String message) {
        this(org.jmpi.runtime.ErrorClass.ERR_UNKNOWN, message);
    }

    /** Wraps a cause; the error class is taken from it when it is an {@code MPIException}. */
    public MPIException(Throwable cause) {
        super(cause == null ? null : cause.getMessage(), cause);
        if (cause instanceof MPIException e) {
            this.errorCode = e.errorCode;
            this.errorClass = e.errorClass;
        } else if (cause instanceof org.jmpi.runtime.MpiError e) {
            this.errorCode = e.errorClass();
            this.errorClass = e.errorClass();
        } else {
            this.errorCode = org.jmpi.runtime.ErrorClass.ERR_UNKNOWN;
            this.errorClass = org.jmpi.runtime.ErrorClass.ERR_UNKNOWN;
        }
    }

    MPIException(int errorClass, String message) {
        super(message);
        this.errorCode = errorClass;
        this.errorClass = errorClass;
    }

    MPIException(org.jmpi.runtime.MpiError cause) {
        super(cause.getMessage(), cause.getCause());
        this.errorCode = cause.errorClass();
        this.errorClass = cause.errorClass();
    }

    /** The MPI error code. jmpi uses the error class as the code. */
    public int getErrorCode() {
        return errorCode;
    }

    /** The MPI error class: one of the {@code MPI.ERR_*} constants. */
    public int getErrorClass() {
        return errorClass;
    }
}
