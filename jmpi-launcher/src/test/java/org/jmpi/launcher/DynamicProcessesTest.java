package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jmpi.launcher.names.NameServer;
import org.jmpi.launcher.ranks.DpmRank;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MPI dynamic processes across real jobs: connect/accept between two separately started jmpirun jobs (port string on
 * the command line, a name published in a shared name server, a singleton), spawn under jmpirun, from a singleton and
 * under mpiexec.hydra, spawnMultiple, nested spawn, spawn+disconnect cycles without leaks, a child that dies, and
 * every bad input. The rank program is {@link DpmRank}; each check it makes prints a line starting with "ok".
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DynamicProcessesTest {
    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killLeftovers() throws Exception {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** A job of {@code n} DpmRank ranks under jmpirun, output to a file. */
    private Process job(Map<String, String> env, int n, String... args) throws Exception {
        return job(false, env, n, args);
    }

    /** A job of {@code n} DpmRank ranks under jmpirun, as threads or as processes, output to a file. */
    private Process job(boolean threads, Map<String, String> env, int n, String... args) throws Exception {
        List<String> a = new ArrayList<>(List.of("--no-stdin", "-n", Integer.toString(n), "-cp",
                LauncherTest.testClasses().toString(), "--jvm-arg", "-XX:TieredStopAtLevel=1", DpmRank.class.getName()));
        if (threads) {
            a.add(0, "--threads");
        }
        a.addAll(List.of(args));
        return start(LaunchIntegrationTest.jmpirun(a.toArray(String[]::new)), env);
    }

    private Process start(List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("out-" + started.size() + ".txt").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        // ranks run from the test classes and target/classes, not the distribution: name jmpirun's classes
        pb.environment().put("JMPI_LAUNCHER_CLASSPATH", LaunchIntegrationTest.launcherClassPath());
        pb.environment().remove("JMPI_NAMESERVER");
        pb.environment().putAll(env);
        Process p = pb.start();
        started.add(p);
        return p;
    }

    private String output(Process p) throws Exception {
        return Files.readString(dir.resolve("out-" + started.indexOf(p) + ".txt"));
    }

    /** Waits for {@code p} and checks it succeeded; returns its output. */
    private String finish(Process p) throws Exception {
        assertThat(p.waitFor(240, TimeUnit.SECONDS)).as("job ended").isTrue();
        String out = output(p);
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    private static long count(String out, String word) {
        return out.lines().filter(l -> l.startsWith(word)).count();
    }

    private String awaitPortFile(Path file, Process server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.exists(file)) {
            assertThat(server.isAlive()).as(output(server)).isTrue();
            assertThat(System.nanoTime()).as("port file").isLessThan(deadline);
            server.waitFor(50, TimeUnit.MILLISECONDS);
        }
        return Files.readString(file).trim();
    }

    @Test
    void twoJobsConnectWithThePortOnTheCommandLine() throws Exception {
        Path portFile = dir.resolve("port");
        Process server = job(Map.of(), 2, "server", portFile.toString());
        String port = awaitPortFile(portFile, server);
        assertThat(port).startsWith("jmpi-port:");
        Process client = job(Map.of(), 3, "client", port);
        String c = finish(client);
        String s = finish(server);
        assertThat(count(c, "ok exercise local 3 remote 2")).as(c).isEqualTo(3);
        assertThat(count(s, "ok exercise local 2 remote 3")).as(s).isEqualTo(2);
        assertThat(count(s, "ok server")).isEqualTo(2);
    }

    @Test
    void twoJobsMeetThroughAPublishedName() throws Exception {
        try (NameServer ns = NameServer.start(InetAddress.getLoopbackAddress(), 0)) {
            Map<String, String> env = Map.of("JMPI_NAMESERVER", ns.address());
            Path portFile = dir.resolve("port");
            Process server = job(env, 3, "server", portFile.toString(), "ocean");
            awaitPortFile(portFile, server);
            assertThat(ns.published()).containsKey("ocean");
            Process client = job(env, 4, "client", "@ocean");
            String c = finish(client);
            String s = finish(server);
            assertThat(count(c, "ok exercise local 4 remote 3")).as(c).isEqualTo(4);
            assertThat(count(s, "ok server")).as(s).isEqualTo(3);
            assertThat(ns.published()).as("unpublished at the end").isEmpty();
        }
    }

    @Test
    void aSingletonConnectsToAJob() throws Exception {
        Path portFile = dir.resolve("port");
        Process server = job(Map.of(), 2, "server", portFile.toString());
        String port = awaitPortFile(portFile, server);
        Process single = start(List.of(LaunchIntegrationTest.JAVA, "--enable-native-access=ALL-UNNAMED",
                "-XX:TieredStopAtLevel=1", "-cp", LaunchIntegrationTest.rankClassPath(), DpmRank.class.getName(),
                "client", port), Map.of());
        String c = finish(single);
        assertThat(count(c, "ok exercise local 1 remote 2")).as(c).isEqualTo(1);
        assertThat(count(finish(server), "ok server")).isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void spawnFromParents(int parents) throws Exception {
        int children = parents == 2 ? 3 : 2;
        String out = finish(job(Map.of(), parents, "spawn", Integer.toString(children)));
        assertThat(count(out, "ok spawn " + children + " from " + parents)).as(out).isEqualTo(parents);
        assertThat(count(out, "ok child")).as(out).isEqualTo(children);
    }

    /** jmpirun --threads: the children are threads of the parents' JVM (argv, getParent, exchange as above). */
    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void spawnFromThreadsModeParents(int parents) throws Exception {
        String out = finish(job(true, Map.of(), parents, "spawn", "2"));
        assertThat(count(out, "ok spawn 2 from " + parents)).as(out).isEqualTo(parents);
        assertThat(count(out, "ok child")).as(out).isEqualTo(2);
    }

    /** jmpirun --threads runs a name server for its ranks too (they get its address as a system property). */
    @Test
    void threadsModeRanksPublishAndLookUpNames() throws Exception {
        String out = finish(job(true, Map.of(), 3, "names"));
        assertThat(count(out, "ok names")).as(out).isEqualTo(3);
    }

    /** A threads-mode job and a job of processes cannot reach each other: both sides fail, neither hangs. */
    @Test
    void aThreadsJobAndAProcessesJobRefuseEachOther() throws Exception {
        Path portFile = dir.resolve("port");
        Process server = job(false, Map.of(), 2, "refused-server", portFile.toString());
        String port = awaitPortFile(portFile, server);
        Process client = job(true, Map.of(), 2, "refused-client", port);
        String c = finish(client);
        String s = finish(server);
        assertThat(count(c, "refused 52")).as(c).isEqualTo(2); // MPI_ERR_UNSUPPORTED_OPERATION
        assertThat(count(s, "refused 52")).as(s).isEqualTo(2);
        Path portFile2 = dir.resolve("port2");
        Process threadsServer = job(true, Map.of(), 1, "refused-server", portFile2.toString());
        String port2 = awaitPortFile(portFile2, threadsServer);
        String c2 = finish(job(false, Map.of(), 3, "refused-client", port2));
        assertThat(count(c2, "refused 52")).as(c2).isEqualTo(3);
        assertThat(count(finish(threadsServer), "refused 52")).isEqualTo(1);
    }

    /**
     * Parents on two hosts (jmpirun's fork agent makes two nodes of this machine) spawn two children: the children
     * are placed on the parents' host list and started with the parents' agent, one per host, not both on the
     * spawning rank's host.
     */
    @Test
    void childrenFollowTheParentsHostList() throws Exception {
        String out = finish(start(LaunchIntegrationTest.jmpirun("--no-stdin", "--launcher", "fork", "-H",
                "nodea:1,nodeb:1", "-n", "2", "-cp", LauncherTest.testClasses().toString(), "--jvm-arg",
                "-XX:TieredStopAtLevel=1", DpmRank.class.getName(), "spawn", "2"), Map.of()));
        assertThat(count(out, "ok spawn 2 from 2")).as(out).isEqualTo(2);
        assertThat(count(out, "ok child")).as(out).isEqualTo(2);
        assertThat(out.lines().filter(l -> l.startsWith("ok child")).map(l -> l.substring(l.indexOf(" on node ")))
                .sorted().toList()).as(out).containsExactly(" on node 0", " on node 1");
    }

    @Test
    void spawnFromASingleton() throws Exception {
        String out = finish(start(List.of(LaunchIntegrationTest.JAVA, "--enable-native-access=ALL-UNNAMED",
                "-XX:TieredStopAtLevel=1", "-cp", LaunchIntegrationTest.rankClassPath(), DpmRank.class.getName(),
                "spawn", "2"), Map.of()));
        assertThat(count(out, "ok spawn 2 from 1")).as(out).isEqualTo(1);
        assertThat(count(out, "ok child")).as(out).isEqualTo(2);
    }

    @Test
    void spawnUnderHydra() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(new File("/usr/bin/mpiexec.hydra").canExecute(),
                "mpiexec.hydra is not installed");
        String out = finish(start(List.of("mpiexec.hydra", "-n", "2", LaunchIntegrationTest.JAVA,
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-cp",
                LaunchIntegrationTest.rankClassPath(), DpmRank.class.getName(), "spawn", "2"), Map.of()));
        assertThat(count(out, "ok spawn 2 from 2")).as(out).isEqualTo(2);
        assertThat(count(out, "ok child")).as(out).isEqualTo(2);
    }

    @Test
    void underHydraAMissingProgramFailsTheSpawnAfterTheTimeout() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(new File("/usr/bin/mpiexec.hydra").canExecute(),
                "mpiexec.hydra is not installed");
        String out = finish(start(List.of("mpiexec.hydra", "-n", "1", "-genv", "JMPI_DPM_TIMEOUT", "5",
                LaunchIntegrationTest.JAVA, "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-cp",
                LaunchIntegrationTest.rankClassPath(), DpmRank.class.getName(), "bad"), Map.of()));
        assertThat(count(out, "bad spawn-missing 50 [50, 50]")).as(out).isEqualTo(1);
        assertThat(count(out, "bad connect-closed 43")).as(out).isEqualTo(1);
    }

    @Test
    void spawnMultipleWithPerCommandInfo() throws Exception {
        String out = finish(job(Map.of(), 2, "multi", dir.toAbsolutePath().toString()));
        assertThat(count(out, "ok multi")).as(out).isEqualTo(2);
        assertThat(count(out, "ok multi children's universe [5]")).as(out).isEqualTo(1); // their world's size
    }

    /**
     * Under mpiexec.hydra (PMI-1 spawn of two commands, Info wdir to Hydra) every child's MPI.APPNUM is its command's
     * index and MPI.UNIVERSE_SIZE is Hydra's ({@code -usize}), both asked of Hydra over PMI-1.
     */
    @Test
    void spawnMultipleUnderHydraGivesEachChildItsAppnum() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(new File("/usr/bin/mpiexec.hydra").canExecute(),
                "mpiexec.hydra is not installed");
        String out = finish(start(List.of("mpiexec.hydra", "-usize", "9", "-n", "2", LaunchIntegrationTest.JAVA,
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-cp",
                LaunchIntegrationTest.rankClassPath(), DpmRank.class.getName(), "multi",
                dir.toAbsolutePath().toString()), Map.of()));
        assertThat(count(out, "ok multi")).as(out).isEqualTo(2);
        assertThat(count(out, "ok multi children's universe [9]")).as(out).isEqualTo(1);
    }

    @Test
    void aChildSpawnsAGrandchild() throws Exception {
        String out = finish(job(Map.of(), 1, "nested"));
        assertThat(count(out, "ok nested")).as(out).isEqualTo(1);
    }

    /**
     * A rank blocked in MPI_Comm_accept, and one blocked in MPI_Comm_connect, still delivers a message it sent just
     * before (on a connection that was still being made), which the other side needs before it connects or accepts.
     * Open MPI's dynamic/NoDisconnect hung this way: a parent's second spawn (an accept) kept its message to the first
     * child unsent until that child's transport dropped the unfinished connection.
     */
    @Test
    void aRankBlockedInAcceptOrConnectStillSendsWhatItSentBefore() throws Exception {
        Process job = job(Map.of(), 1, "progress");
        assertThat(job.waitFor(90, TimeUnit.SECONDS)).as("job ended: " + output(job)).isTrue();
        String out = finish(job);
        assertThat(count(out, "ok progress")).as(out).isEqualTo(1);
    }

    /**
     * 20 spawn + disconnect cycles of two children each: threads and file descriptors counted half way and at the
     * end, so a leak of one per cycle shows 10 times over, beyond the slack of 2 threads (100 cycles took 116 s of a
     * 29-minute CI run on a slow day, 40 took 43 s of a 30-minute one; each cycle starts two JVMs).
     */
    @Test
    void spawnAndDisconnectCyclesLeakNothing() throws Exception {
        String out = finish(job(Map.of(), 1, "cycles", "20"));
        assertThat(count(out, "ok cycles 20")).as(out).isEqualTo(1);
    }

    @Test
    void aChildThatDiesFailsTheParentsReceive() throws Exception {
        String out = finish(job(Map.of(), 1, "dying"));
        assertThat(count(out, "ok dying 75")).as(out).isEqualTo(1);
    }

    @Test
    void whenTheParentIsKilledItsChildrenEnd() throws Exception {
        Process job = job(Map.of(), 1, "orphaning");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (count(output(job), "waiting") < 2 || count(output(job), "spawned") < 1) {
            assertThat(job.isAlive()).as(output(job)).isTrue();
            assertThat(System.nanoTime()).as(output(job)).isLessThan(deadline);
            job.waitFor(50, TimeUnit.MILLISECONDS);
        }
        String out = output(job);
        long parent = Long.parseLong(out.lines().filter(l -> l.startsWith("spawned")).findFirst().orElseThrow()
                .split(" ")[1]);
        List<Long> children = out.lines().filter(l -> l.startsWith("waiting")).map(l -> Long.parseLong(l.split(" ")[1]))
                .toList();
        ProcessHandle.of(parent).orElseThrow().destroyForcibly();
        assertThat(job.waitFor(60, TimeUnit.SECONDS)).as(output(job)).isTrue();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (children.stream().anyMatch(c -> ProcessHandle.of(c).map(ProcessHandle::isAlive).orElse(false))
                && System.nanoTime() < end) {
            job.waitFor(50, TimeUnit.MILLISECONDS);
        }
        assertThat(children).as("children after their parent was killed").noneMatch(
                c -> ProcessHandle.of(c).map(ProcessHandle::isAlive).orElse(false));
    }

    @Test
    void badInputGivesTheStandardsErrorClasses() throws Exception {
        String out = finish(job(Map.of(), 2, "bad"));
        assertThat(count(out, "bad spawn-missing 50 [50, 50]")).as(out).isEqualTo(2);
        assertThat(count(out, "bad spawn-zero 13")).as(out).isEqualTo(2);
        assertThat(count(out, "bad lookup 38")).as(out).isEqualTo(2);
        assertThat(count(out, "bad connect-closed 43")).as(out).isEqualTo(2);
        assertThat(count(out, "bad connect-malformed 43")).as(out).isEqualTo(2);
        assertThat(count(out, "bad accept-closed 43")).as(out).isEqualTo(2);
        assertThat(count(out, "bad close-twice 43")).as(out).isEqualTo(2);
        assertThat(count(out, "bad spawn-universe 50")).as(out).isEqualTo(2);
        assertThat(count(out, "ok spawn-soft 2")).as(out).isEqualTo(2);
    }
}
