package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.jmpi.launcher.ranks.TestRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, items 10 and 12: {@code jmpirun -n 4 java ... Main} adds jmpi to the java command line, and
 * {@code bin/jmpi-java} starts ranks under another launcher (Hydra) with jmpi's class path and no JDK warnings.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JavaCommandTest {
    private static final List<Path> JMPI = List.of(Path.of("/opt/jmpi/lib/jmpi-core.jar"));
    private static final String J = File.pathSeparator + "/opt/jmpi/lib/jmpi-core.jar";
    private final PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @Test
    void theJavaCommandGetsJmpisClassPathAndOptions(@TempDir Path dir) throws Exception {
        assertThat(JavaCommand.isJava("java")).isTrue();
        assertThat(JavaCommand.isJava("/usr/lib/jvm/x/bin/java")).isTrue();
        assertThat(JavaCommand.isJava("./a.out")).isFalse();
        // no class path: java's default (CLASSPATH, else .) plus jmpi
        assertThat(JavaCommand.withJmpi(List.of("Main", "a"), JMPI, null, quiet))
                .containsExactly("--enable-native-access=ALL-UNNAMED", "-cp", "." + J, "Main", "a");
        assertThat(JavaCommand.withJmpi(List.of("-Xmx1g", "Main"), JMPI, "lib/x.jar", quiet))
                .containsExactly("--enable-native-access=ALL-UNNAMED", "-Xmx1g", "-cp", "lib/x.jar" + J, "Main");
        // the user's class path keeps its place, jmpi after it; options with values are kept whole
        assertThat(JavaCommand.withJmpi(List.of("-Xmx1g", "-cp", "app.jar", "--add-opens", "a/b=ALL-UNNAMED", "Main",
                "-cp"), JMPI, "ignored", quiet)).containsExactly("--enable-native-access=ALL-UNNAMED", "-Xmx1g",
                        "-cp", "app.jar" + J, "--add-opens", "a/b=ALL-UNNAMED", "Main", "-cp");
        assertThat(JavaCommand.withJmpi(List.of("--class-path=a:b", "--enable-native-access=ALL-UNNAMED", "M"), JMPI,
                null, quiet)).containsExactly("--class-path=a:b" + J, "--enable-native-access=ALL-UNNAMED", "M");
        // java -jar ignores class paths: it becomes -cp app.jar:jmpi Main-Class
        Path jar = dir.resolve("app.jar");
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "org.example.App");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
            out.flush();
        }
        assertThat(JavaCommand.withJmpi(List.of("-Xss2m", "-jar", jar.toString(), "x"), JMPI, null, quiet))
                .containsExactly("--enable-native-access=ALL-UNNAMED", "-Xss2m", "-cp", jar + J, "org.example.App",
                        "x");
    }

    @Test
    void theOptionsAndTheUsersClassPathOfAJavaCommandAreToldApart() {
        List<Path> jmpi = List.of(Path.of("/opt/jmpi/lib/jmpi-core.jar"));
        List<String> args = List.of("-Xmx1g", "-cp", "app.jar:/opt/jmpi/lib/jmpi-core.jar:classes", "-ea", "Main", "-cp",
                "not.an.option");
        assertThat(JavaCommand.options(args)).containsExactly("-Xmx1g", "-cp",
                "app.jar:/opt/jmpi/lib/jmpi-core.jar:classes", "-ea");
        assertThat(JavaCommand.classPath(args, jmpi)).containsExactly(Path.of("app.jar"), Path.of("classes"));
        assertThat(JavaCommand.classPath(List.of("--class-path=a:b", "-jar", "x.jar"), jmpi))
                .containsExactly(Path.of("a"), Path.of("b"));
        assertThat(JavaCommand.options(List.of("-m", "mod/Main", "-Xmx1g"))).isEmpty();
        assertThat(JavaCommand.classPath(List.of("Main"), jmpi)).isEmpty();
    }

    /** Open MPI's idiom and the example of docs/launching.md: the program is java, the ranks find jmpi. */
    @Test
    void jmpirunRunsJavaWithJmpi() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = JmpiRun.execute(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), "--no-stdin", "-n", "2",
                LaunchIntegrationTest.JAVA, "-XX:TieredStopAtLevel=1", "-Xmx256m", "-cp",
                LauncherTest.testClasses().toString(), TestRank.class.getName(), "hello");
        String all = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertThat(code).as(all).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactlyInAnyOrder("hello from rank 0",
                "hello from rank 1");
        assertThat(all).doesNotContain("NoClassDefFoundError", "WARNING");
    }

    /** bin/jmpi-java under mpiexec.hydra: two ranks that talk over shared memory, and no JDK warning. */
    @Test
    void jmpiJavaRunsRanksUnderHydra(@TempDir Path dir) throws Exception {
        Path hydra = InteropTest.onPath("mpiexec.hydra");
        assumeTrue(hydra != null, "mpiexec.hydra not installed");
        // a distribution's layout: bin/jmpi-java beside lib/jmpi-core.jar
        Path script = Path.of("..", "jmpi-dist", "src", "bin", "jmpi-java").toAbsolutePath().normalize();
        Files.createDirectories(dir.resolve("bin"));
        Files.createDirectories(dir.resolve("lib"));
        Files.copy(script, dir.resolve("bin/jmpi-java"));
        dir.resolve("bin/jmpi-java").toFile().setExecutable(true);
        Files.createSymbolicLink(dir.resolve("lib/jmpi-core.jar"), Launcher.jmpiClassPath().get(0).toAbsolutePath());
        List<String> cmd = new ArrayList<>(List.of(hydra.toString(), "-n", "2", "-env", "JAVA_HOME",
                System.getProperty("java.home"), dir.resolve("bin/jmpi-java").toString(), "-XX:TieredStopAtLevel=1",
                "-cp", LauncherTest.testClasses().toString(), "org.jmpi.launcher.ranks.HiddenMain"));
        Path out = dir.resolve("out.txt");
        assertThat(InteropTest.runCommand(cmd, dir, out)).as(Files.readString(out)).isZero();
        String text = Files.readString(out);
        assertThat(text).contains("hidden main on rank 0", "hidden main on rank 1").doesNotContain("WARNING");
    }
}
