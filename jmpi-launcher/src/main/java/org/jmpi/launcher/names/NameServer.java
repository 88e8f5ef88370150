package org.jmpi.launcher.names;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jmpi.runtime.ErrorClass;

/**
 * A name service for MPI_Publish_name / MPI_Lookup_name / MPI_Unpublish_name (the role of Open MPI's ompi-server and
 * MPICH's hydra_nameserver). Its address, {@code host:port:token}, is what clients get in {@code JMPI_NAMESERVER}; a
 * request that does not carry the token is closed unanswered. Protocol: see {@code org.jmpi.dpm.NameServiceClient}.
 *
 * <p>Rules: a service name is published once (a second publish is ERR_SERVICE until it is unpublished); unpublish
 * must name the published port (else ERR_SERVICE); lookup of an unknown service is ERR_NAME. Names live as long as
 * the server.
 *
 * <p>Threading: one acceptor thread; each request is served on a virtual thread; the table is a concurrent map and
 * publish/unpublish are atomic map operations.
 */
public final class NameServer implements AutoCloseable {
    private static final String MAGIC = "jmpi-ns/1";
    private static final int READ_TIMEOUT_MILLIS = 10_000;

    private final ServerSocket server;
    private final String token;
    private final Map<String, String> names = new ConcurrentHashMap<>();
    private final Thread acceptor;
    private volatile boolean closed;

    private NameServer(ServerSocket server, String token) {
        this.server = server;
        this.token = token;
        this.acceptor = Thread.ofPlatform().daemon().name("jmpi-nameserver").unstarted(this::acceptLoop);
    }

    /** Listens on {@code address} (null: every interface) and {@code port} (0: any) and starts serving. */
    public static NameServer start(InetAddress address, int port) throws IOException {
        ServerSocket s = new ServerSocket();
        try {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(address, port), 64);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        byte[] t = org.jmpi.bootstrap.Secrets.randomBytes(16);
        NameServer ns = new NameServer(s, HexFormat.of().formatHex(t));
        ns.acceptor.start();
        return ns;
    }

    /** The address clients need: {@code host:port:token}. */
    public String address() {
        InetAddress a = server.getInetAddress();
        String host;
        if (a.isAnyLocalAddress()) {
            try {
                host = InetAddress.getLocalHost().getHostAddress();
            } catch (IOException e) {
                host = "127.0.0.1";
            }
        } else {
            host = a.getHostAddress();
        }
        if (host.indexOf(':') >= 0) {
            host = "[" + host + "]";
        }
        return host + ":" + server.getLocalPort() + ":" + token;
    }

    /** Names published now (for tests and the server's log). */
    public Map<String, String> published() {
        return Map.copyOf(names);
    }

    private void acceptLoop() {
        while (!closed) {
            Socket c;
            try {
                c = server.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                continue;
            }
            Thread.ofVirtual().name("jmpi-nameserver-request").start(() -> serve(c));
        }
    }

    private void serve(Socket c) {
        try (c) {
            c.setSoTimeout(READ_TIMEOUT_MILLIS);
            String line = new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            if (line == null) {
                return;
            }
            String[] f = line.split(" ");
            if (f.length < 4 || !f[0].equals(MAGIC)
                    || !MessageDigest.isEqual(dec(f[1]).getBytes(StandardCharsets.UTF_8),
                            token.getBytes(StandardCharsets.UTF_8))) {
                return;
            }
            String answer = answer(f[2], dec(f[3]), f.length > 4 ? dec(f[4]) : null);
            OutputStream out = c.getOutputStream();
            out.write((answer + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException | IllegalArgumentException e) {
            // a broken request: nothing to answer
        }
    }

    /** The answer line to one request. */
    String answer(String verb, String service, String port) {
        switch (verb) {
            case "publish" -> {
                if (port == null) {
                    return err(ErrorClass.ERR_ARG, "publish without a port name");
                }
                String before = names.putIfAbsent(service, port);
                return before == null ? "ok" : err(ErrorClass.ERR_SERVICE, "service '" + service
                        + "' is published already");
            }
            case "unpublish" -> {
                if (port == null || !names.remove(service, port)) {
                    return err(ErrorClass.ERR_SERVICE, "service '" + service + "' is not published"
                            + (names.containsKey(service) ? " with that port" : ""));
                }
                return "ok";
            }
            case "lookup" -> {
                String p = names.get(service);
                return p != null ? "ok " + enc(p) : err(ErrorClass.ERR_NAME, "no service '" + service
                        + "' is published");
            }
            default -> {
                return err(ErrorClass.ERR_ARG, "unknown request '" + verb + "'");
            }
        }
    }

    private static String err(int errorClass, String message) {
        return "err " + errorClass + " " + enc(message);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String dec(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
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
