package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jmpi.launcher.ranks.FaultRank;
import org.jmpi.launcher.ranks.RingCheckRank;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * jmpi under the real components, installed and started by the scripts in {@code src/test/scripts}: MPICH's Hydra
 * ({@code PMI_FD} and {@code -pmi-port}), a one-node Slurm ({@code srun --mpi=pmi2}, {@code sbatch}, env-only mode
 * under {@code srun --mpi=none}, the PMIx-only message under {@code srun --mpi=pmix}), two extra hosts made of
 * network namespaces with sshd (jmpirun over ssh, an mpi-operator emulation, faults and a cut link), and an
 * unmodified MPICH C program under jmpirun's PMI server.
 *
 * <p>These need root (apt-get, namespaces, daemons). Without it each test says so and is skipped; with
 * {@code JMPI_REQUIRE_INTEGRATION=1} (CI) a missing prerequisite fails instead. Every daemon is started with a pid
 * file and stopped by pid; namespaces, bridge and configuration drop-ins are removed afterwards.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LaunchIntegrationTest {
    static final Path SCRIPTS = Path.of("src/test/scripts").toAbsolutePath();
    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    static final boolean REQUIRED = "1".equals(System.getenv("JMPI_REQUIRE_INTEGRATION"));
    /** Opt-in outside CI: these tests install packages and start daemons, which a developer may not want. */
    static final boolean WANTED = REQUIRED || "1".equals(System.getenv("JMPI_INTEGRATION"));
    private static Boolean depsInstalled;

    /** Skips (or, in CI, fails) with a message when {@code ok} is false. */
    static void require(boolean ok, String what) {
        if (!ok && REQUIRED) {
            fail("launch-integration test needs " + what + " (JMPI_REQUIRE_INTEGRATION=1)");
        }
        assumeTrue(ok, "skipped: needs " + what);
    }

    /** Removes a test's temporary directory and everything under it, once its daemons are down. */
    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    static boolean isRoot() {
        try {
            return run(List.of("id", "-u"), Map.of(), Duration.ofSeconds(10)).out.trim().equals("0");
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** Runs install-test-deps.sh once (apt-get when something is missing). */
    static synchronized void installDeps() throws Exception {
        assumeTrue(WANTED, "skipped: set JMPI_INTEGRATION=1 to run the launch-integration tests (they install "
                + "packages with apt-get and start sshd, Slurm and network namespaces; CI sets "
                + "JMPI_REQUIRE_INTEGRATION=1)");
        require(isRoot(), "root (to install packages and create network namespaces)");
        if (depsInstalled == null) {
            Result r = run(List.of("bash", SCRIPTS.resolve("install-test-deps.sh").toString()), Map.of(),
                    Duration.ofMinutes(10));
            depsInstalled = r.rc == 0;
            if (!depsInstalled) {
                System.err.println(r.out);
            }
        }
        require(depsInstalled, "the test packages (install-test-deps.sh failed)");
    }

    record Result(int rc, String out, Duration elapsed) {
        List<Long> rankPids() {
            List<Long> pids = new ArrayList<>();
            Matcher m = Pattern.compile("ready \\d+ pid (\\d+)").matcher(out);
            while (m.find()) {
                pids.add(Long.parseLong(m.group(1)));
            }
            return pids;
        }
    }

    /** Runs a command (stdin from /dev/null, stderr into stdout) with a hard limit; kills it and its children then. */
    static Result run(List<String> cmd, Map<String, String> env, Duration limit)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("jmpi-it", ".out");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().putAll(env);
            long t0 = System.nanoTime();
            Process p = pb.start();
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                fail("timed out after " + limit + ": " + cmd + "\n" + Files.readString(out));
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Duration.ofNanos(System.nanoTime() - t0));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** The class path of jmpirun itself: jmpi-launcher, jmpi-core, picocli. */
    static String launcherClassPath() throws Exception {
        List<String> cp = new ArrayList<>();
        for (Path p : Launcher.proxyClassPath()) {
            cp.add(p.toString());
        }
        cp.add(Path.of(CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        return String.join(File.pathSeparator, cp);
    }

    /** {@code java ... JmpiRun args}: jmpirun as users run it, in a process of its own. */
    static List<String> jmpirun(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(JAVA, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                launcherClassPath(), JmpiRun.class.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Class path of a rank: the test rank programs and jmpi-core. */
    static String rankClassPath() throws Exception {
        return LauncherTest.testClasses() + File.pathSeparator + Launcher.jmpiClassPath().get(0);
    }

    /** {@code java ... FaultRank mode}: a rank's command under another launcher. */
    static List<String> javaRank(String mode) throws Exception {
        return List.of(JAVA, "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", rankClassPath(), FaultRank.class.getName(), mode);
    }

    static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    static Path onPath(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    static void assertRanksGotTheMessage(Result r, int size) {
        assertThat(r.rc).as(r.out).isZero();
        for (int rank = 0; rank < size - 1; rank++) {
            assertThat(r.out).contains("rank " + rank + " got 42");
        }
        assertThat(r.rankPids()).as(r.out).hasSize(size);
    }

    // ================================================================================================== Hydra

    @Nested
    class Hydra {
        @Test
        void javaRanksUnderMpiexecHydraOnPmiFd() throws Exception {
            installDeps();
            Result r = run(concat(List.of("mpiexec.hydra", "-n", "4"), javaRank("ok")), Map.of(),
                    Duration.ofSeconds(120));
            assertRanksGotTheMessage(r, 4);
        }

        @Test
        void javaRanksUnderMpiexecHydraWithPmiPort() throws Exception {
            installDeps();
            Result r = run(concat(List.of("mpiexec.hydra", "-pmi-port", "-n", "4"), javaRank("ok")), Map.of(),
                    Duration.ofSeconds(120));
            assertRanksGotTheMessage(r, 4);
        }

        @Test
        void sigkillOfMpiexecHydraLeavesNoRankAndNoSegmentFile() throws Exception {
            installDeps();
            Path out = Files.createTempFile("jmpi-hydra-kill", ".out");
            Process p = new ProcessBuilder(concat(List.of("mpiexec.hydra", "-n", "4"), javaRank("card")))
                    .redirectErrorStream(true).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            List<ProcessHandle> all = new ArrayList<>();
            try {
                List<Long> ranks = OrphansTest.awaitRanks(p, out, 4);
                String job = OrphansTest.jobId(Files.readString(out));
                p.descendants().forEach(all::add);
                List<Long> pids = new ArrayList<>(ranks);
                all.forEach(h -> pids.add(h.pid()));
                OrphansTest.kill9(p.pid());
                assertThat(OrphansTest.leftAfterGrace(pids, job)).as("left " + OrphansTest.GRACE
                        + " after SIGKILL of mpiexec.hydra: " + Files.readString(out)).isEmpty();
            } finally {
                all.forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                Files.deleteIfExists(out);
            }
        }

        @Test
        void anMpichCProgramRunsUnderJmpirunsPmiServer(@TempDir Path dir) throws Exception {
            installDeps();
            Path src = dir.resolve("hello.c");
            try (InputStream in = getClass().getResourceAsStream("/interop/mpich_hello.c")) {
                Files.copy(in, src);
            }
            Path exe = dir.resolve("hello");
            assertThat(run(List.of("mpicc.mpich", "-o", exe.toString(), src.toString()), Map.of(),
                    Duration.ofSeconds(120)).rc).isZero();
            // no jmpi secret in an MPICH program: jmpirun's PMI server admits it because it is a rank it started
            Result r = run(jmpirun("-n", "4", "--no-stdin", exe.toString()), Map.of(), Duration.ofSeconds(120));
            assertThat(r.rc).as(r.out).isZero();
            for (int rank = 0; rank < 4; rank++) {
                assertThat(r.out).contains("C/MPICH rank " + rank + "/4 allreduce=6 token=" + (rank < 2 ? 42 : 0));
            }
            assertThat(r.out).doesNotContain("refused");
        }
    }

    // ================================================================================================== Slurm

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class Slurm {
        Path dir;
        Map<String, String> env = new HashMap<>();

        @BeforeAll
        void start() throws Exception {
            installDeps();
            dir = Files.createTempDirectory("jmpi-slurm");
            Result r = run(List.of("bash", SCRIPTS.resolve("slurm-local.sh").toString(), "up", dir.toString()),
                    Map.of(), Duration.ofSeconds(60));
            require(r.rc == 0, "a one-node Slurm (slurm-local.sh up failed: " + r.out + ")");
            env.put("SLURM_CONF", dir.resolve("slurm.conf").toString());
        }

        @AfterAll
        void stop() throws Exception {
            if (dir != null) {
                run(List.of("bash", SCRIPTS.resolve("slurm-local.sh").toString(), "down", dir.toString()), Map.of(),
                        Duration.ofSeconds(60));
                deleteTree(dir);
            }
        }

        @Test
        void srunWithPmi2() throws Exception {
            Result r = run(concat(List.of("srun", "-n", "4", "--mpi=pmi2"), javaRank("ok")), env,
                    Duration.ofSeconds(120));
            assertRanksGotTheMessage(r, 4);
        }

        @Test
        void srunWithPmi2SpeakingPmi1() throws Exception {
            Map<String, String> e = new HashMap<>(env);
            e.put("JMPI_PMI", "1");
            Result r = run(concat(List.of("srun", "-n", "3", "--mpi=pmi2"), javaRank("ok")), e,
                    Duration.ofSeconds(120));
            assertRanksGotTheMessage(r, 3);
        }

        /**
         * MPI_Comm_spawn under {@code srun --mpi=pmi2}: jmpi does not use Slurm's PMI-2 spawn; the root starts the
         * children with jmpirun, which takes the allocation (this node) as its host list. spawnMultiple's children
         * get their command's APPNUM from that jmpirun.
         */
        @Test
        void srunWithPmi2Spawns() throws Exception {
            Map<String, String> e = new HashMap<>(env);
            e.put("JMPI_LAUNCHER_CLASSPATH", launcherClassPath());
            Path wdir = Files.createTempDirectory(dir, "wdir");
            for (String[] mode : List.of(new String[] {"spawn", "2"}, new String[] {"multi", wdir.toString()})) {
                Result r = run(concat(List.of("srun", "-n", "2", "--mpi=pmi2", JAVA,
                        "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                        rankClassPath(),
                        org.jmpi.launcher.ranks.DpmRank.class.getName()), List.of(mode)), e,
                        Duration.ofSeconds(180));
                assertThat(r.rc).as(r.out).isZero();
                if (mode[0].equals("spawn")) {
                    assertThat(r.out.lines().filter(l -> l.contains("ok spawn 2 from 2"))).as(r.out).hasSize(2);
                    assertThat(r.out.lines().filter(l -> l.contains("ok child"))).as(r.out).hasSize(2);
                } else {
                    assertThat(r.out.lines().filter(l -> l.contains("ok multi"))).as(r.out).hasSize(2);
                }
            }
        }

        @Test
        void sbatchRunsSrunInABatchJob() throws Exception {
            Path out = dir.resolve("batch.out");
            Result r = run(List.of("sbatch", "--wait", "-n", "2", "-o", out.toString(), "--wrap",
                    "srun --mpi=pmi2 " + String.join(" ", javaRank("ok"))), env, Duration.ofSeconds(120));
            String text = Files.exists(out) ? Files.readString(out) : "";
            assertThat(r.rc).as(r.out + text).isZero();
            assertThat(text).contains("rank 0 got 42");
        }

        @Test
        void jmpirunInsideAnAllocationUsesItsNodes() throws Exception {
            // SLURM_JOB_NODELIST names this host only: jmpirun runs the ranks here, 2 slots from the allocation
            Result r = run(concat(List.of("salloc", "-n", "2"), jmpirun("--no-stdin", "-v", "-cp", rankClassPath(),
                    FaultRank.class.getName(), "ok")), env, Duration.ofSeconds(120));
            assertRanksGotTheMessage(r, 2);
            assertThat(r.out).contains("ranks [0, 1]");
        }

        @Test
        void jmpirunStartsItsProxiesWithSrunInsideAnAllocation() throws Exception {
            // as Hydra's slurm launcher does; --no-autofork makes this host go through srun too
            Result r = run(concat(List.of("salloc", "-n", "2"), jmpirun("--no-stdin", "--launcher", "slurm",
                    "--no-autofork", "-cp", rankClassPath(), FaultRank.class.getName(), "ok")), env,
                    Duration.ofSeconds(120));
            assertRanksGotTheMessage(r, 2);
        }

        @Test
        void envOnlyModeUnderSrunWithoutPmi() throws Exception {
            Result r = run(concat(jmpirun("--kvs-server", "--"), concat(List.of("srun", "-n", "3", "--mpi=none"),
                    javaRank("ok"))), env, Duration.ofSeconds(120));
            assertRanksGotTheMessage(r, 3);
        }

        @Test
        void aPmixOnlyLauncherGetsAClearMessage() throws Exception {
            Result r = run(concat(List.of("srun", "-n", "2", "--mpi=pmix"), javaRank("ok")), env,
                    Duration.ofSeconds(120));
            assertThat(r.rc).isNotZero();
            assertThat(r.out).contains("PMIx-only launcher").contains("Launchers that work: jmpirun, mpiexec.hydra")
                    .contains("srun --mpi=pmi2");
        }
    }

    // ================================================================================================ ssh hosts

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class SshHosts {
        static final String A = "10.78.0.1";
        static final String B = "10.78.0.2";
        Path dir;

        @BeforeAll
        void start() throws Exception {
            installDeps();
            dir = Files.createTempDirectory("jmpi-netns");
            Result r = run(List.of("bash", SCRIPTS.resolve("netns-hosts.sh").toString(), "up", dir.toString()),
                    Map.of(), Duration.ofSeconds(60));
            require(r.rc == 0, "network namespaces with sshd (netns-hosts.sh up failed: " + r.out + ")");
        }

        @AfterAll
        void stop() throws Exception {
            if (dir != null) {
                run(List.of("bash", SCRIPTS.resolve("netns-hosts.sh").toString(), "down", dir.toString()),
                        Map.of(), Duration.ofSeconds(60));
                deleteTree(dir);
            }
        }

        String ssh() {
            return "ssh -F " + dir.resolve("ssh_config");
        }

        /** Java processes left in the namespaces (sshd is expected there, nothing of the job). */
        List<String> leftovers() throws Exception {
            List<String> left = new ArrayList<>();
            for (String ns : List.of("jmpiA", "jmpiB")) {
                for (String pid : run(List.of("ip", "netns", "pids", ns), Map.of(), Duration.ofSeconds(10)).out
                        .trim().split("\\s+")) {
                    if (!pid.isEmpty()) {
                        String name;
                        try {
                            name = Files.readString(Path.of("/proc", pid, "comm")).trim();
                        } catch (java.nio.file.NoSuchFileException e) {
                            continue; // it ended since it was listed: not left over
                        }
                        if (!name.startsWith("sshd")) {
                            left.add(ns + ":" + pid + ":" + name);
                        }
                    }
                }
            }
            return left;
        }

        void assertNothingLeft(Result r, String what) throws Exception {
            for (long pid : r.rankPids()) {
                assertThat(alive(pid)).as(what + ": rank pid " + pid + " alive").isFalse();
            }
            assertThat(leftovers()).as(what + ": processes left on the hosts").isEmpty();
        }

        /**
         * Parents on both hosts spawn two children: the children's jmpirun (started by the root on host A) gets the
         * parents' host list and ssh command, so one child runs on each host; they connect back across the bridge
         * and everything ends with the job.
         */
        @Test
        void spawnedChildrenFollowTheHostListAcrossSshHosts() throws Exception {
            Result r = run(jmpirun("--no-stdin", "-n", "2", "-H", A + ":1," + B + ":1", "--launcher-exec", ssh(),
                    "-cp", rankClassPath(), org.jmpi.launcher.ranks.DpmRank.class.getName(), "spawn", "2"),
                    Map.of("JMPI_LAUNCHER_CLASSPATH", launcherClassPath()), Duration.ofSeconds(180));
            assertThat(r.rc).as(r.out).isZero();
            assertThat(r.out.lines().filter(l -> l.contains("ok spawn 2 from 2"))).as(r.out).hasSize(2);
            assertThat(r.out.lines().filter(l -> l.contains("ok child")).map(l -> l.substring(l.indexOf(" on node ")))
                    .sorted().toList()).as(r.out).containsExactly(" on node 0", " on node 1");
            assertThat(leftovers()).as("processes left on the hosts").isEmpty();
        }

        @Test
        void jmpirunOverSshUsesBothHosts() throws Exception {
            Result r = run(jmpirun("--no-stdin", "-n", "4", "-H", A + ":2," + B + ":2", "--launcher-exec", ssh(),
                    "-cp", rankClassPath(), FaultRank.class.getName(), "ok"), Map.of(), Duration.ofSeconds(120));
            assertRanksGotTheMessage(r, 4);
            assertThat(r.out).contains("ready 0 pid").contains("ready 3 pid");
            assertThat(r.out).containsPattern("ready [01] pid \\d+ on 0").containsPattern("ready [23] pid \\d+ on 1");
            assertNothingLeft(r, "clean run");
        }

        @Test
        void aLossyRateLimitedLinkLosesNothing() throws Throwable {
            // 1 % of the packets each host sends are lost, at most 200 Mbit/s leave it: TCP retransmits, the job ends
            // with every value right, on 3 ranks (2 on A, 1 on B) through shared memory and TCP, eager and rendezvous
            // (netns-hosts.sh uses nftables and tbf where the kernel has no netem)
            ringCheckThroughLinks("loss 1% rate 200mbit", "lossy link", () -> { });
        }

        /**
         * Shapes every host's link with netns-hosts.sh's {@code netem SPEC}, runs {@code whileOn}, then the 3-rank ring
         * check (2 ranks on A, 1 on B: shared memory and TCP, eager and rendezvous), which must end with every value
         * right and nothing left; the links go back ({@code netem off}) whatever happened.
         */
        private void ringCheckThroughLinks(String spec, String what, org.junit.jupiter.api.function.Executable whileOn)
                throws Throwable {
            String netns = SCRIPTS.resolve("netns-hosts.sh").toString();
            try {
                assertThat(run(List.of("bash", netns, "netem", spec), Map.of(), Duration.ofSeconds(10)).rc).isZero();
                whileOn.execute();
                Result r = run(jmpirun("--no-stdin", "-n", "3", "-H", A + ":2," + B + ":1", "--launcher-exec", ssh(),
                        "-cp", rankClassPath(), RingCheckRank.class.getName()), Map.of(), Duration.ofSeconds(120));
                assertThat(r.rc).as(r.out).isZero();
                assertThat(r.out).contains("ring-check errors=0");
                assertNothingLeft(r, what);
            } finally {
                run(List.of("bash", netns, "netem", "off"), Map.of(), Duration.ofSeconds(10));
            }
        }

        @Test
        void aDelayedLinkLosesNothing() throws Throwable {
            // every frame a host sends is held 2 ms (4 ms more per round trip): the same job ends with every value
            // right; without the kernel's netem the delay is netns-hosts.sh's user-space delay line, which must be in
            // the hosts' path while on and gone after "off"
            assumeTrue(Files.exists(Path.of("/dev/net/tun")), "skipped: needs /dev/net/tun");
            ringCheckThroughLinks("delay 2ms", "delayed link", () -> {
                if (Files.exists(Path.of("/tmp/jmpi-netns-delay.pid"))) {
                    assertThat(run(List.of("ip", "-n", "jmpiB", "-br", "addr"), Map.of(), Duration.ofSeconds(10)).out)
                            .as("host B's address on the delay line's device").containsPattern("jmpiB-t\\s+\\S+\\s+" + B);
                }
            });
            assertThat(Files.exists(Path.of("/tmp/jmpi-netns-delay.pid"))).as("delay line ended").isFalse();
            assertThat(run(List.of("ip", "-n", "jmpiB", "-br", "addr"), Map.of(), Duration.ofSeconds(10)).out)
                    .as("host B's address back on eth0").containsPattern("eth0\\S*\\s+UP\\s+" + B);
        }

        @Test
        void mpiOperatorEmulationNeedsNoHostFlags() throws Exception {
            // what mpi-operator sets up: a hostfile variable, sshd on port 2222 in every worker, Port 2222 in the
            // system ssh_config, and the user's plain "mpirun -n 4 ..." in the launcher
            Path openmpi = dir.resolve("hostfile");
            Files.writeString(openmpi, A + " slots=1\n" + B + " slots=1\n");
            Path mpich = dir.resolve("hostfile.mpich");
            Files.writeString(mpich, A + ":1\n" + B + ":1\n");
            Result cfg = run(List.of("bash", SCRIPTS.resolve("netns-hosts.sh").toString(), "operator-ssh-config",
                    dir.toString()), Map.of(), Duration.ofSeconds(10));
            assertThat(cfg.rc).as(cfg.out).isZero();
            for (Map<String, String> env : List.of(
                    Map.of("OMPI_MCA_orte_default_hostfile", openmpi.toString(), "OMPI_MCA_plm_rsh_args",
                            "-o ConnectionAttempts=10", "OMPI_MCA_orte_set_default_slots", "1", "K_MPI_JOB_ROLE",
                            "launcher"),
                    Map.of("HYDRA_HOST_FILE", mpich.toString(), "HYDRA_LAUNCH_EXTRA_ARGS",
                            "-o ConnectionAttempts=10"))) {
                Result r = run(jmpirun("--no-stdin", "-n", "4", "-cp", rankClassPath(), FaultRank.class.getName(),
                        "ok"), env, Duration.ofSeconds(120));
                assertRanksGotTheMessage(r, 4);
                // one slot per worker, 4 ranks: ranks 0, 2 on the first worker, 1, 3 on the second
                assertThat(r.out).contains("ready 0 pid").containsPattern("ready 0 pid \\d+ on 0")
                        .containsPattern("ready 1 pid \\d+ on 1").containsPattern("ready 2 pid \\d+ on 0")
                        .containsPattern("ready 3 pid \\d+ on 1");
                assertNothingLeft(r, "operator emulation " + env.keySet());
            }
            // a hostfile variable naming a missing file is an error, never a silent fallback to this host
            Result bad = run(jmpirun("--no-stdin", "-n", "2", FaultRank.class.getName(), "ok"), Map.of(
                    "HYDRA_HOST_FILE", dir.resolve("missing").toString()), Duration.ofSeconds(60));
            assertThat(bad.rc).isEqualTo(JmpiRun.USAGE_ERROR);
            assertThat(bad.out).contains("cannot read the hostfile");
        }

        /**
         * A rank killed by a signal, one that calls abort and one that exits without finalizing, on a remote host:
         * each reaches jmpirun by its own way (the proxy's exit report, the PMI abort, the missing finalize). A plain
         * exit code travels as the signal's does; MultiHostTest runs those two cases too, on hosts in one machine.
         */
        @Test
        void faultsOnARemoteHostEndTheWholeJob() throws Exception {
            record Case(String mode, int code, String words) {}
            for (Case c : List.of(new Case("sigkill", 137, "killed by signal 9"),
                    new Case("abort7", 7, "called abort with exit code 7"),
                    new Case("nofinalize", 1, "without finalizing"))) {
                Result r = run(jmpirun("--no-stdin", "-n", "4", "-H", A + ":2," + B + ":2", "--launcher-exec", ssh(),
                        "-cp", rankClassPath(), FaultRank.class.getName(), c.mode()), Map.of(),
                        Duration.ofSeconds(120));
                assertThat(r.rc).as(c.mode() + ": " + r.out).isEqualTo(c.code());
                assertThat(r.out).as(c.mode()).containsPattern("jmpirun: rank 3 \\(host " + B + ", pid \\d+\\) .*"
                        + Pattern.quote(c.words()));
                Matcher m = Pattern.compile("teardown (\\d+\\.\\d) s").matcher(r.out);
                assertThat(m.find()).as(c.mode() + ": teardown time in " + r.out).isTrue();
                assertThat(Double.parseDouble(m.group(1))).as(c.mode() + " teardown").isLessThan(10.0);
                assertThat(r.rankPids()).as(c.mode()).hasSize(4);
                assertNothingLeft(r, c.mode());
            }
        }

        /** The pid of the host proxy JVM running in namespace {@code ns}, or -1. */
        long proxyIn(String ns) throws Exception {
            for (String pid : run(List.of("ip", "netns", "pids", ns), Map.of(), Duration.ofSeconds(10)).out.trim()
                    .split("\\s+")) {
                Path cmdline = Path.of("/proc", pid, "cmdline");
                if (!pid.isEmpty() && Files.exists(cmdline) && new String(Files.readAllBytes(cmdline),
                        StandardCharsets.UTF_8).contains("ProxyMain")) {
                    return Long.parseLong(pid);
                }
            }
            return -1;
        }

        @Test
        void sigkillOfARemoteProxyOrOfJmpirunLeavesNothingOnAnyHost() throws Exception {
            for (String victim : List.of("proxy", "jmpirun")) {
                Path out = Files.createTempFile(dir, "kill-" + victim, ".out");
                Process p = new ProcessBuilder(jmpirun("--no-stdin", "-n", "4", "-H", A + ":2," + B + ":2",
                        "--launcher-exec", ssh(), "-cp", rankClassPath(), FaultRank.class.getName(), "card"))
                        .redirectErrorStream(true).redirectOutput(out.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
                try {
                    List<Long> ranks = OrphansTest.awaitRanks(p, out, 4);
                    String job = OrphansTest.jobId(Files.readString(out));
                    long proxy = proxyIn("jmpiB");
                    assertThat(proxy).as("host B's proxy").isPositive();
                    List<Long> pids = new ArrayList<>(ranks);
                    pids.add(proxy);
                    OrphansTest.kill9(victim.equals("proxy") ? proxy : p.pid());
                    assertThat(OrphansTest.leftAfterGrace(pids, job)).as(victim + ": left " + OrphansTest.GRACE
                            + " after SIGKILL: " + Files.readString(out)).isEmpty();
                    long deadline = System.nanoTime() + OrphansTest.GRACE.toNanos();
                    while (!leftovers().isEmpty() && System.nanoTime() < deadline) {
                        p.waitFor(20, TimeUnit.MILLISECONDS);
                    }
                    assertThat(leftovers()).as(victim + ": processes left on the hosts").isEmpty();
                    assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("jmpirun ended").isTrue();
                } finally {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                }
            }
        }

        @Test
        void aCutLinkEndsTheJobOnBothSides() throws Exception {
            Path out = Files.createTempFile(dir, "cut", ".out");
            Process p = new ProcessBuilder(jmpirun("--no-stdin", "-n", "4", "-H", A + ":2," + B + ":2",
                    "--launcher-exec", ssh(), "-cp", rankClassPath(), FaultRank.class.getName(), "hang"))
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                while (!Files.readString(out).contains("ready 3 pid") || !Files.readString(out).contains("ready 0 pid")
                        || !Files.readString(out).contains("ready 1 pid") || !Files.readString(out).contains(
                                "ready 2 pid")) {
                    assertThat(System.nanoTime()).as("ranks up: " + Files.readString(out)).isLessThan(deadline);
                    assertThat(p.isAlive()).as(Files.readString(out)).isTrue();
                    Thread.onSpinWait();
                    p.waitFor(100, TimeUnit.MILLISECONDS);
                }
                long cut = System.nanoTime();
                assertThat(run(List.of("bash", SCRIPTS.resolve("netns-hosts.sh").toString(), "cut", "B"), Map.of(),
                        Duration.ofSeconds(10)).rc).isZero();
                assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("jmpirun ended").isTrue();
                Duration teardown = Duration.ofNanos(System.nanoTime() - cut);
                String text = Files.readString(out);
                assertThat(p.exitValue()).as(text).isEqualTo(LaunchResult.HOST_LOST_EXIT_CODE);
                assertThat(text).contains("jmpirun: host " + B + " was lost (no word from its proxy");
                assertThat(teardown).as("from the cut to the end of jmpirun").isLessThan(Duration.ofSeconds(10));
                // host B's proxy ends its ranks on its own when it hears nothing (its link is still down)
                Result r = new Result(p.exitValue(), text, teardown);
                for (String left : leftovers()) {
                    long pid = Long.parseLong(left.split(":")[1]);
                    ProcessHandle.of(pid).ifPresent(h -> h.onExit().completeOnTimeout(h, 10, TimeUnit.SECONDS)
                            .join());
                }
                assertNothingLeft(r, "cut link");
            } finally {
                run(List.of("bash", SCRIPTS.resolve("netns-hosts.sh").toString(), "heal", "B"), Map.of(),
                        Duration.ofSeconds(10));
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
    }
}
