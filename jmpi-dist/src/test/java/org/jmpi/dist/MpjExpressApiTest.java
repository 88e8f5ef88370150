package org.jmpi.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Programs written for MPJ Express (the mpiJava 1.2 API) on the distribution's MPJ_HOME ({@code mpj/}): compiled
 * against {@code mpj/lib/mpj.jar} and started with {@code mpj/bin/mpjrun.sh}, in threads ({@code -dev multicore}) and
 * processes ({@code -dev niodev}), at 2 and 3 ranks. The programs (src/test/resources/mpj) check their results
 * themselves and print a FAIL line per failed check, and rank 0 prints "DONE name" after a final barrier.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MpjExpressApiTest {
    private static Path dist;
    private static Path mpjHome;

    @TempDir
    static Path classes;

    @BeforeAll
    static void compile() throws Exception {
        dist = Path.of(System.getProperty("jmpi.dist", "target/jmpi")).toAbsolutePath();
        mpjHome = dist.resolve("mpj");
        assumeTrue(Files.isRegularFile(mpjHome.resolve("lib/mpj.jar")), "no laid-out distribution at " + dist);
        List<String> args = new ArrayList<>(List.of("-nowarn", "-d", classes.toString(), "-cp",
                mpjHome.resolve("lib/mpj.jar").toString()));
        for (String name : List.of("MpjCheck", "MpjPointToPoint", "MpjObjects", "MpjDatatypes", "MpjLaunch")) {
            Path src = classes.resolve(name + ".java");
            try (InputStream in = MpjExpressApiTest.class.getResourceAsStream("/mpj/" + name + ".java")) {
                Files.write(src, in.readAllBytes());
            }
            args.add(src.toString());
        }
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(String[]::new));
        assertThat(rc).as("javac of the MPJ test programs against mpj.jar").isZero();
    }

    private record Run(int code, String output) {
        List<String> lines() {
            return output.lines().toList();
        }
    }

    private static Run run(String... cmd) throws Exception {
        return run(Map.of(), cmd);
    }

    private static Run run(Map<String, String> env, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).directory(classes.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("did not end: " + List.of(cmd) + "\n" + new String(out));
        }
        return new Run(p.exitValue(), new String(out));
    }

    private static Run mpjrun(String dev, int np, String... program) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(mpjHome.resolve("bin/mpjrun.sh").toString(), "-np",
                Integer.toString(np), "-dev", dev, "-cp", classes.toString()));
        cmd.addAll(List.of(program));
        return run(cmd.toArray(String[]::new));
    }

    @ParameterizedTest(name = "{0} on {1} ranks, {2}")
    @CsvSource({
        "MpjPointToPoint, 2, multicore", "MpjPointToPoint, 3, multicore", "MpjPointToPoint, 3, niodev",
        "MpjObjects, 2, multicore", "MpjObjects, 3, multicore", "MpjObjects, 3, niodev",
        "MpjDatatypes, 2, niodev", "MpjDatatypes, 3, multicore", "MpjDatatypes, 3, niodev"})
    void programsOfTheMpjApiRunUnchanged(String program, int np, String dev) throws Exception {
        Run r = mpjrun(dev, np, program);
        assertThat(r.output()).as(r.output()).doesNotContain("FAIL").contains("DONE " + program);
        assertThat(r.code()).as(r.output()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"multicore", "niodev"})
    void ranksGetMpjExpressLeadingArgumentsAndInitReturnsTheProgramsOwn(String dev) throws Exception {
        Run r = mpjrun(dev, 2, "MpjLaunch", "a b", "c");
        assertThat(r.code()).as(r.output()).isZero();
        assertThat(r.lines()).contains("rank 0 main 0,jmpi-mpj," + dev + ",a b,c init a b,c",
                "rank 1 main 1,jmpi-mpj," + dev + ",a b,c init a b,c");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"multicore", "niodev"})
    void aRankThatThrowsFailsTheJob(String dev) throws Exception {
        Run r = mpjrun(dev, 3, "MpjLaunch", "fail", "1");
        assertThat(r.code()).as(r.output()).isNotZero();
        assertThat(r.output()).contains("rank 1 fails on purpose");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"multicore", "niodev"})
    void abortEndsTheJobWithItsCode(String dev) throws Exception {
        Run r = mpjrun(dev, 3, "MpjLaunch", "abort", "2");
        assertThat(r.code()).as(r.output()).isEqualTo(5);
    }

    @Test
    void aJarRunsByItsMainClass() throws Exception {
        Path jar = classes.resolve("launch.jar");
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "MpjLaunch");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
            out.putNextEntry(new JarEntry("MpjLaunch.class"));
            out.write(Files.readAllBytes(classes.resolve("MpjLaunch.class")));
            out.closeEntry();
        }
        Path tmp = Files.createTempDirectory("mpjrun-tmp");
        Run r = run(Map.of("TMPDIR", tmp.toString()), mpjHome.resolve("bin/mpjrun.sh").toString(), "-np", "2",
                "-Xmx256m", "-jar", jar.toString(), "x");
        assertThat(r.code()).as(r.output()).isZero();
        assertThat(r.lines()).contains("rank 1 main 1,jmpi-mpj,multicore,x init x");
        try (var left = Files.list(tmp)) {
            assertThat(left.toList()).as("what mpjrun.sh left in its TMPDIR (the manifest's copy)").isEmpty();
        }
        Files.delete(tmp);
    }

    @Test
    void jmpirunAndJmpiJavaTakeTheApiToo() throws Exception {
        Run cp = run(dist.resolve("bin/jmpirun").toString(), "--api", "mpj", "--classpath");
        assertThat(cp.output().strip()).endsWith("jmpi-mpj.jar");
        Run r = run(dist.resolve("bin/jmpirun").toString(), "--api", "mpj", "-n", "2", "-cp", classes.toString(),
                "MpjLaunch", "z");
        assertThat(r.lines()).as(r.output()).contains("rank 1 main 1,jmpi-mpj,niodev,z init z");
        Run single = run(dist.resolve("bin/jmpi-java").toString(), "--api", "mpj", "-cp", classes.toString(),
                "MpjLaunch", "solo");
        assertThat(single.lines()).as(single.output()).contains("rank 0 main solo init solo");
        Run bad = run(dist.resolve("bin/jmpirun").toString(), "--api", "mpi", "-n", "1", "MpjLaunch");
        assertThat(bad.output()).contains("--api takes ompi or mpj");
    }

    /**
     * The observability tools see an MPJ program's calls through the Open MPI facade it is built on (moved to
     * org.jmpi.mpj.ompi inside jmpi-mpj.jar, which is also the agent's jar): the summary counts them, the trace draws
     * the point-to-point messages, in processes and in threads mode (there the ranks' loaders intercept, with the
     * moved facade's own interception).
     */
    @Test
    void summaryAndTraceSeeTheCallsOfMpjPrograms() throws Exception {
        String jmpirun = dist.resolve("bin/jmpirun").toString();
        Run summary = run(jmpirun, "--api", "mpj", "--summary", "-n", "2", "-cp", classes.toString(), "MpjLaunch");
        assertThat(summary.code()).as(summary.output()).isZero();
        assertThat(summary.output()).contains("time in MPI per rank").containsPattern("MPI.Init +2 ")
                .containsPattern("MPI.Finalize +2 ").containsPattern("barrier +2 ");
        Path trace = classes.resolve("mpj-trace.json");
        Run traced = run(jmpirun, "--api", "mpj", "--trace", trace.toString(), "-n", "3", "-cp", classes.toString(),
                "MpjPointToPoint");
        assertThat(traced.output()).as(traced.output()).doesNotContain("FAIL").contains("DONE MpjPointToPoint");
        assertThat(traced.code()).as(traced.output()).isZero();
        String json = Files.readString(trace);
        assertThat(json).contains("\"name\":\"Comm.recv\"").contains("\"ph\":\"s\"").contains("\"ph\":\"f\"");
        Run threads = run(jmpirun, "--api", "mpj", "--threads", "--summary", "-n", "3", "-cp", classes.toString(),
                "MpjPointToPoint");
        assertThat(threads.code()).as(threads.output()).isZero();
        assertThat(threads.output()).doesNotContain("FAIL").contains("DONE MpjPointToPoint")
                .containsPattern("MPI.Init +3 ").containsPattern("Comm.recv +[1-9]");
    }


    /**
     * Process managers other than jmpirun start MPJ programs through {@code jmpi-java --api mpj}, as they start Open
     * MPI ones through {@code jmpi-java}: Hydra ({@code mpiexec.hydra}, PMI over an inherited descriptor) with 3
     * ranks, and a one-node Slurm ({@code srun --mpi=pmi2}; the launcher module's {@code slurm-local.sh}) with 2. Runs
     * where the launch-integration tests run: in CI ({@code JMPI_REQUIRE_INTEGRATION=1}, where a missing piece fails
     * the test) or with {@code JMPI_INTEGRATION=1}, as root with Debian's mpich and Slurm installed.
     */
    @Test
    void hydraAndSlurmStartMpjProgramsThroughJmpiJava(@TempDir Path slurmDir) throws Exception {
        boolean required = "1".equals(System.getenv("JMPI_REQUIRE_INTEGRATION"));
        assumeTrue(required || "1".equals(System.getenv("JMPI_INTEGRATION")),
                "skipped: set JMPI_INTEGRATION=1 to run the launch-integration tests");
        Path script = dist.getParent().getParent().resolveSibling("jmpi-launcher/src/test/scripts/slurm-local.sh");
        boolean root = run("id", "-u").output().strip().equals("0");
        for (var need : Map.of("/usr/bin/mpiexec.hydra (Debian's mpich)", Files.isExecutable(Path.of(
                "/usr/bin/mpiexec.hydra")), "/usr/sbin/slurmd (Slurm)", Files.isExecutable(Path.of("/usr/sbin/slurmd")),
                "root (to start Slurm's daemons)", root, script.toString(), Files.isRegularFile(script)).entrySet()) {
            if (!need.getValue() && required) {
                fail("needs " + need.getKey() + " (JMPI_REQUIRE_INTEGRATION=1)");
            }
            assumeTrue(need.getValue(), "skipped: needs " + need.getKey());
        }
        String jmpiJava = dist.resolve("bin/jmpi-java").toString();
        Run hydra = run("mpiexec.hydra", "-n", "3", jmpiJava, "--api", "mpj", "-cp", classes.toString(),
                "MpjLaunch", "h");
        assertThat(hydra.code()).as(hydra.output()).isZero();
        assertThat(hydra.lines()).as(hydra.output()).contains("rank 0 main h init h", "rank 1 main h init h",
                "rank 2 main h init h");
        Run up = run("bash", script.toString(), "up", slurmDir.toString());
        try {
            assertThat(up.code()).as(up.output()).isZero();
            Run srun = run(Map.of("SLURM_CONF", slurmDir.resolve("slurm.conf").toString()), "srun", "-n", "2",
                    "--mpi=pmi2", jmpiJava, "--api", "mpj", "-cp", classes.toString(), "MpjLaunch", "s");
            assertThat(srun.code()).as(srun.output()).isZero();
            assertThat(srun.lines()).as(srun.output()).contains("rank 0 main s init s", "rank 1 main s init s");
        } finally {
            run("bash", script.toString(), "down", slurmDir.toString());
        }
    }

    @Test
    void mpjHomeHasTheMpjExpressLayoutAndOneFacade() throws Exception {
        assertThat(run(mpjHome.resolve("bin/mpjboot").toString()).code()).isZero();
        assertThat(run(mpjHome.resolve("bin/mpjhalt").toString()).code()).isZero();
        try (JarFile jar = new JarFile(mpjHome.resolve("lib/mpj.jar").toFile())) {
            // the mpiJava classes, the runtime, and the Open MPI facade only under its moved name
            assertThat(jar.getEntry("mpi/Cartcomm.class")).isNotNull();
            assertThat(jar.getEntry("mpi/CartComm.class")).isNull();
            assertThat(jar.getEntry("org/jmpi/mpj/ompi/CartComm.class")).isNotNull();
            assertThat(jar.getEntry("org/jmpi/runtime/JmpiRuntime.class")).isNotNull();
            assertThat(jar.getEntry("mpjbuf/Buffer.class")).isNotNull();
            assertThat(jar.getEntry("module-info.class")).isNull();
        }
    }
}
