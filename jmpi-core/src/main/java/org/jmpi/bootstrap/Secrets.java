package org.jmpi.bootstrap;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.SecureRandom;

/**
 * Random bytes for secrets and tokens (the job secret, port and name-service tokens). On Linux they come straight
 * from {@code /dev/urandom}, the kernel's cryptographic generator (what the JDK's default {@code SecureRandom} reads
 * there too); elsewhere, or when it cannot be read, from a {@link SecureRandom}. Setting up a {@code SecureRandom}
 * (security providers and properties) cost jmpirun 7 ms of CPU at every start.
 *
 * <p>Threading: stateless.
 */
public final class Secrets {
    private Secrets() {}

    /** {@code n} random bytes. */
    public static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        try (InputStream in = new FileInputStream("/dev/urandom")) {
            int off = 0;
            while (off < n) {
                int r = in.read(b, off, n - off);
                if (r < 0) {
                    throw new IOException("end of /dev/urandom");
                }
                off += r;
            }
            return b;
        } catch (IOException | SecurityException e) {
            new SecureRandom().nextBytes(b);
            return b;
        }
    }
}
