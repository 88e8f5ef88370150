package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.jmpi.launcher.ranks.ExecRank;
import org.jmpi.launcher.ranks.TestRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conformance with MPICH, when it is installed ({@code apt-get install mpich}; skipped otherwise): an unmodified
 * MPICH C program runs under our PMI server, and our PMI client runs under Hydra on {@code PMI_FD} and
 * {@code PMI_PORT}.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InteropTest {
    static Path onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    @Test
    void mpichCProgramRunsUnderJmpirun(@TempDir Path dir) throws Exception {
        Path mpicc = onPath("mpicc.mpich");
        assumeTrue(mpicc != null, "mpicc.mpich not installed");
        Path src = dir.resolve("hello.c");
        try (InputStream in = getClass().getResourceAsStream("/interop/mpich_hello.c")) {
            Files.copy(in, src);
        }
        Path exe = dir.resolve("hello");
        assertThat(runCommand(List.of(mpicc.toString(), "-o", exe.toString(), src.toString()), dir)).isZero();
        for (int n : new int[] {1, 2, 3}) {
            ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
            LaunchResult r = Launcher.builder().ranks(n).classpath(LauncherTest.testClasses())
                    .mainClass(ExecRank.class.getName()).args(exe.toString()).jvmArgs(LauncherTest.FAST_JVM)
                    .timeout(Duration.ofSeconds(60)).output((rank, stderr, line) -> lines.add(line)).build().run();
            assertThat(r.exitCode()).as(r.summary() + " " + lines).isZero();
            int sum = n * (n - 1) / 2;
            for (int rank = 0; rank < n; rank++) {
                assertThat(lines).contains("C/MPICH rank " + rank + "/" + n + " allreduce=" + sum + " token="
                        + (rank < 2 && n > 1 ? 42 : 0));
            }
        }
    }

    @Test
    void ourClientRunsUnderHydra(@TempDir Path dir) throws Exception {
        Path hydra = onPath("mpiexec.hydra");
        assumeTrue(hydra != null, "mpiexec.hydra not installed");
        String cp = LauncherTest.testClasses() + File.pathSeparator + Launcher.jmpiClassPath().get(0);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (List<String> mode : List.of(List.<String>of(), List.of("-pmi-port"))) {
            List<String> cmd = new ArrayList<>(List.of(hydra.toString()));
            cmd.addAll(mode);
            cmd.addAll(List.of("-n", "3", java, "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1",
                    "-cp", cp, TestRank.class.getName(), "exchange"));
            Path out = dir.resolve("out" + mode.size() + ".txt");
            assertThat(runCommand(cmd, dir, out)).as(Files.readString(out)).isZero();
            String text = Files.readString(out);
            for (int rank = 0; rank < 3; rank++) {
                assertThat(text).contains("rank " + rank + " env null/null local " + rank + "/3 job false sees "
                        + "0=hello-from-0-of-3 1=hello-from-1-of-3 2=hello-from-2-of-3 missing=null map=(vector,");
            }
        }
    }

    private static int runCommand(List<String> cmd, Path dir) throws Exception {
        Path out = Files.createTempFile(dir, "cmd", ".txt");
        int rc = runCommand(cmd, dir, out);
        if (rc != 0) {
            System.err.println(Files.readString(out, StandardCharsets.UTF_8));
        }
        return rc;
    }

    /** Runs a command with a hard 60 s limit, killing it and its descendants (by pid) if it overruns. */
    static int runCommand(List<String> cmd, Path dir, Path output) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("timed out: " + cmd);
        }
        return p.exitValue();
    }
}
