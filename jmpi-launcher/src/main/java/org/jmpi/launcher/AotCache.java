package org.jmpi.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The ranks' class cache of a distribution ({@code lib/aot/jmpi-rank.aot}, a JDK 25 AOT cache made by the build from a
 * training run; see {@code jmpi-dist/src/build/aot-caches.sh} and docs/tuning.md; {@code jmpi-rank-mpj.aot} for
 * ranks of the MPJ Express API, whose class path has {@code lib/jmpi-mpj.jar} instead), and when a rank may use it.
 *
 * <p>The JVM checks little of a cache's origin: it maps the classes of the training run's class path whatever class
 * path the rank has, and a cache it does refuse (another JDK, incompatible options) leaves the JVM without even the
 * JDK's own class data, slower than no cache. So the launcher decides, and passes the cache only when all of this
 * holds:
 * <ul>
 *   <li>{@code lib/aot/stamp} names the JDK of the rank's {@code java} (its home, real path, and the version in its
 *       {@code release} file) and the size and time of every jar it lists, as they are now;</li>
 *   <li>no option of the rank's JVM (its arguments, {@code JAVA_TOOL_OPTIONS}, {@code JDK_JAVA_OPTIONS}) is one that
 *       makes the JVM refuse the cache or that changes what it would hold: another cache or CDS setting, module
 *       options, agents ({@code -javaagent}, as {@code --tool} adds), a heap of 32 GiB or more, ZGC, uncompressed or
 *       compact object headers;</li>
 *   <li>the rank's class path brings no other copy of jmpi ({@code jmpi-core*.jar}, an MPJ jar other than the
 *       distribution's), whose classes the cache would silently replace;</li>
 *   <li>{@code JMPI_AOT} is not {@code 0}.</li>
 * </ul>
 * The options added are {@code -XX:AOTCache=<file> -Xlog:aot=off} (the second keeps a refusal silent, e.g. on another
 * host whose JDK differs).
 *
 * <p>Threading: the stamp checks are cached per {@code java} in a concurrent map.
 */
final class AotCache {
    /** The environment variable that turns the caches off with {@code 0}. */
    static final String SWITCH = "JMPI_AOT";
    static final String RANK_CACHE = "jmpi-rank.aot";
    /** The cache of ranks that run the MPJ Express API, from {@code lib/jmpi-mpj.jar} ({@code jmpirun --api mpj}). */
    static final String MPJ_RANK_CACHE = "jmpi-rank-mpj.aot";
    private static final String MPJ_JAR = "jmpi-mpj.jar";
    private static final long LARGE_HEAP = 32L << 30;
    private static final Map<Path, Boolean> VALID = new ConcurrentHashMap<>();

    private AotCache() {}

    /**
     * The cache options for a rank JVM, or none (see the class comment). {@code mpjApi}: the rank runs the MPJ
     * Express API (its class path has the distribution's jmpi-mpj.jar instead of jmpi-core's jar).
     */
    static List<String> rankOptions(Path java, List<String> jvmArgs, Map<String, String> rankEnv,
            List<Path> userClassPath, boolean mpjApi) {
        Path dir = directory();
        if (dir == null || "0".equals(value(SWITCH, rankEnv)) || !compatible(jvmArgs)
                || !compatible(words(value("JAVA_TOOL_OPTIONS", rankEnv)))
                || !compatible(words(value("JDK_JAVA_OPTIONS", rankEnv)))) {
            return List.of();
        }
        String cache = RANK_CACHE;
        for (Path p : userClassPath) {
            String name = p.getFileName() == null ? "" : p.getFileName().toString();
            if (mpjApi && isDistributionMpjJar(p, dir)) {
                cache = MPJ_RANK_CACHE; // --api mpj: this distribution's jmpi-mpj.jar, whose cache is its own
            } else if (name.startsWith("jmpi-core") || name.startsWith("jmpi-mpj") || name.equals("mpj.jar")) {
                // the caches hold the distribution's classes: not for another copy of them
                return List.of();
            }
        }
        if (!Files.isRegularFile(dir.resolve(cache)) || !VALID.computeIfAbsent(java, j -> stampHolds(dir, j))) {
            return List.of();
        }
        return List.of("-XX:AOTCache=" + dir.resolve(cache), "-Xlog:aot=off");
    }

