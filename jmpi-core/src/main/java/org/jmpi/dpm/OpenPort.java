package org.jmpi.dpm;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.MessageDigest;
import java.util.function.BooleanSupplier;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * A port opened by MPI_Open_port: a listening socket on the address this rank's TCP transport uses, and the token
 * its name carries. {@link #acceptOne} waits for a connector that presents the token; anything else is closed with a
 * note on standard error and the wait goes on.
 *
 * <p>Threading: {@link #close} may be called from any thread and makes a concurrent {@link #acceptOne} fail with
 * ERR_PORT; one thread accepts at a time (the port's monitor).
 */
final class OpenPort implements AutoCloseable {
    /**
     * How often a waiting accept looks at {@code giveUp} and at whether the port was closed, and runs its progress
     * pass (see {@link #acceptOne}).
     */
    private static final int POLL_MILLIS = Wire.SLICE_MILLIS;

    private final ServerSocket server;
    private final PortName name;
    private volatile boolean closed;

    private OpenPort(ServerSocket server, PortName name) {
        this.server = server;
        this.name = name;
    }

    /** Listens on {@code host} (an address of this host) on an ephemeral port. */
    static OpenPort open(String host) {
        ServerSocket s = null;
        try {
            s = new ServerSocket();
            s.bind(new InetSocketAddress(InetAddress.getByName(host), 0), 64);
            s.setSoTimeout(POLL_MILLIS);
            byte[] token = org.jmpi.bootstrap.Secrets.randomBytes(PortName.TOKEN_BYTES);
            String shown = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
            return new OpenPort(s, new PortName(shown, s.getLocalPort(), token));
        } catch (IOException e) {
            if (s != null) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
            throw new MpiError(ErrorClass.ERR_PORT, "cannot open a port on " + host + ": " + e.getMessage(), e);
        }
    }

    /** A connection that presented the token, and its wire (which may hold bytes read ahead). */
    record Accepted(Socket socket, Wire wire) {}

    PortName name() {
        return name;
    }

    boolean isClosed() {
        return closed;
    }

    /**
     * Waits for a connector that presents this port's token and returns its connection (magic and token read).
     * While it waits it runs {@code progress} every {@link #POLL_MILLIS}: the accepting rank is in an MPI call, which
     * must keep the rank's other traffic moving (a message it sent just before, on a connection still being made,
     * may be what the connector waits for before it connects; an unfinished connection is dropped by its other end
     * after 10 s).
     *
     * @param giveUp polled while waiting; when it says true the wait ends with ERR_SPAWN (spawn: the launcher died)
     * @param progress one non-blocking progress pass of this rank
     * @throws MpiError ERR_PORT when the port is or gets closed
     */
    synchronized Accepted acceptOne(BooleanSupplier giveUp, Runnable progress) {
        while (true) {
            if (closed) {
                throw new MpiError(ErrorClass.ERR_PORT, "port " + name.format() + " is closed");
            }
            if (giveUp.getAsBoolean()) {
                throw new MpiError(ErrorClass.ERR_SPAWN, "the spawned processes ended before they connected");
            }
            progress.run();
            Socket c;
            try {
                c = server.accept();
            } catch (SocketTimeoutException e) {
                continue;
            } catch (IOException e) {
                if (closed) {
                    continue;
                }
                throw new MpiError(ErrorClass.ERR_PORT, "accept on port " + name.format() + " failed: " + e, e);
            }
            try {
                c.setSoTimeout(Wire.HANDSHAKE_MILLIS);
                c.setTcpNoDelay(true);
                Wire w = new Wire(c);
                String magic = w.readString();
                byte[] token = w.readBytes();
                if (Wire.MAGIC.equals(magic) && MessageDigest.isEqual(token, name.token())) {
                    return new Accepted(c, w);
                }
                System.err.println("jmpi: refused a connection to port " + name.host() + ":" + name.port() + " from "
                        + c.getRemoteSocketAddress() + ": wrong port token");
            } catch (IOException e) {
                System.err.println("jmpi: refused a connection to port " + name.host() + ":" + name.port() + " from "
                        + c.getRemoteSocketAddress() + ": " + e.getMessage());
            }
            try {
                c.close();
            } catch (IOException ignored) {
                // refused anyway
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closed anyway
        }
    }
}
