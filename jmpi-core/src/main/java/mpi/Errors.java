package mpi;

import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;

/**
 * Turns an internal {@link MpiError} into what the user sees, according to the error handler in force: under
 * {@code MPI.ERRORS_RETURN} an {@link MPIException} to throw; under {@code MPI.ERRORS_ARE_FATAL} (the default)
 * and {@code MPI.ERRORS_ABORT} one line on standard error naming the call, the error and the rank, then the end
 * of the job.
 */
final class Errors {
    private Errors() {}

    /**
     * @param handler the error handler in force (null: the default, fatal)
     * @param call the MPI name of the call, e.g. {@code MPI_Send}
     * @return the exception to throw (only under ERRORS_RETURN or before Init; otherwise this does not return)
     */
    static MPIException raise(Errhandler handler, String call, MpiError e) {
        String text = call + ": " + e.getMessage() + " (" + ErrorClass.name(e.errorClass()) + ")";
        JmpiRuntime rt = JmpiRuntime.current();
        if (handler == MPI.ERRORS_RETURN || rt == null || e.isStateError()) {
            MPIException x = new MPIException(e.errorClass(), text);
            if (e.getCause() != null) {
                x.initCause(e.getCause());
            }
            return x;
        }
        String line = "jmpi: rank " + rt.rank() + ": " + text;
        System.out.flush();
        System.err.println(line);
        System.err.flush();
        int code = e.errorClass() > 0 && e.errorClass() < 256 ? e.errorClass() : 1;
        rt.abort(code, line);
        throw new IllegalStateException("unreachable: abort returned");
    }

    /** For calls not tied to a communicator: MPI_COMM_WORLD's handler applies. */
    static MPIException raise(String call, MpiError e) {
        return raise(MPI.COMM_WORLD.errhandler, call, e);
    }

    /** For a failed MPIException-free argument check. */
    static MpiError error(int errorClass, String message) {
        return new MpiError(errorClass, message);
    }
}
