package org.jmpi.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/** Turns the JDK's I/O exceptions into MPI error classes, as ROMIO maps {@code errno} values. */
final class IoErrors {
    private IoErrors() {}

    /** The MPI error for an I/O failure while doing {@code what} on {@code path}. */
    static MpiError of(IOException e, String what, String path) {
        String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e instanceof FileSystemException fse && fse.getReason() != null) {
            reason = fse.getReason();
        }
        return new MpiError(classOf(e), what + " " + path + ": " + reason, e);
    }

    static int classOf(IOException e) {
        if (e instanceof NoSuchFileException || e instanceof NotDirectoryException) {
            return ErrorClass.ERR_NO_SUCH_FILE;
        }
        if (e instanceof FileAlreadyExistsException) {
            return ErrorClass.ERR_FILE_EXISTS;
        }
        if (e instanceof AccessDeniedException) {
            return ErrorClass.ERR_ACCESS;
        }
        String text = e instanceof FileSystemException fse && fse.getReason() != null ? fse.getReason()
                : String.valueOf(e.getMessage());
        String m = text.toLowerCase(Locale.ROOT);
        if (m.contains("no space left")) {
            return ErrorClass.ERR_NO_SPACE;
        }
        if (m.contains("quota")) {
            return ErrorClass.ERR_QUOTA;
        }
        if (m.contains("read-only file system")) {
            return ErrorClass.ERR_READ_ONLY;
        }
        if (m.contains("permission denied") || m.contains("operation not permitted") || m.contains("is a directory")) {
            return ErrorClass.ERR_ACCESS;
        }
        if (m.contains("no such file")) {
            return ErrorClass.ERR_NO_SUCH_FILE;
        }
        return ErrorClass.ERR_IO;
    }
}
