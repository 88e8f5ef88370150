package org.jmpi.bootstrap.pmi;

import java.io.Serial;

/** The process manager refused a request, broke the protocol, or went away. Unchecked: a rank cannot recover. */
public final class PmiException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    public PmiException(String message) {
        super(message);
    }

    public PmiException(String message, Throwable cause) {
        super(message, cause);
    }
}
