package mpjdev;

/** MPJ Express's device-level exception, kept as a name only: jmpi raises {@code mpi.MPIException}. */
public class MPJDevException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MPJDevException() {
    }

    public MPJDevException(String message) {
        super(message);
    }

    public MPJDevException(Throwable cause) {
        super(cause);
    }

    public MPJDevException(String message, Throwable cause) {
        super(message, cause);
    }
}
