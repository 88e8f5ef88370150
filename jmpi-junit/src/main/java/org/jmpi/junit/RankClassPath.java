package org.jmpi.junit;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The class path of ranks: the test JVM's {@code java.class.path}, entry by entry. Under Maven Surefire this is
 * complete only with {@code useManifestOnlyJar=false}; with a manifest-only jar it is that one jar, whose
 * {@code Class-Path} the JDK's class loaders (and {@code java -cp}) follow, so it still works.
 */
final class RankClassPath {
    private RankClassPath() {}

    /** Every entry of {@code java.class.path}, as absolute paths, in order. */
    static List<Path> entries() {
        String cp = System.getProperty("java.class.path", "");
        List<Path> out = new ArrayList<>();
        for (String e : cp.split(File.pathSeparator)) {
            if (!e.isBlank()) {
                out.add(Path.of(e).toAbsolutePath().normalize());
            }
        }
        return out;
    }

    /**
     * The class path of a threads-mode rank loader: every entry but the one holding jmpi-junit, so that the
     * extension's types are loaded once, by the test's loader, and are the same for JUnit and every rank.
     */
    static URL[] forThreads() {
        Path own = ownLocation();
        List<URL> urls = new ArrayList<>();
        for (Path p : entries()) {
            if (p.equals(own)) {
                continue;
            }
            try {
                urls.add(p.toUri().toURL());
            } catch (MalformedURLException e) {
                throw new IllegalStateException("class path entry " + p, e);
            }
        }
        return urls.toArray(URL[]::new);
    }

    /** The class path of a processes-mode rank JVM: the whole of {@code java.class.path}. */
    static List<String> forProcesses() {
        return entries().stream().map(Path::toString).toList();
    }

    /** The jar or directory jmpi-junit was loaded from, or null if that cannot be told. */
    static Path ownLocation() {
        try {
            return org.jmpi.shared.CodeLocation.of(RankClassPath.class).toAbsolutePath().normalize();
        } catch (IllegalStateException e) {
            return null;
        }
    }
}
