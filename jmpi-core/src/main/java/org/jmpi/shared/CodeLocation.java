package org.jmpi.shared;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * Where a class's class file is: the jar, or the directory at the root of its package tree, as the class loader's
 * class path says now.
 *
 * <p>Why not the class's {@code CodeSource}: a class loaded from a JDK class cache ({@code -XX:AOTCache}, see
 * docs/launching.md, "Start-up") keeps the code source of the place where the cache was made. A copy of the
 * distribution, moved or unpacked elsewhere, would then name the original's jars (its launcher would hand them to
 * its ranks as their jmpi), or nothing at all once the original is gone. The class loader's resources come from the
 * class path the JVM was started with.
 */
public final class CodeLocation {
    private CodeLocation() {}

    /**
     * The jar or class directory {@code c} was loaded from.
     *
     * @throws IllegalStateException when neither the class loader nor the code source can tell
     */
    public static Path of(Class<?> c) {
        String resource = c.getName().replace('.', '/') + ".class";
        ClassLoader loader = c.getClassLoader();
        URL url = loader == null ? ClassLoader.getSystemResource(resource) : loader.getResource(resource);
        if (url != null) {
            Path p = fromResource(url, resource);
            if (p != null) {
                return p;
            }
        }
        CodeSource cs = c.getProtectionDomain().getCodeSource();
        if (cs == null || cs.getLocation() == null) {
            throw new IllegalStateException("cannot tell where " + c.getName() + " was loaded from");
        }
        try {
            return Path.of(cs.getLocation().toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot tell where " + c.getName() + " was loaded from: "
                    + cs.getLocation(), e);
        }
    }

    /** The jar of a {@code jar:file:...!/resource} URL, or the root of a {@code file:.../resource} one; else null. */
    static Path fromResource(URL url, String resource) {
        try {
            String s = url.toString();
            if (url.getProtocol().equals("jar")) {
                int bang = s.indexOf("!/");
                if (bang < 0) {
                    return null;
                }
                URI jar = new URI(s.substring("jar:".length(), bang));
                return jar.getScheme() != null && jar.getScheme().equals("file") ? Path.of(jar) : null;
            }
            if (url.getProtocol().equals("file") && s.endsWith("/" + resource)) {
                return Path.of(new URI(s.substring(0, s.length() - resource.length())));
            }
            return null;
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }
}