    /** The cache of jmpirun's own JVM ({@code bin/jmpirun}), which also serves the proxies on other hosts. */
    static final String LAUNCHER_CACHE = "jmpi-launcher.aot";

    /**
     * The JVM options and class path of a proxy on another host ({@code ProxyMain}) started with
     * {@code javaExecutable}: the launcher's class cache, made by the build for jmpirun's JVM, whose class path and
     * module options the proxy then takes as they are ({@code lib/jmpi-launcher.jar}, {@code lib/jmpi-core.jar},
     * {@code lib/picocli.jar}, native access for the unnamed module; a cache made with other ones is refused, and with
     * it the JDK's own class data). Empty when the rules of the class comment do not hold here ({@code JMPI_AOT=0}, no
     * cache, a stamp that does not name its JDK or these jars): remote hosts have the same paths as this one
     * (docs/launching.md), so what holds here holds there; a host whose JDK differs all the same refuses the cache and
     * starts the proxy without it. With it a proxy starts its ranks some 40 ms sooner (its classes come mapped and
     * linked).
     */
    static List<String> proxyOptions(Path javaExecutable) {
        Path dir = directory();
        if (dir == null || "0".equals(System.getenv(SWITCH)) || !Files.isRegularFile(dir.resolve(LAUNCHER_CACHE))) {
            return List.of();
        }
        Path lib = dir.getParent();
        List<String> cp = new ArrayList<>();
        for (String jar : List.of("jmpi-launcher.jar", "jmpi-core.jar", "picocli.jar")) {
            Path p = lib.resolve(jar);
            if (!Files.isRegularFile(p)) {
                return List.of();
            }
            cp.add(p.toString());
        }
        if (!VALID.computeIfAbsent(javaExecutable, j -> stampHolds(dir, j))) {
            return List.of();
        }
        return List.of("-XX:AOTCache=" + dir.resolve(LAUNCHER_CACHE), "-Xlog:aot=off",
                "--enable-native-access=ALL-UNNAMED", "-cp", String.join(java.io.File.pathSeparator, cp));
    }

    /** Whether {@code p} is {@code lib/jmpi-mpj.jar} of the distribution whose caches are in {@code dir}. */
    private static boolean isDistributionMpjJar(Path p, Path dir) {
        Path lib = dir.getParent();
        return lib != null && p.toAbsolutePath().normalize().equals(lib.resolve(MPJ_JAR).toAbsolutePath().normalize());
    }

    /** {@code lib/aot} beside the jmpi-core jar of this launcher, or null (a development build has none). */
    static Path directory() {
        Path core = Launcher.jmpiClassPath().get(0);
        Path lib = core.getParent();
        if (lib == null || !core.getFileName().toString().endsWith(".jar")) {
            return null;
        }
        Path dir = lib.resolve("aot");
        return Files.isRegularFile(dir.resolve(RANK_CACHE)) && Files.isRegularFile(dir.resolve("stamp")) ? dir : null;
    }

    /** The rank's setting of {@code name}: its own environment first, else the launcher's. */
    private static String value(String name, Map<String, String> rankEnv) {
        String v = rankEnv.get(name);
        return v != null ? v : System.getenv(name);
    }

    private static List<String> words(String s) {
        return s == null || s.isBlank() ? List.of() : List.of(s.trim().split("\\s+"));
    }

