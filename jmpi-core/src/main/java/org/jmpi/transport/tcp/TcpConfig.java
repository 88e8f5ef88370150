package org.jmpi.transport.tcp;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The TCP transport's parameters. Read in this one place ({@link #fromEnvironment()}) from system properties
 * ({@code jmpi.tcp.*}) or, when a property is absent, from the environment (the property name in upper case with
 * dots as underscores: {@code jmpi.tcp.host} is {@code JMPI_TCP_HOST}). Sizes accept the suffixes k, m, g (binary).
 *
 * @param host where to listen: an IP address, a host name, a network interface name ("eth0"), or "*" for every
 *     interface (the business card then names the first non-loopback IPv4 address). Default {@code 127.0.0.1},
 *     which is right only when the whole job runs on one host. ({@code jmpi.tcp.host})
 * @param port the listening port; 0 picks a free one. ({@code jmpi.tcp.port})
 * @param socketSendBuffer SO_SNDBUF of every connection in bytes; 0 leaves the operating system's default (and its
 *     autotuning), as does a size above the system's limit for it (Linux: {@code net.core.wmem_max}; see
 *     {@link #sendBufferToSet()}). ({@code jmpi.tcp.socket.send.buffer})
 * @param socketReceiveBuffer SO_RCVBUF of every connection in bytes; 0 or a size above the system's limit
 *     ({@code net.core.rmem_max}) leaves the system default. ({@code jmpi.tcp.socket.receive.buffer})
 * @param writeBuffer per-connection direct buffer into which outgoing frames are copied before a write, larger
 *     payloads piece by piece. ({@code jmpi.tcp.write.buffer})
 * @param readBuffer initial size of the per-connection direct read buffer; it grows to the largest frame seen.
 *     ({@code jmpi.tcp.read.buffer})
 * @param maxFrame largest payload a frame may carry; a longer one is a protocol error that drops the peer.
 *     ({@code jmpi.tcp.max.frame})
 * @param eagerLimit messages to a rank reached over TCP up to this many bytes are sent eagerly (no rendezvous
 *     handshake, a round trip, first); the engine's {@code jmpi.eager.limit} stays for the other transports.
 *     ({@code jmpi.tcp.eager.limit})
 * @param chunkBytes larger messages travel in data frames of at most this many bytes, each written from the sender's
 *     memory and read into the receiver's; the engine's {@code jmpi.chunk.bytes} stays for the other transports.
 *     ({@code jmpi.tcp.chunk.bytes})
 * @param secret a job secret every connection must present in its hello; may be empty. Read from
 *     {@code jmpi.secret} / {@code JMPI_SECRET}.
 */
public record TcpConfig(
        String host,
        int port,
        int socketSendBuffer,
        int socketReceiveBuffer,
        int writeBuffer,
        int readBuffer,
        int maxFrame,
        int eagerLimit,
        int chunkBytes,
        String secret) {

    static final String HOST = "jmpi.tcp.host";
    static final String PORT = "jmpi.tcp.port";
    static final String SOCKET_SEND_BUFFER = "jmpi.tcp.socket.send.buffer";
    static final String SOCKET_RECEIVE_BUFFER = "jmpi.tcp.socket.receive.buffer";
    static final String WRITE_BUFFER = "jmpi.tcp.write.buffer";
    static final String READ_BUFFER = "jmpi.tcp.read.buffer";
    static final String MAX_FRAME = "jmpi.tcp.max.frame";
    static final String EAGER_LIMIT = "jmpi.tcp.eager.limit";
    static final String CHUNK_BYTES = "jmpi.tcp.chunk.bytes";
    static final String SECRET = "jmpi.secret";

    /** Validates every field. */
    public TcpConfig {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException(HOST + " must not be empty");
        }
        check(PORT, port, 0, 65535);
        check(SOCKET_SEND_BUFFER, socketSendBuffer, 0, 1 << 30);
        check(SOCKET_RECEIVE_BUFFER, socketReceiveBuffer, 0, 1 << 30);
        check(WRITE_BUFFER, writeBuffer, 4096, 1 << 30);
        check(READ_BUFFER, readBuffer, 4096, 1 << 30);
        check(MAX_FRAME, maxFrame, 0, Integer.MAX_VALUE - 1024);
        check(EAGER_LIMIT, eagerLimit, 0, 1 << 30);
        check(CHUNK_BYTES, chunkBytes, 4096, 1 << 30);
        if (secret == null) {
            secret = "";
        }
        if (secret.getBytes(StandardCharsets.UTF_8).length > TcpLayout.MAX_SECRET_BYTES) {
            throw new IllegalArgumentException(SECRET + " is longer than " + TcpLayout.MAX_SECRET_BYTES + " bytes");
        }
    }

    /** Loopback only, OS-chosen port, 4 MiB socket buffers where the system allows them, no secret. */
    public static TcpConfig defaults() {
        return new TcpConfig("127.0.0.1", 0, 4 << 20, 4 << 20, 128 << 10, 128 << 10, 64 << 20, 512 << 10, 512 << 10,
                "");
    }

    /** The configuration given by system properties and environment, on top of {@link #defaults()}. */
    public static TcpConfig fromEnvironment() {
        return from(System::getProperty, System::getenv);
    }

    /** The same as {@link #fromEnvironment()} with explicit lookups (for tests). */
    static TcpConfig from(UnaryOperator<String> properties, UnaryOperator<String> environment) {
        Params p = new Params(properties, environment);
        TcpConfig d = defaults();
        return new TcpConfig(
                p.string(HOST, d.host),
                p.size(PORT, d.port),
                p.size(SOCKET_SEND_BUFFER, d.socketSendBuffer),
                p.size(SOCKET_RECEIVE_BUFFER, d.socketReceiveBuffer),
                p.size(WRITE_BUFFER, d.writeBuffer),
                p.size(READ_BUFFER, d.readBuffer),
                p.size(MAX_FRAME, d.maxFrame),
                p.size(EAGER_LIMIT, d.eagerLimit),
                p.size(CHUNK_BYTES, d.chunkBytes),
                p.secret(SECRET, d.secret));
    }

    /** This configuration with another secret. */
    public TcpConfig withSecret(String newSecret) {
        return new TcpConfig(host, port, socketSendBuffer, socketReceiveBuffer, writeBuffer, readBuffer, maxFrame,
                eagerLimit, chunkBytes, newSecret);
    }

    /** This configuration with another listening host. */
    public TcpConfig withHost(String newHost) {
        return new TcpConfig(newHost, port, socketSendBuffer, socketReceiveBuffer, writeBuffer, readBuffer, maxFrame,
                eagerLimit, chunkBytes, secret);
    }

    /**
     * SO_SNDBUF to set on a connection, or 0 to leave the system's buffer: {@link #socketSendBuffer()} unless the
     * system would cap it. Linux caps a requested size at {@code net.core.wmem_max} and stops growing a buffer that was
     * set; left alone, the buffer grows with the connection's needs up to {@code net.ipv4.tcp_wmem}'s maximum (4 MiB by
     * default), above the cap (208 KiB by default). On two network namespaces with the default caps, a ping-pong with
     * 4 MiB asked for (and 208 KiB given) took 185 us one way at 512 KiB and 346 at 1 MiB, against 104 and 262 with the
     * system's buffers (Open MPI Java 109 and 288; OMB-J, ungated, 2026-11-30).
     */
    public int sendBufferToSet() {
        return settable(socketSendBuffer, SystemLimits.WMEM_MAX);
    }

    /** SO_RCVBUF to set, or 0: as {@link #sendBufferToSet()}, against {@code net.core.rmem_max}. */
    public int receiveBufferToSet() {
        return settable(socketReceiveBuffer, SystemLimits.RMEM_MAX);
    }

    /** {@code requested}, or 0 when it is 0 or above {@code limit} (the system's cap for it; negative: unknown). */
    static int settable(int requested, long limit) {
        return requested > 0 && (limit < 0 || requested <= limit) ? requested : 0;
    }

    /** The system's caps on the socket buffer sizes a program may set, read once; -1 where unknown. */
    private static final class SystemLimits {
        static final long WMEM_MAX = read("/proc/sys/net/core/wmem_max");
        static final long RMEM_MAX = read("/proc/sys/net/core/rmem_max");

        private static long read(String file) {
            try {
                return Long.parseLong(java.nio.file.Files.readString(java.nio.file.Path.of(file)).trim());
            } catch (java.io.IOException | NumberFormatException | SecurityException e) {
                return -1;
            }
        }
    }

    /** Every parameter with its value, for {@code jmpirun --info}; the secret is not shown. */
    public Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(HOST, host);
        m.put(PORT, Integer.toString(port));
        m.put(SOCKET_SEND_BUFFER, Integer.toString(socketSendBuffer));
        m.put(SOCKET_RECEIVE_BUFFER, Integer.toString(socketReceiveBuffer));
        m.put(WRITE_BUFFER, Integer.toString(writeBuffer));
        m.put(READ_BUFFER, Integer.toString(readBuffer));
        m.put(MAX_FRAME, Integer.toString(maxFrame));
        m.put(EAGER_LIMIT, Integer.toString(eagerLimit));
        m.put(CHUNK_BYTES, Integer.toString(chunkBytes));
        m.put(SECRET, secret.isEmpty() ? "(empty)" : "(set)");
        return m;
    }

    @Override
    public String toString() {
        return "TcpConfig" + describe();
    }

    private static void check(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + "=" + value + " is out of range [" + min + ", " + max + "]");
        }
    }

    private record Params(UnaryOperator<String> properties, UnaryOperator<String> environment) {
        String raw(String property) {
            String v = properties.apply(property);
            if (v == null) {
                v = environment.apply(property.toUpperCase(Locale.ROOT).replace('.', '_'));
            }
            return v;
        }

        String string(String property, String dflt) {
            String v = raw(property);
            return v == null ? dflt : v.trim();
        }

        String secret(String property, String dflt) {
            String v = raw(property);
            return v == null ? dflt : v;
        }

        int size(String property, int dflt) {
            String v = raw(property);
            if (v == null || v.isBlank()) {
                return dflt;
            }
            String s = v.trim().toLowerCase(Locale.ROOT);
            long mul = 1;
            char last = s.charAt(s.length() - 1);
            if (last == 'k' || last == 'm' || last == 'g') {
                mul = last == 'k' ? 1L << 10 : last == 'm' ? 1L << 20 : 1L << 30;
                s = s.substring(0, s.length() - 1);
            }
            long x;
            try {
                x = Math.multiplyExact(Long.parseLong(s), mul);
            } catch (NumberFormatException | ArithmeticException e) {
                throw new IllegalArgumentException("parameter " + property + "=" + v + " is not a size", e);
            }
            if (x < Integer.MIN_VALUE || x > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("parameter " + property + "=" + v + " is too large");
            }
            return (int) x;
        }
    }
}
