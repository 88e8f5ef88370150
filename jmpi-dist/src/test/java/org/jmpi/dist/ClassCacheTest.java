package org.jmpi.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class caches of the laid-out distribution (lib/aot): made by the build, used by jmpirun's JVM and by every rank
 * when they apply, and left out, silently and with a working job, when they do not (turned off, a jar changed, an
 * option the JVM would refuse them with). Whether a JVM used its cache is asked of the JVM itself
 * ({@code -Xlog:aot=info} after jmpirun's own {@code -Xlog:aot=off}).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ClassCacheTest {
    private static final Pattern USED = Pattern.compile("Using AOT-linked classes: true");
    private static Path dist;

    @BeforeAll
    static void distribution() {
        dist = Path.of(System.getProperty("jmpi.dist", "target/jmpi")).toAbsolutePath();
        assumeTrue(Files.isRegularFile(dist.resolve("bin/jmpirun")), "no laid-out distribution at " + dist);
    }

    private record Run(int exit, String output) {
        long cachesUsed() {
            Matcher m = USED.matcher(output);
            long n = 0;
            while (m.find()) {
                n++;
            }
            return n;
        }
    }

    /** Runs {@code home/bin/jmpirun args} with the launcher and the ranks logging whether they use a cache. */
    private static Run jmpirun(Path home, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(home.resolve("bin/jmpirun").toString(), "--no-stdin", "--jvm-arg",
                "-Xlog:aot=info"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("JMPI_AOT");
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        // the launcher's own options as jmpirun chooses them for processes mode, plus the log
        pb.environment().put("JMPI_LAUNCHER_JVM_ARGS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xlog:aot=info");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("jmpirun ended").isTrue();
        return new Run(p.exitValue(), out);
    }

    private static void assertHello(Run r, int ranks) {
        assertThat(r.exit()).as(r.output()).isZero();
        for (int i = 0; i < ranks; i++) {
            assertThat(r.output()).contains("Hello from rank " + i + " of " + ranks);
        }
        assertThat(r.output()).as("no complaint about a cache").doesNotContainIgnoringCase("warning")
                .doesNotContain("[error");
    }

    /** The tiers at which {@code -XX:+PrintCompilation} in {@code output} says {@code method} was compiled. */
    private static List<String> levels(String output, String method) {
        Matcher m = Pattern.compile("(?m)^\\s*\\d+\\s+\\d+\\s+[%sbn! ]*([0-4])\\s+" + Pattern.quote(method) + " ")
                .matcher(output);
        List<String> levels = new ArrayList<>();
        while (m.find()) {
            levels.add(m.group(1));
        }
        return levels;
    }

    @Test
    void theBuildMadeBothCachesAndTheirStamp() throws IOException {
        Path aot = dist.resolve("lib/aot");
        assumeTrue(Files.isDirectory(aot), "this JDK made no cache (see the build's aot-caches output)");
        assertThat(aot.resolve("jmpi-launcher.aot")).isNotEmptyFile();
        assertThat(aot.resolve("jmpi-launcher-threads.aot")).isNotEmptyFile();
        assertThat(aot.resolve("jmpi-rank.aot")).isNotEmptyFile();
        assertThat(aot.resolve("jmpi-rank-mpj.aot")).isNotEmptyFile();
        assertThat(Files.readString(aot.resolve("stamp"))).contains("java.home=", "java.version=",
                "jar.jmpi-core.jar=", "jar.jmpi-launcher.jar=", "jar.jmpi-mpj.jar=");
    }

    /**
     * Ranks of the MPJ Express API ({@code --api mpj}: lib/jmpi-mpj.jar instead of jmpi-core's jar) use a cache of
     * their own, made from the same workload through that API; with jmpi-core's they would get none, or the wrong
     * classes.
     */
    @Test
    void ranksOfTheMpjApiUseTheirOwnCache(@TempDir Path tmp) throws Exception {
        assumeTrue(Files.isDirectory(dist.resolve("lib/aot")), "no caches");
        Run r = jmpirun(dist, Map.of(), "--api", "mpj", "-n", "2", "-cp", dist.resolve("lib/jmpi-mpj.jar").toString(),
                "org.jmpi.mpj.AotTraining", tmp.resolve("pid").toString(), "3");
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).contains("training rank 0 of 2", "training rank 1 of 2");
        // both ranks' (the launcher has none with --api mpj: see bin/jmpirun)
        assertThat(r.cachesUsed()).as(r.output()).isEqualTo(2);
        Run off = jmpirun(dist, Map.of("JMPI_AOT", "0"), "--api", "mpj", "-n", "2", "-cp",
                dist.resolve("lib/jmpi-mpj.jar").toString(), "org.jmpi.mpj.AotTraining", tmp.resolve("pid").toString(),
                "3");
        assertThat(off.exit()).as(off.output()).isZero();
        assertThat(off.cachesUsed()).as(off.output()).isZero();
    }

    @Test
    void theLauncherAndEveryRankUseTheirCache() throws Exception {
        assumeTrue(Files.isDirectory(dist.resolve("lib/aot")), "no caches");
        Run r = jmpirun(dist, Map.of(), "-n", "3", "org.jmpi.examples.Hello");
        assertHello(r, 3);
        assertThat(r.cachesUsed()).as(r.output()).isEqualTo(4);
    }

    /**
     * With {@code --threads} the ranks run in jmpirun's JVM, which then loads the message path they share: its cache is
     * the one trained by a threads-mode job, not the processes-mode launcher's.
     */
    @Test
    void aThreadsModeJobUsesTheLaunchersThreadsCache() throws Exception {
        assumeTrue(Files.isDirectory(dist.resolve("lib/aot")), "no caches");
        Run r = jmpirun(dist, Map.of("JMPI_LAUNCHER_JVM_ARGS", "-XX:+UseSerialGC -Xlog:aot=info"), "--threads", "-n",
                "3", "org.jmpi.examples.Hello");
        assertHello(r, 3);
        assertThat(r.cachesUsed()).as(r.output()).isEqualTo(1);
        assertThat(r.output()).contains("jmpi-launcher-threads.aot").doesNotContain("jmpi-launcher.aot");
    }

    /**
     * The threads-mode cache holds training data, as the ranks' cache does: a message-path method that the training
     * job made hot (the lane's send) is compiled once, with C1's final tier (level 1), never first with C1's full
     * profiling (level 3) as it is without training data.
     */
    @Test
    void aThreadsModeJobCompilesTheTrainedMessagePathOnceWithC1(@TempDir Path tmp) throws Exception {
        assumeTrue(Files.isDirectory(dist.resolve("lib/aot")), "no caches");
        Run r = jmpirun(dist, Map.of("JMPI_LAUNCHER_JVM_ARGS", "-XX:+UseSerialGC -XX:+PrintCompilation"), "--threads",
                "-n", "2", "org.jmpi.examples.AotTraining", tmp.resolve("pid").toString());
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(levels(r.output(), "org.jmpi.transport.shm.ShmTransport::sendShort")).as(r.output()).contains("1")
                .doesNotContain("3");
    }

    /**
     * The ranks' cache is trained across two hosts too (src/build/aot-caches.sh): in a job whose ranks are on two
     * hosts, TCP's lane send is compiled once, with C1's final tier, as shared memory's is. The second host is this
     * machine, reached through a launch agent that runs the command here (jmpirun takes it for another host because of
     * its name, an address that is never contacted).
     */
    @Test
    void aJobAcrossHostsCompilesTcpsTrainedLaneOnceWithC1(@TempDir Path tmp) throws Exception {
        assumeTrue(Files.isDirectory(dist.resolve("lib/aot")), "no caches");
        Path agent = tmp.resolve("agent");
        Files.writeString(agent, "#!/bin/sh\nexec /bin/sh -c \"$2\"\n"); // the host, then one shell command
        assertThat(agent.toFile().setExecutable(true)).isTrue();
        Run r = jmpirun(dist, Map.of(), "-n", "3", "-H", "localhost:2,198.51.100.7:1", "--launcher-exec",
                agent.toString(), "--jvm-arg", "-XX:+PrintCompilation", "org.jmpi.examples.AotTraining",
                tmp.resolve("pid").toString(), "100");
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).contains("training rank 2 of 3");
        assertThat(levels(r.output(), "org.jmpi.transport.tcp.TcpConnection::laneSend")).as(r.output())
                .contains("1").doesNotContain("3");
    }

    /**
     * The proxy that jmpirun starts on another host (through ssh) uses the launcher's cache too: that host has the same
     * paths as this one. Its JVM's class path and options must be those the cache was made with, else the JVM refuses
     * it, and the JDK's own class data with it, without a word ({@code -Xlog:aot=off}).
     */
    @Test
    void aProxyOnAnotherHostUsesTheLaunchersCache(@TempDir Path tmp) throws Exception {
        assumeTrue(Files.isDirectory(dist.resolve("lib/aot")), "no caches");
        Path log = tmp.resolve("proxy-aot.log");
        Path agent = tmp.resolve("agent");
        // an ssh stand-in: drops the host name and runs the command here, the proxy JVM's cache log into a file
        Files.writeString(agent, "#!/bin/sh\nshift\nexec sh -c \"$(printf '%s' \"$1\" | sed "
                + "'s|-Xlog:aot=off|-Xlog:aot=info:file=" + log + "|')\"\n");
        assertThat(agent.toFile().setExecutable(true)).isTrue();
        Run r = jmpirun(dist, Map.of(), "--no-autofork", "--launcher-exec", agent.toString(), "-H", "localhost:2",
                "-n", "2", "org.jmpi.examples.Hello");
        assertHello(r, 2);
        assertThat(log).as(r.output()).exists();
        assertThat(Files.readString(log)).contains("jmpi-launcher.aot").containsPattern(USED.pattern())
                .doesNotContain("[error");
    }

    /** Open MPI's idiom, {@code mpirun -np N java ... Main}: its ranks use the cache as jmpirun's own form's do. */
    @Test
    void theRanksOfAJavaCommandUseTheirCacheToo() throws Exception {
        assumeTrue(Files.isDirectory(dist.resolve("lib/aot")), "no caches");
        Run r = jmpirun(dist, Map.of(), "-n", "2", "java", "-Xlog:aot=info", "-cp",
                dist.resolve("lib/jmpi-examples.jar").toString(), "org.jmpi.examples.Hello");
        assertHello(r, 2);
        assertThat(r.cachesUsed()).as(r.output()).isEqualTo(3);
    }

    /**
     * The ranks' cache records which of jmpi's methods the training run compiled (with C1 alone), so a rank compiles
     * them once, with C1's final tier, instead of first with full profiling (tier 3) and then again without (C2 does
     * not take them, see JitHints). Without the record a ping-pong compiles more of them at tier 3 than at tier 1.
     */
    @Test
    void jmpisMethodsAreCompiledOnceWithC1sFinalTier() throws Exception {
        assumeTrue(Files.isDirectory(dist.resolve("lib/aot")), "no caches");
        Run r = jmpirun(dist, Map.of(), "-n", "2", "--jvm-arg", "-Xlog:jit+compilation=debug",
                "org.jmpi.examples.PingPong", "--max", "1048576");
        assertThat(r.exit()).as(r.output()).isZero();
        // a compilation's log line: "[uptime] id flags level class::method ...", for jmpi's message path
        Matcher m = Pattern.compile("\\]\\s+\\d+\\s+[%sbn!]*\\s*([0-4])\\s+"
                + "org\\.jmpi\\.(?:pt2pt|transport|runtime|datatype)\\.\\S+::.*").matcher(r.output());
        int[] byLevel = new int[5];
        while (m.find()) {
            if (!m.group().contains("made not entrant")) {
                byLevel[Integer.parseInt(m.group(1))]++;
            }
        }
        assertThat(byLevel[1]).as("compiled with C1's final tier").isGreaterThan(100);
        assertThat(byLevel[3] * 10).as("compiled with full profiling: %d", byLevel[3]).isLessThan(byLevel[1]);
    }

    /**
     * The ranks' cache records no compilation of the JDK's own methods but the socket channels' ({@code sun.nio.ch},
     * which jmpi's directives keep out of C2 as its own packages): a rank that starts from it leaves the others to the
     * usual tiers, up to C2. (The training run compiles with C1 alone; a JDK method it compiled was replayed with C1
     * alone for good: ThreadLocal's look-up and the direct buffers' accessors among them, a quarter slower per
     * message in a window of small iSends.)
     */
    @Test
    void theRanksCacheRecordsNoCompilationOfTheJdksMethodsButTheSocketChannels() throws Exception {
        assumeTrue(Files.isDirectory(dist.resolve("lib/aot")), "no caches");
        Run r = jmpirun(dist, Map.of(), "-n", "1", "--jvm-arg", "-XX:+AOTPrintTrainingInfo", "org.jmpi.examples.Hello");
        assertHello(r, 1);
        // a compilation record of the training data: "  C owner/Class[L].method(...)...#<id>L<level> ..."
        Matcher m = Pattern.compile("(?m)^\\s+C (\\S+?)/").matcher(r.output());
        int jdk = 0;
        int jmpi = 0;
        while (m.find()) {
            String top = m.group(1);
            if ((top.equals("java") || top.equals("jdk") || top.equals("sun") || top.equals("com"))
                    && !r.output().startsWith("sun/nio/ch/", m.start(1))) {
                jdk++;
            } else if (top.equals("org") || top.equals("mpi")) {
                jmpi++;
            }
        }
        assertThat(jmpi).as("jmpi's methods recorded").isGreaterThan(100);
        assertThat(jdk).as("the JDK's methods recorded, the socket channels' aside").isZero();
    }

    /**
     * A misspelt main class is one line, with the caches on: ranks used to start, and one torn down while its JVM
     * still started from the cache could add a stray {@code Runtime.exit(143) logging failed} line.
     */
    @Test
    void aMisspeltMainClassIsOneLine(@TempDir Path tmp) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(dist.resolve("bin/jmpirun").toString(), "--no-stdin", "-n", "4", "-cp",
                tmp.toString(), "Hello").redirectErrorStream(true);
        pb.environment().remove("JMPI_AOT");
        pb.environment().remove("JMPI_LAUNCHER_JVM_ARGS");
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("jmpirun ended").isTrue();
        assertThat(p.exitValue()).as(out).isEqualTo(1);
        assertThat(out.lines()).as(out).hasSize(1).first().asString()
                .startsWith("jmpirun: Error: Could not find or load main class Hello (not on the class path " + tmp);
    }

    @Test
    void jmpiAotZeroTurnsThemOff() throws Exception {
        Run r = jmpirun(dist, Map.of("JMPI_AOT", "0"), "-n", "2", "org.jmpi.examples.Hello");
        assertHello(r, 2);
        assertThat(r.cachesUsed()).as(r.output()).isZero();
    }

    @Test
    void anOptionTheJvmWouldRefuseTheCacheWithRunsTheRanksWithoutIt() throws Exception {
        assumeTrue(Files.isDirectory(dist.resolve("lib/aot")), "no caches");
        Run r = jmpirun(dist, Map.of(), "-n", "2", "--jvm-arg", "-XX:-UseCompressedOops", "org.jmpi.examples.Hello");
        assertHello(r, 2);
        assertThat(r.cachesUsed()).as("only the launcher's: " + r.output()).isEqualTo(1);
    }

    @Test
    void aMovedCopyStillUsesItsCachesAndAChangedJarDisablesThem(@TempDir Path tmp) throws Exception {
        assumeTrue(Files.isDirectory(dist.resolve("lib/aot")), "no caches");
        Path copy = tmp.resolve("jmpi");
        copyPreservingTimes(dist, copy);
        Run moved = jmpirun(copy, Map.of(), "-n", "2", "org.jmpi.examples.Hello");
        assertHello(moved, 2);
        assertThat(moved.cachesUsed()).as(moved.output()).isEqualTo(3);
        // the copy's ranks run the copy's jmpi, not the jars of the place where the caches were made (a class from a
        // cache keeps the code source it had there; once that place was gone, jmpirun could not start at all)
        Run classPath = jmpirun(copy, Map.of(), "--classpath");
        assertThat(classPath.exit()).as(classPath.output()).isZero();
        assertThat(classPath.output().lines().filter(l -> l.endsWith(".jar")).toList()).as(classPath.output())
                .containsExactly(copy.resolve("lib/jmpi-core.jar").toString());

        Path core = copy.resolve("lib/jmpi-core.jar");
        Files.setLastModifiedTime(core, FileTime.fromMillis(Files.getLastModifiedTime(core).toMillis() + 5000));
        Run changed = jmpirun(copy, Map.of(), "-n", "2", "org.jmpi.examples.Hello");
        assertHello(changed, 2);
        assertThat(changed.cachesUsed()).as("a cache of other jars is never used: " + changed.output()).isZero();
    }

    private static void copyPreservingTimes(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                Files.copy(p, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
    }
}