    /** False when one of {@code options} makes the JVM refuse the cache or changes what it holds. */
    static boolean compatible(List<String> options) {
        for (String o : options) {
            if (o.startsWith("-XX:AOT") || o.startsWith("-XX:SharedArchiveFile") || o.startsWith("-Xshare")
                    || o.startsWith("-XX:+AutoCreateSharedArchive") || o.startsWith("-XX:ArchiveClassesAtExit")
                    || o.equals("-XX:+UseZGC") || o.startsWith("-XX:-UseCompressed")
                    || o.equals("-XX:+UseCompactObjectHeaders") || o.startsWith("-XX:ObjectAlignmentInBytes")
                    || o.startsWith("--add-") || o.startsWith("--patch-module") || o.startsWith("--limit-modules")
                    || o.startsWith("--upgrade-module-path") || o.equals("-p") || o.startsWith("--module-path")
                    || o.startsWith("-javaagent:") || o.startsWith("-agentlib:") || o.startsWith("-agentpath:")
                    || o.startsWith("-XX:StartFlightRecording") || o.startsWith("-XX:FlightRecorderOptions")
                    || (o.startsWith("--enable-native-access") && !o.equals("--enable-native-access=ALL-UNNAMED"))
                    || largeHeap(o)) {
                return false;
            }
        }
        return true;
    }

    /** {@code -Xmx<size>} or {@code -XX:MaxHeapSize=<size>} of 32 GiB or more (no compressed references). */
    static boolean largeHeap(String o) {
        String size;
        if (o.startsWith("-Xmx")) {
            size = o.substring(4);
        } else if (o.startsWith("-XX:MaxHeapSize=")) {
            size = o.substring("-XX:MaxHeapSize=".length());
        } else {
            return false;
        }
        try {
            return bytes(size) >= LARGE_HEAP;
        } catch (NumberFormatException e) {
            return true; // the JVM will say what is wrong with it; no cache meanwhile
        }
    }

    private static long bytes(String size) {
        String s = size.toLowerCase(Locale.ROOT);
        long unit = 1;
        char last = s.isEmpty() ? ' ' : s.charAt(s.length() - 1);
        switch (last) {
            case 'k' -> unit = 1L << 10;
            case 'm' -> unit = 1L << 20;
            case 'g' -> unit = 1L << 30;
            case 't' -> unit = 1L << 40;
            default -> unit = 1;
        }
        String digits = unit == 1 ? s : s.substring(0, s.length() - 1);
        long n = Long.parseLong(digits);
        return n > Long.MAX_VALUE / unit ? Long.MAX_VALUE : n * unit;
    }

    /** Whether {@code dir/stamp} names the JDK of {@code java} and the jars as they are now. */
    static boolean stampHolds(Path dir, Path java) {
        Properties stamp = new Properties();
        try (var in = Files.newBufferedReader(dir.resolve("stamp"))) {
            stamp.load(in);
            Path home = java.toRealPath().getParent().getParent();
            if (home == null || !home.toString().equals(stamp.getProperty("java.home"))) {
                return false;
            }
            if (!releaseVersion(home).equals(stamp.getProperty("java.version"))) {
                return false;
            }
            List<String> jars = new ArrayList<>();
            for (String key : stamp.stringPropertyNames()) {
                if (key.startsWith("jar.")) {
                    jars.add(key);
                }
            }
            Path lib = dir.getParent();
            for (String key : jars) {
                Path jar = lib.resolve(key.substring(4));
                String now = Files.size(jar) + ":" + Files.getLastModifiedTime(jar).to(TimeUnit.SECONDS);
                if (!now.equals(stamp.getProperty(key))) {
                    return false;
                }
            }
            return !jars.isEmpty();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** {@code JAVA_RUNTIME_VERSION} of the JDK's release file, or "" when it has none. */
    private static String releaseVersion(Path home) throws IOException {
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release)) {
            return "";
        }
        for (String line : Files.readAllLines(release)) {
            if (line.startsWith("JAVA_RUNTIME_VERSION=")) {
                String v = line.substring("JAVA_RUNTIME_VERSION=".length()).trim();
                return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
            }
        }
        return "";
    }
}
