package org.jmpi.bootstrap.pmi;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;

/**
 * An input stream filled by a reader thread ({@link #pump()}) from another stream, so that the end of that stream is
 * noticed while nobody reads: {@link #onEnd} runs once when it comes.
 *
 * <p>Threading: one thread runs {@link #pump()}, one (at a time) reads; they meet under the object's monitor.
 */
final class PumpedInput extends InputStream {
    /** Bytes read ahead at most; the reader thread waits for the consumer beyond this. */
    static final int LIMIT = 1 << 20;

    private final InputStream source;
    private final ArrayDeque<byte[]> chunks = new ArrayDeque<>();
    private int headPos;
    private int buffered;
    private boolean ended;
    private IOException failure;
    private Runnable onEnd;
    private boolean endReported;

    PumpedInput(InputStream source) {
        this.source = source;
    }

    /** The reader thread's loop; returns at the end of the source (or its failure). */
    void pump() {
        byte[] buf = new byte[8192];
        IOException err = null;
        try {
            while (true) {
                int n = source.read(buf);
                if (n < 0) {
                    break;
                }
                synchronized (this) {
                    while (buffered >= LIMIT) {
                        wait();
                    }
                    byte[] c = new byte[n];
                    System.arraycopy(buf, 0, c, 0, n);
                    chunks.add(c);
                    buffered += n;
                    notifyAll();
                }
            }
        } catch (IOException e) {
            err = e;
        } catch (InterruptedException e) {
            err = new IOException("interrupted");
        }
        Runnable r;
        synchronized (this) {
            ended = true;
            failure = err;
            notifyAll();
            r = takeEndAction();
        }
        if (r != null) {
            r.run();
        }
    }

    /** Runs {@code action} once at the end of the source (at once, in a new daemon thread, if it has ended). */
    void onEnd(Runnable action) {
        Runnable r;
        synchronized (this) {
            onEnd = action;
            r = ended ? takeEndAction() : null;
        }
        if (r != null) {
            Thread.ofPlatform().daemon().name("jmpi-pmi-end").start(r);
        }
    }

    private Runnable takeEndAction() {
        if (onEnd == null || endReported) {
            return null;
        }
        endReported = true;
        return onEnd;
    }

    @Override
    public synchronized int read() throws IOException {
        if (!awaitData()) {
            return -1;
        }
        byte[] c = chunks.peek();
        int b = c[headPos++] & 0xff;
        consumed(c, 1);
        return b;
    }

    @Override
    public synchronized int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!awaitData()) {
            return -1;
        }
        byte[] c = chunks.peek();
        int n = Math.min(len, c.length - headPos);
        System.arraycopy(c, headPos, b, off, n);
        headPos += n;
        consumed(c, n);
        return n;
    }

    @Override
    public synchronized int available() {
        return buffered;
    }

    private void consumed(byte[] c, int n) {
        buffered -= n;
        if (headPos == c.length) {
            chunks.poll();
            headPos = 0;
        }
        notifyAll();
    }

    /** Waits for a byte; false at the end. Throws what the source threw once the buffered bytes are read. */
    private boolean awaitData() throws IOException {
        while (chunks.isEmpty()) {
            if (ended) {
                if (failure != null) {
                    throw new IOException(failure.getMessage(), failure);
                }
                return false;
            }
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the PMI server");
            }
        }
        return true;
    }
}
