package org.jmpi.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's own Maven project, as docs/using-jmpi.md describes it: the page's own {@code pom.xml} (it imports jmpi-bom,
 * depends on jmpi-core and, for tests, jmpi-junit, and pins its plugins' versions), a program and an {@code @MpiTest},
 * built with Maven against the artefacts this build made, installed into a local repository of its own (everything
 * else comes from the build's local repository, so it runs offline): with the build's Maven (mvnw), and with a plain
 * {@code mvn} when one is installed (Debian's is 3.8, whose default plugins, Surefire 2.12 among them, do not run
 * JUnit 5 tests: the page's pins must hold). Then the distribution's jmpirun runs the program from the project's
 * classes.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class UserProjectTest {
    private static final String VERSION = System.getProperty("project.version");

    @Test
    void thePagesProjectBuildsAndTestsWithTheBuildsMaven(@TempDir Path tmp) throws Exception {
        Path m2 = buildRepository();
        Path repo = installedArtefacts(tmp);
        Path app = project(tmp);
        check(app, run(List.of(root().resolve("mvnw").toString(), "-B", "-o", "-q", "-Dmaven.repo.local=" + repo,
                "-Dmaven.repo.local.tail=" + m2, "test"), app));
    }

    /**
     * The same project with a plain {@code mvn} (Debian's 3.8.7 here), which has no second local repository: the
     * build's local repository serves as a file repository ahead of Maven Central, which is asked only for what the
     * build never needed (Maven 3.8 adds plexus-utils 1.1 to plugins that do not name a plexus-utils).
     */
    @Test
    void thePagesProjectBuildsAndTestsWithAPlainMvn(@TempDir Path tmp) throws Exception {
        Path m2 = buildRepository();
        Path mvn = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(d -> !d.isBlank()).map(d -> Path.of(d, "mvn")).filter(Files::isExecutable).findFirst()
                .orElse(null);
        assumeTrue(mvn != null, "no mvn on the PATH");
        Path repo = installedArtefacts(tmp);
        Path app = project(tmp);
        Path settings = tmp.resolve("settings.xml");
        Files.writeString(settings, """
                <settings>
                  <profiles>
                    <profile>
                      <id>build-repository</id>
                      <repositories><repository><id>build</id><url>URL</url></repository></repositories>
                      <pluginRepositories>
                        <pluginRepository><id>build-plugins</id><url>URL</url></pluginRepository>
                      </pluginRepositories>
                    </profile>
                  </profiles>
                  <activeProfiles><activeProfile>build-repository</activeProfile></activeProfiles>
                </settings>
                """.replace("URL", m2.toUri().toString()));
        check(app, run(List.of(mvn.toString(), "-B", "-q", "-s", settings.toString(), "-Dmaven.repo.local=" + repo,
                "test"), app));
    }

    private static Path root() {
        return dist().getParent().getParent().getParent();
    }

    private static Path dist() {
        return Path.of(System.getProperty("jmpi.dist", "target/jmpi")).toAbsolutePath();
    }

    private static Path buildRepository() {
        String m2 = System.getProperty("jmpi.m2", "");
        assumeTrue(!m2.isBlank() && Files.isDirectory(Path.of(m2)), "the build's local repository is unknown");
        return Path.of(m2);
    }

    /** A local repository holding the artefacts this build made (and nothing else). */
    private static Path installedArtefacts(Path tmp) throws Exception {
        Path repo = tmp.resolve("repo");
        Path root = root();
        install(repo, "jmpi-parent", root.resolve("pom.xml"), null);
        install(repo, "jmpi-bom", root.resolve("jmpi-bom/pom.xml"), null);
        for (String m : List.of("jmpi-core", "jmpi-launcher", "jmpi-junit")) {
            install(repo, m, root.resolve(m).resolve("pom.xml"),
                    root.resolve(m).resolve("target").resolve(m + "-" + VERSION + ".jar"));
        }
        return repo;
    }

    /** The {@code pom.xml} of docs/using-jmpi.md: its one XML block that is a whole project. */
    static String pagePom() throws Exception {
        String page = Files.readString(root().resolve("docs/using-jmpi.md"));
        Matcher m = Pattern.compile("```xml\n(<project[\\s\\S]*?</project>\n)```").matcher(page);
        assertThat(m.find()).as("docs/using-jmpi.md shows a whole pom.xml").isTrue();
        return m.group(1);
    }

    private static Path project(Path tmp) throws Exception {
        String pom = pagePom();
        assertThat(pom).as("the page's pom imports this version's BOM")
                .contains("<artifactId>jmpi-bom</artifactId>\n        <version>" + VERSION + "</version>");
        Path app = tmp.resolve("app");
        Files.createDirectories(app.resolve("src/main/java/app"));
        Files.createDirectories(app.resolve("src/test/java/app"));
        Files.writeString(app.resolve("pom.xml"), pom);
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
        return app;
    }

    /** The build passed, its tests ran (4 invocations), and jmpirun runs the program from its classes. */
    private static void check(Path app, Result built) throws Exception {
        assertThat(built.exit()).as(built.output()).isZero();
        Path report = app.resolve("target/surefire-reports/TEST-app.SumTest.xml");
        assertThat(report).as("the @MpiTest ran: " + built.output()).isRegularFile();
        assertThat(Files.readString(report)).as("4 invocations: 1 and 3 ranks, threads and processes")
                .contains("tests=\"4\"").contains("failures=\"0\"").contains("errors=\"0\"");
        Result ran = run(List.of(dist().resolve("bin/jmpirun").toString(), "-n", "3", "-cp",
                app.resolve("target/classes").toString(), "app.Sum"), app);
        assertThat(ran.exit()).as(ran.output()).isZero();
        assertThat(ran.output()).contains("sum of ranks 6 on 3");
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
