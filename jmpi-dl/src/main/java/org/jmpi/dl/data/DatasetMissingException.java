package org.jmpi.dl.data;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The data files of a data set are not where they were looked for. The message names the directory, the files that
 * are missing, and how to get them; {@link #directory()} gives the directory to callers that want to say it their way.
 */
public final class DatasetMissingException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path directory;

    /**
     * @param directory the directory that was searched
     * @param message   the whole message, naming the directory and the remedy
     */
    public DatasetMissingException(Path directory, String message) {
        super(message);
        this.directory = directory;
    }

    /** @return the directory that was searched (null after deserialisation) */
    public Path directory() {
        return directory;
    }
}
