package org.jmpi.dl;

import java.io.Serial;

/**
 * A tensor could not be reduced: the ranks submitted it with different shapes, element types, operations or
 * compressions; it stalled past {@link ReducerOptions#stallShutdown()}; the reducer was closed; or the MPI library
 * failed underneath (then the {@link mpi.MPIException} is the cause). The futures of the tensors concerned complete
 * exceptionally with it; nothing hangs.
 */
public final class ReducerException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    public ReducerException(String message) {
        super(message);
    }

    public ReducerException(String message, Throwable cause) {
        super(message, cause);
    }
}
