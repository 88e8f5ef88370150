package org.jmpi.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which java {@code bin/jmpi-java} runs: the one jmpirun would run on, passing over an older default {@code java}
 * first on the PATH (every rank used to die with UnsupportedClassVersionError there), and refusing, in one line, a
 * {@code JMPI_JAVA} that is too old.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JmpiJavaScriptTest {
    private static Path dist;

    @TempDir
    Path dir;

    @BeforeAll
    static void distribution() {
        dist = Path.of(System.getProperty("jmpi.dist", "target/jmpi")).toAbsolutePath();
        assumeTrue(Files.isRegularFile(dist.resolve("bin/jmpi-java")), "no laid-out distribution at " + dist);
    }

    private record Run(int code, String output) {}

    private static Run run(Map<String, String> env, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("JAVA_HOME");
        pb.environment().remove("JMPI_JAVA");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("ended: " + List.of(cmd)).isTrue();
        return new Run(p.exitValue(), out);
    }

    /** A fake JDK 17 whose {@code bin/java} only says that it ran. */
    private Path oldJava() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("jdk-17/bin"));
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/sh\necho 'the old java ran'\nexit 1\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(dir.resolve("jdk-17/release"), "JAVA_VERSION=\"17.0.15\"\n");
        return java;
    }

    @Test
    void anOlderJavaFirstOnThePathIsPassedOver() throws Exception {
        // without JAVA_HOME the script looks in /usr/lib/jvm, as jmpirun does: this JDK must be there
        assumeTrue(Path.of(System.getProperty("java.home")).toRealPath().startsWith("/usr/lib/jvm"),
                "this JDK is not under /usr/lib/jvm");
        Path old = oldJava();
        Run r = run(Map.of("PATH", old.getParent() + ":/usr/bin:/bin"), dist.resolve("bin/jmpi-java").toString(),
                "-version");
        assertThat(r.code()).as(r.output()).isZero();
        assertThat(r.output()).contains("version \"" + Runtime.version().feature()).doesNotContain("old java ran");
    }

    @Test
    void aJmpiJavaThatIsTooOldIsRefusedInOneLine() throws Exception {
        Path old = oldJava();
        Run r = run(Map.of("JMPI_JAVA", old.toString()), dist.resolve("bin/jmpi-java").toString(), "-cp", ".",
                "Main");
        assertThat(r.code()).isEqualTo(127);
        assertThat(r.output().lines()).containsExactly("jmpi-java: JMPI_JAVA=" + old
                + " is Java 17; jmpi needs Java 25 or later (name the java of a JDK 25)");
    }
}
