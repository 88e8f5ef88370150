package org.jmpi.bootstrap.pmi;

import java.io.IOException;

/**
 * A bidirectional stream of ASCII lines (PMI-1) or length-prefixed frames (PMI-2) to a PMI server. Not thread-safe: {@link Pmi1Bootstrap} holds its lock
 * around every request and reply.
 */
interface LineChannel extends AutoCloseable {
    /** Longest line accepted from a server; longer ones are a protocol error (real servers stop at 1024). */
    int MAX_LINE = 64 * 1024;

    /** Sends one line; the newline is added here. */
    void writeLine(String line) throws IOException;

    /** The next line without its newline, or null at end of stream. */
    String readLine() throws IOException;

    /** Sends bytes as they are (PMI-2 frames). */
    void write(byte[] bytes) throws IOException;

    /** Exactly {@code n} bytes (after any buffered ones), or null at end of stream before the first byte. */
    byte[] readExactly(int n) throws IOException;

    /**
     * Starts watching for the server's end of the connection: {@code onEnd} runs once, from a daemon thread, when
     * the server closed it (or it broke) while this side had not closed it. Pending unread bytes do not delay it.
     */
    void watchEnd(Runnable onEnd);

    /**
     * Ends the connection from another thread, so that a read blocked on it returns (end of stream or an error):
     * the way out of a request whose answer does not come ({@link FinalizeDeadline}). Default: {@link #close()}.
     */
    default void abandon() throws IOException {
        close();
    }

    @Override
    void close() throws IOException;
}
