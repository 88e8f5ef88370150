package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jmpi.launcher.ranks.TestRank;
import org.jmpi.launcher.ranks.ThreadsHello;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The jmpirun command line, run in-process through {@link JmpiRun#execute}. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JmpiRunTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int jmpirun(Map<String, String> env, String... args) {
        return JmpiRun.execute(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), env, args);
    }

    private static List<String> withJvmArgs(String... rest) throws Exception {
        List<String> a = new ArrayList<>(List.of("--no-stdin", "-cp", LauncherTest.testClasses().toString()));
        for (String j : LauncherTest.FAST_JVM) {
            a.add("--jvm-arg=" + j);
        }
        a.addAll(List.of(rest));
        return a;
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void tagOutputPrefixesEveryLineWithTheRank() throws Exception {
        int code = jmpirun(Map.of(), withJvmArgs("-n", "2", "--tag-output", TestRank.class.getName(), "hello")
                .toArray(String[]::new));
        assertThat(code).as(err()).isZero();
        assertThat(out().lines()).containsExactlyInAnyOrder("[0] hello from rank 0", "[1] hello from rank 1");
        assertThat(err().lines()).containsExactlyInAnyOrder("[0] warning from rank 0", "[1] warning from rank 1");
    }

    @Test
    void dashLIsTagOutputAndUntaggedIsPlain() throws Exception {
        assertThat(jmpirun(Map.of(), withJvmArgs("-np", "1", "-l", TestRank.class.getName(), "hello")
                .toArray(String[]::new))).isZero();
        assertThat(out().lines()).containsExactly("[0] hello from rank 0");
        out.reset();
        assertThat(jmpirun(Map.of(), withJvmArgs("-n", "1", TestRank.class.getName(), "hello")
                .toArray(String[]::new))).isZero();
        assertThat(out().lines()).containsExactly("hello from rank 0");
    }

    @Test
    void failingRankGivesItsCodeAndOneSummaryLine() throws Exception {
        int code = jmpirun(Map.of(), withJvmArgs("-n", "3", TestRank.class.getName(), "exit3")
                .toArray(String[]::new));
        assertThat(code).isEqualTo(3);
        assertThat(err().lines().filter(l -> l.startsWith("jmpirun: "))).singleElement().asString()
                .contains("rank 1").contains("code 3");
    }

    @Test
    void timeoutFromTheCommandLineOrMpiexecTimeout() throws Exception {
        assertThat(jmpirun(Map.of(), withJvmArgs("-n", "2", "--timeout", "1", TestRank.class.getName(), "hang")
                .toArray(String[]::new))).isEqualTo(255);
        assertThat(err()).contains("did not finish within 1.0 s");
        err.reset();
        assertThat(jmpirun(Map.of("MPIEXEC_TIMEOUT", "1"), withJvmArgs("-n", "1", TestRank.class.getName(), "hang")
                .toArray(String[]::new))).isEqualTo(255);
        assertThat(jmpirun(Map.of("MPIEXEC_TIMEOUT", "soon"), withJvmArgs("-n", "1", TestRank.class.getName(),
                "hang").toArray(String[]::new))).isEqualTo(JmpiRun.USAGE_ERROR);
        assertThat(err()).contains("MPIEXEC_TIMEOUT must be a number");
    }

    @Test
    void jvmArgsFromTheEnvironmentAndExportsReachTheRanks() throws Exception {
        int code = jmpirun(Map.of("JMPI_JVM_ARGS", "-Dx=1  -Dy=2"), withJvmArgs("-n", "1", "-x", "FOO=bar",
                "--jvm-arg", "-Dy=3", TestRank.class.getName(), "props").toArray(String[]::new));
        assertThat(code).as(err()).isZero();
        assertThat(out().lines()).containsExactly("x=1 y=3 FOO=bar PMI_FD=null");
    }

    @Test
    void argumentsAfterTheMainClassBelongToTheProgram() throws Exception {
        // "-n 5" after the main class must reach the program, not jmpirun: TestRank rejects the unknown mode.
        int code = jmpirun(Map.of(), withJvmArgs("-n", "1", TestRank.class.getName(), "-n", "5")
                .toArray(String[]::new));
        assertThat(code).isEqualTo(1);
        assertThat(err()).contains("unknown mode -n");
    }

    @Test
    void mpmdContextsAfterAColon() throws Exception {
        List<String> a = withJvmArgs("-n", "1", "-x", "FOO=first", TestRank.class.getName(), "where", ":", "-n", "2",
                "-cp", LauncherTest.testClasses().toString(), TestRank.class.getName(), "where");
        int code = jmpirun(Map.of(), a.toArray(String[]::new));
        assertThat(code).as(err()).isZero();
        assertThat(out().lines().filter(l -> l.contains(" app 0 "))).hasSize(1);
        assertThat(out().lines().filter(l -> l.contains(" app 1 "))).hasSize(2);
        // options of the whole job belong before the first ':'
        assertThat(jmpirun(Map.of(), withJvmArgs("-n", "1", TestRank.class.getName(), "where", ":", "--timeout",
                "5", TestRank.class.getName(), "where").toArray(String[]::new))).isEqualTo(JmpiRun.USAGE_ERROR);
        assertThat(err()).contains("--timeout applies to the whole job");
    }

    @Test
    void hostsOnThisMachineWithTheForkLauncherAndTheirPlacement() throws Exception {
        int code = jmpirun(Map.of(), withJvmArgs("-n", "3", "-H", "a:2,b", "--launcher", "fork", "-v",
                "-print-all-exitcodes", TestRank.class.getName(), "where").toArray(String[]::new));
        assertThat(code).as(err()).isZero();
        assertThat(err()).contains("jmpirun: host a: ranks [0, 1]").contains("jmpirun: host b: ranks [2]")
                .contains("jmpirun: exit codes [0, 0, 0]");
        assertThat(out()).contains("rank 2 node 1 local 0/1").contains("map (vector,(0,1,2),(1,1,1))");
    }

    @Test
    void outputFilenameWritesOpenMpisLayout(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        int code = jmpirun(Map.of(), withJvmArgs("-n", "2", "--output-filename", dir.toString(),
                TestRank.class.getName(), "hello").toArray(String[]::new));
        assertThat(code).as(err()).isZero();
        assertThat(out()).doesNotContain("hello from rank");
        assertThat(java.nio.file.Files.readString(dir.resolve("1/rank.1/stdout"))).isEqualTo("hello from rank 1\n");
        assertThat(java.nio.file.Files.readString(dir.resolve("1/rank.0/stderr"))).isEqualTo("warning from rank 0\n");
    }

    @Test
    void whatCannotBeParsedIsAnErrorNeverThisHost(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        String main = TestRank.class.getName();
        assertThat(jmpirun(Map.of("HYDRA_HOST_FILE", dir.resolve("missing").toString()), "-n", "2", main, "x"))
                .isEqualTo(JmpiRun.USAGE_ERROR);
        assertThat(err()).contains("cannot read the hostfile");
        java.nio.file.Files.writeString(dir.resolve("hosts"), "a slots=2\nb slotz=1\n");
        assertThat(jmpirun(Map.of(), "-f", dir.resolve("hosts").toString(), main, "x"))
                .isEqualTo(JmpiRun.USAGE_ERROR);
        assertThat(err()).contains("line 2");
        assertThat(jmpirun(Map.of(), "--map-by", "socket", main, "x")).isEqualTo(JmpiRun.USAGE_ERROR);
        assertThat(jmpirun(Map.of(), "-n", "3", "-H", "a:1,b:1", "--nooversubscribe", main, "x"))
                .isEqualTo(JmpiRun.USAGE_ERROR);
        assertThat(err()).contains("not enough slots for 3 ranks");
        assertThat(jmpirun(Map.of(), "--launcher", "pbsdsh", main, "x")).isEqualTo(JmpiRun.USAGE_ERROR);
        assertThat(jmpirun(Map.of("I_MPI_PERHOST", "allcores", "MPI_HOST", "a"), main, "x"))
                .isEqualTo(JmpiRun.USAGE_ERROR);
    }

    /** Issue 12, item 11: unknown MCA parameters (Open MPI tuning) are ignored with one warning. */
    @Test
    void unknownMcaParametersWarnOnceAndTheJobRuns() throws Exception {
        int code = jmpirun(Map.of(), withJvmArgs("-n", "2", "--mca", "btl", "self,vader", "--mca", "shmem", "posix",
                "-mca", "rmaps_base_oversubscribe", "1", TestRank.class.getName(), "hello").toArray(String[]::new));
        assertThat(code).as(err()).isZero();
        assertThat(out().lines()).containsExactlyInAnyOrder("hello from rank 0", "hello from rank 1");
        assertThat(err().lines().filter(l -> l.startsWith("jmpirun: warning:"))).singleElement().asString()
                .contains("--mca btl self,vader, --mca shmem posix").doesNotContain("rmaps_base_oversubscribe 1");
    }

    @Test
    void genvAndExportsReachTheRanks() throws Exception {
        int code = jmpirun(Map.of("FOO", "from-env"), withJvmArgs("-n", "1", "-genv", "FOO", "set-by-genv",
                TestRank.class.getName(), "props").toArray(String[]::new));
        assertThat(code).as(err()).isZero();
        assertThat(out()).contains("FOO=set-by-genv");
    }

    @Test
    void printsTheClassPathRanksNeed() {
        assertThat(jmpirun(Map.of(), "--classpath")).isZero();
        assertThat(out().trim()).isEqualTo(Launcher.jmpiClassPath().get(0).toString());
        assertThat(Path.of(out().trim())).exists();
    }

    @Test
    void printsTheToolsInterfacesVariables() {
        assertThat(jmpirun(Map.of(), "--info")).as(err()).isZero();
        assertThat(out()).contains("jmpi.eager.limit = 65536 ", "jmpi.coll.allreduce.algorithm = auto ",
                "jmpi.unexpected.messages ", "jmpi.bytes.sent ");
    }

    @Test
    void usageErrors() {
        assertThat(jmpirun(Map.of(), "-n", "2")).isEqualTo(JmpiRun.USAGE_ERROR);
        assertThat(err()).contains("no main class");
        assertThat(jmpirun(Map.of(), "--bogus", "X")).isEqualTo(JmpiRun.USAGE_ERROR);
        assertThat(jmpirun(Map.of(), "-n", "0", "X")).isEqualTo(JmpiRun.USAGE_ERROR);
        assertThat(jmpirun(Map.of(), "--version")).isZero();
        assertThat(out()).contains("jmpirun");
    }

    @Test
    void threadsModeRunsEveryRankInThisJvm() throws Exception {
        PrintStream saved = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = jmpirun(Map.of(), "--threads", "-n", "3", "-l", "-cp", LauncherTest.testClasses().toString(),
                    ThreadsHello.class.getName());
        } finally {
            System.setOut(saved);
        }
        assertThat(code).as(err()).isZero();
        assertThat(captured.toString(StandardCharsets.UTF_8).lines()).containsExactlyInAnyOrder(
                "[0] hello from a thread, loader jmpi-rank-0", "[1] hello from a thread, loader jmpi-rank-1",
                "[2] hello from a thread, loader jmpi-rank-2");
    }

    @Test
    void bindToCorePutsEachRankOnItsOwnCpuInTurn() throws Exception {
        List<Integer> allowed = org.jmpi.launcher.proxy.HostProxyAccess.allowedCpus();
        org.junit.jupiter.api.Assumptions.assumeTrue(!allowed.isEmpty() && new java.io.File("/usr/bin/taskset")
                .canExecute(), "needs /proc/self/status and taskset");
        int n = allowed.size() + 1; // one more than the CPUs: the last rank shares the first CPU
        int code = jmpirun(Map.of(), "--no-stdin", "-n", Integer.toString(n), "--bind-to", "core", "--tag-output",
                "--exec", "/bin/sh", "-c", "grep Cpus_allowed_list /proc/self/status");
        assertThat(code).as(err()).isZero();
        assertThat(err()).doesNotContain("note");
        for (int r = 0; r < n; r++) {
            assertThat(out().lines()).as(out()).contains("[" + r + "] Cpus_allowed_list:\t"
                    + allowed.get(r % allowed.size()));
        }
    }

    /** A misspelt main class: one line that says so, exit code 1 (as java's), and no rank started. */
    @Test
    void aMainClassOnNoEntryOfTheClassPathIsOneLine() throws Exception {
        int code = jmpirun(Map.of(), withJvmArgs("-n", "3", "org.jmpi.launcher.ranks.TestRnak", "hello")
                .toArray(String[]::new));
        assertThat(code).isEqualTo(1);
        assertThat(err().lines()).as(err()).hasSize(1).first().asString()
                .startsWith("jmpirun: Error: Could not find or load main class org.jmpi.launcher.ranks.TestRnak "
                        + "(not on the class path " + LauncherTest.testClasses());
        assertThat(out()).isEmpty();
        // a class path entry this host lacks (another host's): the ranks find out
        err.reset();
        assertThat(jmpirun(Map.of(), "--no-stdin", "-n", "1", "--jvm-arg=-XX:TieredStopAtLevel=1", "-cp",
                LauncherTest.testClasses() + java.io.File.pathSeparator + "/no/such/dir", "TestRnak")).isEqualTo(1);
        assertThat(err()).contains("Error: Could not find or load main class TestRnak")
                .doesNotContain("not on the class path");
    }

    @Test
    void withBindToNoneRanksKeepEveryCpu() throws Exception {
        int n = Math.max(2, org.jmpi.launcher.proxy.HostProxyAccess.allowedCpus().size()); // a full host
        int code = jmpirun(Map.of(), "--no-stdin", "-n", Integer.toString(n), "--bind-to", "none", "--exec",
                "/bin/sh", "-c", "grep Cpus_allowed_list /proc/self/status");
        assertThat(code).as(err()).isZero();
        assertThat(out().lines()).as(out()).hasSize(n).containsOnly(ownCpus());
    }

    /**
     * Without --bind-to: a host that runs one rank per CPU binds each to its own, as --bind-to core would; with
     * fewer ranks than CPUs, or with the host's share of the CPUs given (JMPI_HOST_CPUS: hosts emulated on one
     * machine), every rank keeps every CPU.
     */
    @Test
    void byDefaultOnlyAFullHostBindsItsRanks() throws Exception {
        List<Integer> allowed = org.jmpi.launcher.proxy.HostProxyAccess.allowedCpus();
        org.junit.jupiter.api.Assumptions.assumeTrue(allowed.size() >= 2 && new java.io.File("/usr/bin/taskset")
                .canExecute(), "needs two CPUs, /proc/self/status and taskset");
        int n = allowed.size();
        String grep = "grep Cpus_allowed_list /proc/self/status";
        assertThat(jmpirun(Map.of(), "--no-stdin", "-n", Integer.toString(n), "--tag-output", "--exec", "/bin/sh",
                "-c", grep)).as(err()).isZero();
        for (int r = 0; r < n; r++) {
            assertThat(out().lines()).as(out()).contains("[" + r + "] Cpus_allowed_list:\t" + allowed.get(r));
        }
        out.reset();
        assertThat(jmpirun(Map.of(), "--no-stdin", "-n", Integer.toString(n - 1), "--exec", "/bin/sh", "-c", grep))
                .as(err()).isZero();
        assertThat(out().lines()).as(out()).hasSize(n - 1).containsOnly(ownCpus());
        out.reset();
        assertThat(jmpirun(Map.of(), "--no-stdin", "-n", Integer.toString(n), "-x", "JMPI_HOST_CPUS=1", "--exec",
                "/bin/sh", "-c", grep)).as(err()).isZero();
        assertThat(out().lines()).as(out()).hasSize(n).containsOnly(ownCpus());
    }

    private static String ownCpus() throws java.io.IOException {
        return java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow();
    }

    @Test
    void crowdedJvmRanksGetTheSerialCollectorUnlessTheyChooseOne() throws Exception {
        String javaExe = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        int cpus = Runtime.getRuntime().availableProcessors();
        // as many ranks as processors: serial
        assertThat(jmpirun(Map.of(), "--no-stdin", "-n", Integer.toString(cpus), "--exec", javaExe,
                "-XX:+PrintFlagsFinal", "-version")).as(err()).isZero();
        assertThat(out().lines().filter(l -> l.matches(".*\\bUseSerialGC\\b.*= true.*"))).hasSize(cpus);
        out.reset();
        // a collector the user chose is kept
        assertThat(jmpirun(Map.of(), "--no-stdin", "-n", Integer.toString(cpus), "--exec", javaExe,
                "-XX:+UseParallelGC", "-XX:+PrintFlagsFinal", "-version")).as(err()).isZero();
        assertThat(out().lines().filter(l -> l.matches(".*\\bUseSerialGC\\b.*= true.*"))).isEmpty();
        assertThat(out().lines().filter(l -> l.matches(".*\\bUseParallelGC\\b.*= true.*"))).hasSize(cpus);
        if (cpus > 1) {
            out.reset();
            // fewer ranks than processors: the JVM's own choice
            assertThat(jmpirun(Map.of(), "--no-stdin", "-n", "1", "--exec", javaExe, "-XX:+PrintFlagsFinal",
                    "-version")).as(err()).isZero();
            assertThat(out().lines().filter(l -> l.matches(".*\\bUseSerialGC\\b.*= true.*"))).isEmpty();
        }
    }

    /**
     * JVM ranks get org.jmpi.runtime.JitHints (a recv whose Status is ignored allocates nothing; the message path
     * compiles sooner); JMPI_JIT_HINTS=0.
     */
    @Test
    void jvmRanksGetTheJitHintsUnlessTurnedOff() throws Exception {
        String javaExe = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        assertThat(jmpirun(Map.of(), "--no-stdin", "-n", "2", "--exec", javaExe, "-XX:+PrintFlagsFinal", "-version"))
                .as(err()).isZero();
        assertThat(out().lines().filter(l -> l.matches("\\s*ccstrlist CompileCommand\\s+= quiet\\s*"))).hasSize(2);
        assertThat(out().lines().filter(l -> l.matches(
                "\\s*CompileCommand\\s+\\+= dontinline,mpi\\.\\*::\\*OutOfLine(\\s.*)?"))).hasSize(2);
        // and the message path compiles sooner: one line per rank and package
        assertThat(out().lines().filter(l -> l.matches(
                "\\s*CompileCommand\\s+\\+= CompileThresholdScaling,org\\.jmpi\\.pt2pt\\.\\*::\\*,0\\.4(\\s.*)?")))
                .hasSize(2);
        // but its compilations stay in the background: blocking ones made every job longer (JitHints)
        assertThat(out().lines().filter(l -> l.contains("BackgroundCompilation,"))).isEmpty();
        // the runtime stays out of C2 (JitHints.directives), and the JVM's note that it read them is not output
        assertThat(out().lines().filter(l -> l.matches(
                "\\s*ccstr CompilerDirectivesFile\\s+= .*/jmpi-jit-\\p{XDigit}{8}-\\d+\\.json\\s.*"))).hasSize(2);
        assertThat(out().lines().filter(l -> l.contains("compiler directives added"))).isEmpty();
        out.reset();
        assertThat(jmpirun(Map.of(), "--no-stdin", "-x", "JMPI_JIT_DIRECTIVES=0", "-n", "2", "--exec", javaExe,
                "-XX:+PrintFlagsFinal", "-version")).as(err()).isZero();
        assertThat(out().lines().filter(l -> l.contains("jmpi-jit-"))).isEmpty();
        assertThat(out().lines().filter(l -> l.contains("OutOfLine"))).hasSize(2);
        out.reset();
        // a directives file of the user's replaces jmpi's, and its note stays in the output, even when it reads as ours
        java.nio.file.Path own = java.nio.file.Files.createTempFile("own-directives", ".json");
        try {
            java.nio.file.Files.writeString(own, "[ { match: \"x/Y.z\", c2: { Exclude: true } },"
                    + " { match: \"x/Y.w\", c2: { Exclude: true } } ]");
            assertThat(jmpirun(Map.of(), "--no-stdin", "-n", "2", "--exec", javaExe, "-XX:+UnlockDiagnosticVMOptions",
                    "-XX:CompilerDirectivesFile=" + own, "-XX:+PrintFlagsFinal", "-version")).as(err()).isZero();
            assertThat(out().lines().filter(l -> l.endsWith("2 compiler directives added"))).hasSize(2);
            assertThat(out().lines().filter(l -> l.contains("jmpi-jit-"))).isEmpty();
        } finally {
            java.nio.file.Files.deleteIfExists(own);
        }
        out.reset();
        // and the option that lets a JVM without them take them from inside (JitHints.applyNow: --threads, jmpi-java)
        assertThat(jmpirun(Map.of(), "--no-stdin", "-n", "2", "-cp", LauncherTest.testClasses().toString(),
                TestRank.class.getName(), "directives")).as(err()).isZero();
        assertThat(out().lines().filter(l -> l.endsWith("directives true"))).hasSize(2);
        out.reset();
        assertThat(jmpirun(Map.of(), "--no-stdin", "-x", "JMPI_JIT_HINTS=0", "-n", "2", "-cp",
                LauncherTest.testClasses().toString(), TestRank.class.getName(), "directives")).as(err()).isZero();
        assertThat(out().lines().filter(l -> l.endsWith("directives false"))).hasSize(2);
        out.reset();
        assertThat(jmpirun(Map.of(), "--no-stdin", "-x", "JMPI_JIT_HINTS=0", "-n", "2", "--exec", javaExe,
                "-XX:+PrintFlagsFinal", "-version")).as(err()).isZero();
        assertThat(out().lines().filter(l -> l.contains("OutOfLine"))).isEmpty();
        assertThat(out().lines().filter(l -> l.contains("CompileThresholdScaling,"))).isEmpty();
    }

    @Test
    void cpuListsParse() {
        assertThat(org.jmpi.launcher.proxy.HostProxyAccess.parseCpuList("0-3,8,10-11"))
                .containsExactly(0, 1, 2, 3, 8, 10, 11);
        assertThat(org.jmpi.launcher.proxy.HostProxyAccess.parseCpuList("5")).containsExactly(5);
    }
}
