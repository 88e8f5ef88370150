package org.jmpi.bootstrap;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A short string that is equal for two processes exactly when they can share memory and loopback: same kernel boot
 * ({@code /proc/sys/kernel/random/boot_id}), same network namespace (the inode of {@code /proc/self/ns/net}) and
 * same host name. The host name alone is not enough: network namespaces used as test "hosts" share it, and so do
 * containers started from one image.
 *
 * <p>The value is the first 24 hex digits of a SHA-256 over those three parts, so it fits any key-value space.
 *
 * <p>Threading: stateless; the value is computed once per class loader.
 */
public final class HostIdentity {
    private static final String VALUE = compute();

    private HostIdentity() {}

    /** This process's host identity. */
    public static String get() {
        return VALUE;
    }

    private static String compute() {
        String host = read(Path.of("/proc/sys/kernel/hostname"));
        if (host.isEmpty()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                host = "localhost";
            }
        }
        String raw = host + "|" + read(Path.of("/proc/sys/kernel/random/boot_id")) + "|" + netNamespace();
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(raw.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p).trim();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static String netNamespace() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
