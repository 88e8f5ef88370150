package mpi;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the project root (the directory holding the parent {@code pom.xml} and {@code jmpi-core}). */
final class ProjectDir {
    private ProjectDir() {}

    /**
     * The project root: system property {@code jmpi.projectDir} (set by the surefire configuration of jmpi-core)
     * when it points at the root, else the first directory at or above the working directory that has both
     * {@code pom.xml} and {@code jmpi-core/pom.xml}.
     */
    static Path get() {
        String property = System.getProperty("jmpi.projectDir");
        if (property != null && !property.isBlank() && isRoot(Path.of(property))) {
            return Path.of(property).toAbsolutePath().normalize();
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (isRoot(p)) {
                return p.normalize();
            }
        }
        throw new IllegalStateException("cannot find the project root: set -Djmpi.projectDir=<root> (working"
                + " directory " + Path.of("").toAbsolutePath() + ")");
    }

    private static boolean isRoot(Path p) {
        return Files.isRegularFile(p.resolve("pom.xml")) && Files.isRegularFile(p.resolve("jmpi-core/pom.xml"));
    }
}
