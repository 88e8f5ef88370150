package org.jmpi.junit;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.jmpi.launcher.LaunchResult;
import org.jmpi.launcher.Launcher;

/**
 * A JDK class cache ({@code -XX:AOTCache}, JDK 25) for the rank JVMs of {@link Mode#PROCESSES}, made once per test JVM
 * by a two-rank training job that runs {@link RankTraining} with {@code -XX:AOTCacheOutput}. A rank JVM with it starts
 * in about half the CPU time (a 4-rank job: 0.7 s instead of 1.4 s of CPU on this project's machines), and a test run
 * starts many hundred of them.
 *
 * <p>The JDK makes a cache only from a class path of jars: a non-empty directory on it is refused. The rank class path
 * of a Maven build has directories (the module's {@code target/classes} and {@code target/test-classes}), so the
 * cache is trained on the class path's jars alone, and a rank that uses it gets the jars first and the directories
 * after them (a class path that starts with the training one is what the JDK accepts). A class that is both in a
 * directory and in a jar would then come from the jar; a Maven test class path has no such class.
 *
 * <p>No cache, and ranks start as before, when: {@code -Djmpi.junit.classCache=false}; the JDK is older than 25; the
 * harness is not loaded from a jar (jmpi-junit's own build); an option of the rank JVMs, {@code JAVA_TOOL_OPTIONS} or
 * {@code JDK_JAVA_OPTIONS} is one the launcher's rule ({@link Launcher#classCacheCompatible}) rejects; or the training
 * job fails (said once on stderr). The cache is a temporary file, deleted when the test JVM exits.
 *
 * <p>Threading: {@link #forRanks} is synchronized; the training job runs in the first caller's thread.
 */
final class RankClassCache {
    /** The JUnit configuration parameter (system property) that turns the cache off with {@code false}. */
    static final String SWITCH = "jmpi.junit.classCache";
    private static final Duration TRAINING_TIMEOUT = Duration.ofSeconds(120);

    private static boolean tried;
    private static Path cache;

    private RankClassCache() {}

    /** The class path and extra JVM options of a rank JVM started with {@code jvmArgs}. */
    record Use(List<String> classpath, List<String> options) {}

    static synchronized Use forRanks(List<String> jvmArgs) {
        List<String> classpath = RankClassPath.forProcesses();
        if (!Launcher.classCacheCompatible(jvmArgs)) {
            return new Use(classpath, List.of());
        }
        if (!tried) {
            tried = true;
            cache = make(jars(classpath));
        }
        if (cache == null) {
            return new Use(classpath, List.of());
        }
        List<String> ordered = new ArrayList<>(jars(classpath));
        for (String e : classpath) {
            if (!isJar(e)) {
                ordered.add(e);
            }
        }
        return new Use(ordered, List.of("-XX:AOTCache=" + cache, "-Xlog:aot=off"));
    }

    private static List<String> jars(List<String> classpath) {
        return classpath.stream().filter(RankClassCache::isJar).toList();
    }

    private static boolean isJar(String entry) {
        return entry.endsWith(".jar") && new File(entry).isFile();
    }

    /** Trains and returns the cache, or null (see the class comment). */
    private static Path make(List<String> jars) {
        if ("false".equalsIgnoreCase(System.getProperty(SWITCH)) || Runtime.version().feature() < 25
                || jars.isEmpty() || !environmentCompatible()) {
            return null;
        }
        Path own = RankClassPath.ownLocation();
        if (own == null || !own.toString().endsWith(".jar") || !jars.contains(own.toString())) {
            return null;
        }
        Path dir = null;
        try {
            dir = Files.createTempDirectory("jmpi-junit-classes");
            deleteOnExit(dir);
            Path cwd = Files.createDirectory(dir.resolve("cwd"));
            List<String> options = new ArrayList<>(ProcessesRunner.jvmArgs(List.of()));
            options.add("-XX:AOTCacheOutput=" + dir.resolve("rank%p.aot"));
            RankTask task = new RankTask(RankTraining.class.getName(), RankTraining.class.getName(), "exercise", false,
                    true);
            List<String> args = new ArrayList<>();
            args.add("2");
            args.addAll(task.toArgs());
            RankOutput output = new RankOutput(2);
            Launcher launcher = Launcher.builder()
                    .ranks(2)
                    .classpath(jars.stream().map(Path::of).toList())
                    .mainClass(RankMain.class.getName())
                    .args(args)
                    .jvmArgs(options)
                    .workingDirectory(cwd)
                    .timeout(TRAINING_TIMEOUT.plusSeconds(30))
                    .output(output::line)
                    .build();
            try (Launcher.Job job = launcher.start()) {
                Optional<LaunchResult> result = job.await(TRAINING_TIMEOUT);
                if (result.isEmpty()) {
                    job.kill();
                    job.await();
                    return none("the training job did not end in " + TRAINING_TIMEOUT.toSeconds() + " s", output);
                }
                if (!result.get().succeeded()) {
                    return none("the training job failed: " + result.get().summary(), output);
                }
            }
            Path best;
            try (Stream<Path> files = Files.list(dir)) {
                best = files.filter(p -> p.getFileName().toString().endsWith(".aot"))
                        .max(Comparator.comparingLong(RankClassCache::size)).orElse(null);
            }
            if (best == null || size(best) == 0) {
                return none("the training job made no cache", output);
            }
            return best;
        } catch (IOException | RuntimeException e) {
            return none("the training job could not run: " + e, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return none("interrupted", null);
        }
    }

    private static boolean environmentCompatible() {
        for (String name : new String[] {"JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS"}) {
            String v = System.getenv(name);
            if (v != null && !v.isBlank() && !Launcher.classCacheCompatible(List.of(v.trim().split("\\s+")))) {
                return false;
            }
        }
        return true;
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0;
        }
    }

    private static Path none(String why, RankOutput output) {
        System.err.println("jmpi-junit: rank JVMs start without a class cache: " + why
                + (output == null || output.text().isBlank() ? "" : "; its output:\n" + output.text()));
        return null;
    }

    /** Deletes {@code dir} and what is in it when this JVM exits. */
    private static void deleteOnExit(Path dir) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (Stream<Path> all = Files.walk(dir)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // a temporary directory; nothing else to do at exit
            }
        }, "jmpi-junit-class-cache-cleanup"));
    }
}
