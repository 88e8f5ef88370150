package org.jmpi.dpm;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.ProtocolException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The conversation of two roots over a port's connection (blocking, big-endian, every block length-prefixed):
 *
 * <pre>
 * connector -&gt; acceptor: string "jmpi-dpm/1", bytes port token, string group table
 * acceptor -&gt; connector: string "ok", bytes link token, string group table
 * then, per context-id agreement round, each way: long count, longs (the group's AND of its bitmaps)
 * </pre>
 *
 * <p>A group table is one {@link ProcessTable.Identity} line per rank, in rank order. The acceptor closes a
 * connection whose magic or token is wrong without answering.
 *
 * <p>Threading: one thread at a time (the root's).
 */
final class Wire {
    static final String MAGIC = "jmpi-dpm/1";
    static final String OK = "ok";
    /** Read timeout of the handshake's steps: a silent partner fails the connect/accept after this long. */
    static final int HANDSHAKE_MILLIS = 30_000;
    private static final int MAX_BLOCK = 64 << 20;

    private final DataInputStream in;
    private final DataOutputStream out;

    Wire(Socket s) throws IOException {
        in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
        out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
    }

    void writeBytes(byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    void writeString(String s) throws IOException {
        writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    void writeLongs(long[] v) throws IOException {
        out.writeInt(v.length);
        for (long x : v) {
            out.writeLong(x);
        }
    }

    void flush() throws IOException {
        out.flush();
    }

    /** How long one look at the socket lasts while {@link #awaitInput} waits, between two progress passes. */
    static final int SLICE_MILLIS = 10;

    /**
     * Waits until the partner's next block has begun to arrive (or the connection ended), at most
     * {@code timeoutMillis}, running {@code progress} every {@link #SLICE_MILLIS}: a root waiting here is in an MPI
     * call and must keep its rank's other traffic moving, as every blocking call does (a message it sent just before
     * may still need its connection finished). The block itself is then read with the socket's own timeout.
     *
     * @throws java.net.SocketTimeoutException when nothing came within {@code timeoutMillis}
     */
    void awaitInput(Socket s, int timeoutMillis, Runnable progress) throws IOException {
        int saved = s.getSoTimeout();
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        s.setSoTimeout(SLICE_MILLIS);
        try {
            while (true) {
                in.mark(1);
                try {
                    in.read(); // -1 at the end of the stream: the read that follows reports it
                    in.reset();
                    return;
                } catch (java.net.SocketTimeoutException e) {
                    if (System.nanoTime() - deadline > 0) {
                        throw e;
                    }
                    progress.run();
                }
            }
        } finally {
            s.setSoTimeout(saved);
        }
    }

    byte[] readBytes() throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_BLOCK) {
            throw new ProtocolException("block of " + n + " bytes");
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    String readString() throws IOException {
        return new String(readBytes(), StandardCharsets.UTF_8);
    }

    long[] readLongs(int expected) throws IOException {
        int n = in.readInt();
        if (n != expected) {
            throw new ProtocolException("expected " + expected + " longs, got " + n);
        }
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = in.readLong();
        }
        return v;
    }
}
