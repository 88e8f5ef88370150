package org.jmpi.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's own Maven project, as docs/using-jmpi.md describes it: it imports jmpi-bom, depends on jmpi-core and (for
 * tests) jmpi-junit, has a program and an {@code @MpiTest}, and is built with Maven against the artefacts this build
 * made, installed into a local repository of its own (everything else comes from the build's local repository, so
 * it runs offline). Then the distribution's jmpirun runs the program from the project's classes.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class UserProjectTest {
    private static final String VERSION = System.getProperty("project.version");

    @Test
    void aThrowAwayProjectBuildsAndTestsWithTheInstalledArtefacts(@TempDir Path tmp) throws Exception {
        Path dist = Path.of(System.getProperty("jmpi.dist", "target/jmpi")).toAbsolutePath();
        Path root = dist.getParent().getParent().getParent();
        String m2 = System.getProperty("jmpi.m2", "");
        assumeTrue(!m2.isBlank() && Files.isDirectory(Path.of(m2)), "the build's local repository is unknown");
        Path repo = tmp.resolve("repo");
        install(repo, "jmpi-parent", root.resolve("pom.xml"), null);
        install(repo, "jmpi-bom", root.resolve("jmpi-bom/pom.xml"), null);
        for (String m : List.of("jmpi-core", "jmpi-launcher", "jmpi-junit")) {
            install(repo, m, root.resolve(m).resolve("pom.xml"),
                    root.resolve(m).resolve("target").resolve(m + "-" + VERSION + ".jar"));
        }
        Path app = tmp.resolve("app");
        Files.createDirectories(app.resolve("src/main/java/app"));
        Files.createDirectories(app.resolve("src/test/java/app"));
        Files.writeString(app.resolve("pom.xml"), pom());
        Files.writeString(app.resolve("src/main/java/app/Sum.java"), """
                package app;

                import mpi.MPI;

                public class Sum {
                    public static int sumOfRanks() throws mpi.MPIException {
                        int[] one = {MPI.COMM_WORLD.getRank() + 1};
                        int[] sum = new int[1];
                        MPI.COMM_WORLD.allReduce(one, sum, 1, MPI.INT, MPI.SUM);
                        return sum[0];
                    }

                    public static void main(String[] args) throws mpi.MPIException {
                        MPI.Init(args);
                        int s = sumOfRanks();
                        if (MPI.COMM_WORLD.getRank() == 0) {
                            System.out.println("sum of ranks " + s + " on " + MPI.COMM_WORLD.getSize());
                        }
                        MPI.Finalize();
                    }
                }
                """);
        Files.writeString(app.resolve("src/test/java/app/SumTest.java"), """
                package app;

                import static org.junit.jupiter.api.Assertions.assertEquals;

                import mpi.MPI;
                import org.jmpi.junit.Mode;
                import org.jmpi.junit.MpiTest;

                class SumTest {
                    @MpiTest(ranks = {1, 3}, modes = {Mode.THREADS, Mode.PROCESSES}, timeoutSeconds = 60)
                    void everyRankAddsItself() throws Exception {
                        int n = MPI.COMM_WORLD.getSize();
                        assertEquals(n * (n + 1) / 2, Sum.sumOfRanks());
                    }
                }
                """);
        List<String> mvn = new ArrayList<>(List.of(root.resolve("mvnw").toString(), "-B", "-o", "-q",
                "-Dmaven.repo.local=" + repo, "-Dmaven.repo.local.tail=" + m2, "test"));
        Result built = run(mvn, app);
        assertThat(built.exit()).as(built.output()).isZero();
        String report = Files.readString(app.resolve("target/surefire-reports/TEST-app.SumTest.xml"));
        assertThat(report).as("4 invocations: 1 and 3 ranks, threads and processes").contains("tests=\"4\"")
                .contains("failures=\"0\"").contains("errors=\"0\"");

        Result ran = run(List.of(dist.resolve("bin/jmpirun").toString(), "-n", "3", "-cp",
                app.resolve("target/classes").toString(), "app.Sum"), app);
        assertThat(ran.exit()).as(ran.output()).isZero();
        assertThat(ran.output()).contains("sum of ranks 6 on 3");
    }

    private static String pom() {
        return """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>example</groupId>
                  <artifactId>app</artifactId>
                  <version>1</version>
                  <properties>
                    <maven.compiler.release>25</maven.compiler.release>
                    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
                  </properties>
                  <dependencyManagement>
                    <dependencies>
                      <dependency>
                        <groupId>org.jmpi</groupId><artifactId>jmpi-bom</artifactId><version>VERSION</version>
                        <type>pom</type><scope>import</scope>
                      </dependency>
                    </dependencies>
                  </dependencyManagement>
                  <dependencies>
                    <dependency><groupId>org.jmpi</groupId><artifactId>jmpi-core</artifactId></dependency>
                    <dependency>
                      <groupId>org.jmpi</groupId><artifactId>jmpi-junit</artifactId><scope>test</scope>
                    </dependency>
                    <dependency>
                      <groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId>
                      <version>JUNIT</version><scope>test</scope>
                    </dependency>
                  </dependencies>
                  <build>
                    <plugins>
                      <plugin>
                        <groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId>
                        <version>3.13.0</version>
                      </plugin>
                      <plugin>
                        <groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId>
                        <version>SUREFIRE</version>
                        <configuration><argLine>--enable-native-access=ALL-UNNAMED</argLine></configuration>
                      </plugin>
                    </plugins>
                  </build>
                </project>
                """.replace("VERSION", VERSION).replace("JUNIT", System.getProperty("junit.version"))
                .replace("SUREFIRE", System.getProperty("surefire.version"));
    }

    /** Puts {@code pom} (and {@code jar}) where a local repository keeps org.jmpi:artifact:VERSION. */
    private static void install(Path repo, String artifact, Path pom, Path jar) throws Exception {
        Path dir = Files.createDirectories(repo.resolve("org/jmpi").resolve(artifact).resolve(VERSION));
        Files.copy(pom, dir.resolve(artifact + "-" + VERSION + ".pom"));
        if (jar != null) {
            assertThat(jar).as("built jar").isRegularFile();
            Files.copy(jar, dir.resolve(artifact + "-" + VERSION + ".jar"));
        }
    }

    private record Result(int exit, String output) {}

    private static Result run(List<String> cmd, Path cwd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(240, TimeUnit.SECONDS)).as("ended: " + cmd).isTrue();
        return new Result(p.exitValue(), out);
    }
}
