package org.jmpi.dpm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * Client of a jmpi name service (MPI_Publish_name, MPI_Lookup_name, MPI_Unpublish_name): jmpirun's own, which it
 * names to its ranks in {@code JMPI_NAMESERVER}, or a standalone {@code jmpi-nameserver} that several jobs share
 * (set {@code JMPI_NAMESERVER} to the address it prints, or pass {@code jmpirun --nameserver ADDRESS}). The address is
 * {@code host:port:token}; the token is the capability to use the server, since published port names are
 * capabilities themselves.
 *
 * <p>Protocol: one request line per connection, {@code jmpi-ns/1 <token> publish|unpublish|lookup <service>
 * [<port>]}, fields URL-encoded; one answer line, {@code ok [<port>]} or {@code err <error class> <message>}.
 * Requests time out after 10 s (ERR_NAME for a lookup, ERR_SERVICE otherwise).
 *
 * <p>Threading: immutable; each call opens its own connection.
 */
public final class NameServiceClient {
    /** Protocol version tag, first field of a request. */
    public static final String MAGIC = "jmpi-ns/1";
    private static final int TIMEOUT_MILLIS = 10_000;

    private final String host;
    private final int port;
    private final String token;

    private NameServiceClient(String host, int port, String token) {
        this.host = host;
        this.port = port;
        this.token = token;
    }

    /**
     * The client of the name service named by {@code jmpi.nameserver} / {@code JMPI_NAMESERVER}.
     *
     * @throws MpiError ERR_NAME when none is named or the address is malformed
     */
    public static NameServiceClient fromEnvironment() {
        String a = System.getProperty("jmpi.nameserver", System.getenv("JMPI_NAMESERVER"));
        if (a == null || a.isBlank()) {
            throw new MpiError(ErrorClass.ERR_NAME, "no name service: run under jmpirun, or start jmpi-nameserver "
                    + "and set JMPI_NAMESERVER to the address it prints");
        }
        return parse(a.trim());
    }

    static NameServiceClient parse(String address) {
        int t = address.lastIndexOf(':');
        int p = t > 0 ? address.lastIndexOf(':', t - 1) : -1;
        try {
            if (p <= 0) {
                throw new NumberFormatException();
            }
            String host = address.substring(0, p);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            return new NameServiceClient(host, Integer.parseInt(address.substring(p + 1, t)),
                    address.substring(t + 1));
        } catch (NumberFormatException e) {
            throw new MpiError(ErrorClass.ERR_NAME, "JMPI_NAMESERVER=" + address + " is not host:port:token");
        }
    }

    /** MPI_Publish_name; ERR_SERVICE when the service is published already. */
    public void publish(String service, String portName) {
        check(service, portName);
        request(ErrorClass.ERR_SERVICE, "publish", service, portName);
    }

    /** MPI_Unpublish_name; ERR_SERVICE when the service is not published (with this port). */
    public void unpublish(String service, String portName) {
        check(service, portName);
        request(ErrorClass.ERR_SERVICE, "unpublish", service, portName);
    }

    /** MPI_Lookup_name; ERR_NAME when nothing is published under {@code service}. */
    public String lookup(String service) {
        check(service, "-");
        return request(ErrorClass.ERR_NAME, "lookup", service, null);
    }

    private static void check(String service, String portName) {
        if (service == null || service.isEmpty()) {
            throw new MpiError(ErrorClass.ERR_ARG, "the service name is empty");
        }
        if (portName == null || portName.isEmpty()) {
            throw new MpiError(ErrorClass.ERR_ARG, "the port name is empty");
        }
    }

    private String request(int errorClass, String verb, String service, String portName) {
        String line = MAGIC + " " + enc(token) + " " + verb + " " + enc(service)
                + (portName == null ? "" : " " + enc(portName)) + "\n";
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            s.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = s.getOutputStream();
            out.write(line.getBytes(StandardCharsets.UTF_8));
            out.flush();
            String answer = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            if (answer == null) {
                throw new IOException("the name server closed the connection (wrong token?)");
            }
            if (answer.equals("ok")) {
                return null;
            }
            if (answer.startsWith("ok ")) {
                return dec(answer.substring(3));
            }
            if (answer.startsWith("err ")) {
                String[] f = answer.split(" ", 3);
                int cls = Integer.parseInt(f[1]);
                throw new MpiError(cls, f.length > 2 ? dec(f[2]) : "name service error");
            }
            throw new IOException("unexpected answer '" + answer + "'");
        } catch (IOException | NumberFormatException e) {
            throw new MpiError(errorClass, "name service at " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static String dec(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
