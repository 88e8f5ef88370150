package org.jmpi.runtime;

/**
 * The unchecked error that travels from inside the library up to package {@code mpi}, where it becomes an
 * {@code MPIException} (or ends the job under {@code MPI.ERRORS_ARE_FATAL}). It carries an MPI error class.
 */
public final class MpiError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int errorClass;

    public MpiError(int errorClass, String message) {
        super(message);
        this.errorClass = errorClass;
    }

    public MpiError(int errorClass, String message, Throwable cause) {
        super(message, cause);
        this.errorClass = errorClass;
    }

    public int errorClass() {
        return errorClass;
    }
}
