package org.jmpi.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tarball the build makes ({@code target/jmpi-<version>.tar.gz}): unpacked with {@code tar} into a fresh
 * directory, it has its layout, the two commands of its README run an example, and {@code bin/} works from another
 * directory and through symlinks.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class TarballTest {
    @TempDir
    static Path tmp;
    private static Path home;

    @BeforeAll
    static void unpack() throws Exception {
        Path tarball = Path.of(System.getProperty("jmpi.tarball", "target/none.tar.gz")).toAbsolutePath();
        assumeTrue(Files.isRegularFile(tarball), "no tarball at " + tarball);
        Path into = Files.createDirectories(tmp.resolve("unpacked"));
        Result r = run(List.of("tar", "xzf", tarball.toString(), "-C", into.toString()), into, Map.of());
        assertThat(r.exit()).as(r.output()).isZero();
        try (var s = Files.list(into)) {
            List<Path> top = s.toList();
            assertThat(top).as("one top directory").hasSize(1);
            home = top.get(0);
        }
        assertThat(home.getFileName().toString()).startsWith("jmpi-");
    }

    private record Result(int exit, String output) {}

    private static Result run(List<String> cmd, Path cwd, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("CLASSPATH");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("ended: " + cmd).isTrue();
        return new Result(p.exitValue(), out);
    }

    @Test
    void itHoldsTheCommandsTheJarsTheDocsAndTheExamples() {
        for (String cmd : List.of("jmpirun", "mpirun", "mpiexec", "mpijavac", "jmpi-java", "jmpi-nameserver")) {
            assertThat(home.resolve("bin").resolve(cmd)).isExecutable();
        }
        for (String jar : List.of("jmpi-core.jar", "jmpi-launcher.jar", "jmpi-examples.jar", "jmpi-dl.jar",
                "picocli.jar")) {
            assertThat(home.resolve("lib").resolve(jar)).isRegularFile();
        }
        assertThat(home.resolve("README.md")).content().contains("jmpi ").doesNotContain("${project.version}");
        assertThat(home.resolve("docs/launching.md")).isRegularFile();
        assertThat(home.resolve("examples/org/jmpi/examples/Ring.java")).isRegularFile();
    }

    @Test
    void theTwoCommandsOfItsReadmeRunExamples() throws Exception {
        List<String> commands = readmeCommands(home.resolve("README.md"));
        assertThat(commands).as("the README's first sh block").hasSize(2);
        StringBuilder all = new StringBuilder();
        for (String c : commands) {
            Result r = run(List.of("bash", "-c", c), home, Map.of());
            assertThat(r.exit()).as(c + "\n" + r.output()).isZero();
            all.append(r.output());
        }
        assertThat(all.toString()).contains("Hello from rank 0 of 4", "Hello from rank 3 of 4",
                "rank 0 saw the token 10 times", "rank 2 saw the token 11 times");
    }

    @Test
    void binWorksFromAnotherDirectoryAndThroughSymlinks() throws Exception {
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Path link = Files.createSymbolicLink(elsewhere.resolve("jr"), home.resolve("bin/jmpirun"));
        Path linkToLink = Files.createSymbolicLink(elsewhere.resolve("jr2"), link);
        for (Path p : List.of(link, linkToLink)) {
            Result r = run(List.of(p.toString(), "-n", "2", "org.jmpi.examples.Hello"), elsewhere, Map.of());
            assertThat(r.exit()).as(r.output()).isZero();
            assertThat(r.output()).contains("Hello from rank 0 of 2", "Hello from rank 1 of 2");
        }
    }

    @Test
    void theUnpackedCopyKeepsItsClassCaches() throws Exception {
        assumeTrue(Files.isDirectory(home.resolve("lib/aot")), "the build made no caches");
        Result r = run(List.of(home.resolve("bin/jmpirun").toString(), "-n", "2", "--jvm-arg", "-Xlog:aot=info",
                "org.jmpi.examples.Hello"), home, Map.of());
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output().split("Using AOT-linked classes: true", -1)).as(r.output()).hasSize(3);
    }

    /** The lines of the first {@code ```sh} block. */
    static List<String> readmeCommands(Path readme) throws IOException {
        List<String> out = new ArrayList<>();
        boolean in = false;
        for (String line : Files.readAllLines(readme)) {
            if (!in && line.trim().equals("```sh")) {
                in = true;
            } else if (in && line.trim().equals("```")) {
                break;
            } else if (in && !line.isBlank()) {
                out.add(line);
            }
        }
        return out;
    }
}
