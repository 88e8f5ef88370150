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
