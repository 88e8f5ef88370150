package org.jmpi.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Maven, Gradle and JPMS users get: every jar names its module, jmpi-core works as a module of a modular program,
 * sources jars exist, and the BOM lists the artefacts at the project's version.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ArtefactsTest {
    private static Path dist;
    private static final Map<String, String> MODULES = Map.of("jmpi-core.jar", "org.jmpi.core", "jmpi-launcher.jar",
            "org.jmpi.launcher", "jmpi-examples.jar", "org.jmpi.examples", "jmpi-dl.jar", "org.jmpi.dl");

    @BeforeAll
    static void distribution() {
        dist = Path.of(System.getProperty("jmpi.dist", "target/jmpi")).toAbsolutePath();
        assumeTrue(Files.isRegularFile(dist.resolve("lib/jmpi-core.jar")), "no laid-out distribution at " + dist);
    }

    @Test
    void everyJarNamesItsModuleAndVersion() throws Exception {
        for (var e : MODULES.entrySet()) {
            try (JarFile j = new JarFile(dist.resolve("lib").resolve(e.getKey()).toFile())) {
                var attrs = j.getManifest().getMainAttributes();
                assertThat(attrs.getValue("Automatic-Module-Name")).as(e.getKey()).isEqualTo(e.getValue());
                assertThat(attrs.getValue("Implementation-Version")).as(e.getKey())
                        .isEqualTo(System.getProperty("project.version"));
            }
        }
    }

    @Test
    void sourcesAndJavadocJarsAreBuilt() {
        Path root = dist.getParent().getParent().getParent();
        for (String m : List.of("jmpi-core", "jmpi-launcher", "jmpi-junit")) {
            for (String kind : List.of("sources", "javadoc")) {
                Path jar = root.resolve(m).resolve("target").resolve(m + "-" + System.getProperty("project.version")
                        + "-" + kind + ".jar");
                assertThat(jar).as(m).isNotEmptyFile();
            }
        }
    }

    @Test
    void theBomListsTheArtefactsAtTheProjectsVersion() throws Exception {
        Path bom = dist.getParent().getParent().getParent().resolve("jmpi-bom/pom.xml");
        String text = Files.readString(bom);
        Matcher m = Pattern.compile("<version>([^<]+)</version>").matcher(text);
        int n = 0;
        while (m.find()) {
            assertThat(m.group(1)).isEqualTo(System.getProperty("project.version"));
            n++;
        }
        assertThat(n).as("the BOM's own version and one per artefact").isEqualTo(7);
        for (String a : List.of("jmpi-core", "jmpi-launcher", "jmpi-junit", "jmpi-examples", "jmpi-dl",
                "jmpi-dl-djl")) {
            assertThat(text).contains("<artifactId>" + a + "</artifactId>");
        }
    }

    @Test
    void aModularProgramRequiresOrgJmpiCore(@TempDir Path tmp) throws Exception {
        Path src = Files.createDirectories(tmp.resolve("src/app/app"));
        Files.writeString(tmp.resolve("src/app/module-info.java"), "module app { requires org.jmpi.core; }\n");
        Files.writeString(src.resolve("Main.java"), """
                package app;
                public class Main {
                    public static void main(String[] args) throws mpi.MPIException {
                        mpi.MPI.Init(args);
                        System.out.println("modular rank " + mpi.MPI.COMM_WORLD.getRank() + " of "
                                + mpi.MPI.COMM_WORLD.getSize());
                        mpi.MPI.Finalize();
                    }
                }
                """);
        String jdk = System.getProperty("java.home");
        String core = dist.resolve("lib/jmpi-core.jar").toString();
        Path out = tmp.resolve("out");
        assertThat(run(tmp, jdk + "/bin/javac", "--module-path", core, "-d", out.resolve("app").toString(),
                tmp.resolve("src/app/module-info.java").toString(), src.resolve("Main.java").toString()))
                .isEqualTo("");
        assertThat(run(tmp, jdk + "/bin/java", "--enable-native-access=org.jmpi.core", "--module-path",
                core + ":" + out, "-m", "app/app.Main")).contains("modular rank 0 of 1");
    }

    private static String run(Path cwd, String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", cmd) + "\n" + text).isZero();
        return text;
    }
}
