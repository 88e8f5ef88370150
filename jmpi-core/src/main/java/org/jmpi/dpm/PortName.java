package org.jmpi.dpm;

import java.util.HexFormat;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * A port name: {@code jmpi-port:<host>:<tcp port>:<token>}, where the token is 128 random bits in hex. The name is
 * the capability: a connect must present the token, and a port's owner closes any connection that does not. An IPv6
 * host is written in brackets.
 *
 * @param host the address the port listens on
 * @param port the TCP port
 * @param token the port's secret (16 bytes)
 */
public record PortName(String host, int port, byte[] token) {
    static final String PREFIX = "jmpi-port:";
    static final int TOKEN_BYTES = 16;

    /** The printable name. */
    public String format() {
        return PREFIX + host + ":" + port + ":" + HexFormat.of().formatHex(token);
    }

    /**
     * Parses a port name.
     *
     * @throws MpiError ERR_PORT when {@code name} is not a jmpi port name
     */
    public static PortName parse(String name) {
        if (name == null || !name.startsWith(PREFIX)) {
            throw malformed(name);
        }
        String rest = name.substring(PREFIX.length()).trim();
        int t = rest.lastIndexOf(':');
        int p = t > 0 ? rest.lastIndexOf(':', t - 1) : -1;
        if (p <= 0) {
            throw malformed(name);
        }
        try {
            String host = rest.substring(0, p);
            int port = Integer.parseInt(rest.substring(p + 1, t));
            byte[] token = HexFormat.of().parseHex(rest.substring(t + 1));
            if (port <= 0 || port > 65535 || token.length != TOKEN_BYTES || host.isEmpty()) {
                throw malformed(name);
            }
            return new PortName(host, port, token);
        } catch (IllegalArgumentException e) {
            throw malformed(name);
        }
    }

    /** The host without IPv6 brackets. */
    String bareHost() {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    private static MpiError malformed(String name) {
        return new MpiError(ErrorClass.ERR_PORT, "'" + name + "' is not a port name (made by MPI_Open_port: "
                + PREFIX + "host:port:token)");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PortName n && n.host.equals(host) && n.port == port
                && java.util.Arrays.equals(n.token, token);
    }

    @Override
    public int hashCode() {
        return host.hashCode() * 31 + port;
    }

    @Override
    public String toString() {
        return format();
    }
}
