package org.jmpi.launcher.hosts;

import java.io.Serial;

/** A host list, hostfile or placement request that jmpirun cannot understand: jmpirun stops rather than guess. */
public final class HostListException extends Exception {
    @Serial
    private static final long serialVersionUID = 1L;

    public HostListException(String message) {
        super(message);
    }

    public HostListException(String message, Throwable cause) {
        super(message, cause);
    }
}
