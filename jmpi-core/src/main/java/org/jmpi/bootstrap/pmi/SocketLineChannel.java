package org.jmpi.bootstrap.pmi;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Lines over a TCP connection ({@code PMI_PORT}, {@code JMPI_KVS}).
 *
 * <p>A daemon thread reads the socket ahead of the caller into a {@link PumpedInput}, so that the end of the
 * connection is seen even while the rank makes no PMI call (a Java socket offers no way to wait for the peer's close
 * without reading). The bytes a server sends are bounded by the protocol (one reply per request, a few pushed lines),
 * so the buffer stays small; a server that floods it stops being read at {@link PumpedInput#LIMIT} bytes.
 *
 * <p>Threading: not thread-safe for callers ({@link Pmi1Bootstrap} serialises them); the reader thread and the caller
 * meet only in {@link PumpedInput}.
 */
final class SocketLineChannel implements LineChannel {
    private final Socket socket;
    private final PumpedInput in;
    private final OutputStream out;
    private volatile boolean closed;

    SocketLineChannel(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new PumpedInput(new BufferedInputStream(socket.getInputStream()));
        this.out = socket.getOutputStream();
        Thread.ofPlatform().daemon().name("jmpi-pmi-reader").start(in::pump);
    }

    /** Connects to {@code host:port} (the last colon splits, so bracket-less IPv6 literals also work). */
    static SocketLineChannel connect(String hostPort, int connectTimeoutMillis) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new IOException("PMI_PORT must be host:port, not '" + hostPort + "'");
        }
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IOException("PMI_PORT must be host:port, not '" + hostPort + "'", e);
        }
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(host, port), connectTimeoutMillis);
            return new SocketLineChannel(s);
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    @Override
    public void writeLine(String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    @Override
    public String readLine() throws IOException {
        return readLine(in);
    }

    @Override
    public void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    @Override
    public byte[] readExactly(int n) throws IOException {
        byte[] b = in.readNBytes(n);
        if (b.length == 0 && n > 0) {
            return null;
        }
        if (b.length < n) {
            throw new IOException("the PMI server closed the connection in the middle of a message");
        }
        return b;
    }

    /** Whether bytes can be read without blocking (used by the failure-notice reader only). */
    int available() throws IOException {
        return in.available();
    }

    /** Reads bytes up to a newline; returns null at end of stream before any byte; ignores a trailing CR. */
    static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(128);
        while (true) {
            int b = in.read();
            if (b < 0) {
                return buf.size() == 0 ? null : buf.toString(StandardCharsets.US_ASCII);
            }
            if (b == '\n') {
                String s = buf.toString(StandardCharsets.US_ASCII);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            if (buf.size() >= MAX_LINE) {
                throw new IOException("PMI server sent a line longer than " + MAX_LINE + " bytes");
            }
            buf.write(b);
        }
    }

    @Override
    public void watchEnd(Runnable onEnd) {
        in.onEnd(() -> {
            if (!closed) {
                onEnd.run();
            }
        });
    }

    @Override
    public void close() throws IOException {
        closed = true;
        socket.close();
    }
}
