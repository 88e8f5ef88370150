package org.jmpi.ft;

import mpi.MPIException;
import org.jmpi.runtime.MpiError;

/**
 * The {@code MPIException}s of this package. Package {@code mpi} gives no public way to make an exception of a chosen
 * error class but through the cause it wraps, so the class travels in an {@code MpiError}, as it does from the
 * library's internals.
 */
final class Errors {
    private Errors() {}

    /** An exception of {@code errorClass} (an {@code MPI.ERR_*} value) with {@code message}. */
    static MPIException of(int errorClass, String message) {
        MpiError carrier = new MpiError(errorClass, message);
        carrier.setStackTrace(new StackTraceElement[0]); // the exception's own trace says where; the carrier only why
        return new MPIException(carrier);
    }

    /** The same, caused by {@code cause}. */
    static MPIException of(int errorClass, String message, Throwable cause) {
        return new MPIException(new MpiError(errorClass, message, cause));
    }
}
