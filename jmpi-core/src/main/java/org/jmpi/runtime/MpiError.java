package org.jmpi.runtime;

/**
 * The unchecked error that travels from inside the library up to package {@code mpi}, where it becomes an
 * {@code MPIException} (or ends the job under {@code MPI.ERRORS_ARE_FATAL}). It carries an MPI error class.
 */
public final class MpiError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int errorClass;
    private final boolean stateError;

    public MpiError(int errorClass, String message) {
        super(message);
        this.errorClass = errorClass;
        this.stateError = false;
    }

    private MpiError(String message, boolean stateError) {
        super(message);
        this.errorClass = ErrorClass.ERR_OTHER;
        this.stateError = stateError;
    }

    /**
     * A call made before Init, after Finalize, or a second Init: always thrown as an exception, whatever error
     * handler is set (as in the Open MPI bindings, where these checks precede the handlers).
     */
    public static MpiError state(String message) {
        return new MpiError(message, true);
    }

    public boolean isStateError() {
        return stateError;
    }

    public MpiError(int errorClass, String message, Throwable cause) {
        super(message, cause);
        this.errorClass = errorClass;
        this.stateError = false;
    }

    public int errorClass() {
        return errorClass;
    }
}
