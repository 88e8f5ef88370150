package org.jmpi.io;

import org.jmpi.runtime.Progress;
import org.jmpi.runtime.RequestImpl;

/**
 * The request of a non-blocking or split-collective file access; the file's worker thread completes it with the
 * bytes moved or the error met.
 *
 * <p>Threading: the fields are set by the worker before {@link #complete()} publishes them.
 */
public final class IoRequest extends RequestImpl {
    IoRequest(Progress progress) {
        super(progress);
    }

    void finish(long moved, int errorClass, String message) {
        bytes = moved;
        error = errorClass;
        errorMessage = message;
        complete();
    }
}
