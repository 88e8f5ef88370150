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
 * What Maven, Gradle and JPMS users get: every jar names its module, jmpi-core is a real module that a modular program
 * requires (also under JFR and Hydra), keeping the runtime's packages to itself,
 * sources jars exist, and the BOM lists the artefacts at the project's version.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ArtefactsTest {
    private static Path dist;
    private static final Map<String, String> MODULES = Map.of("jmpi-core.jar", "org.jmpi.core", "jmpi-launcher.jar",
            "org.jmpi.launcher", "jmpi-examples.jar", "org.jmpi.examples", "jmpi-dl.jar", "org.jmpi.dl", "jmpi-mpj.jar",
            "org.jmpi.mpj");

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
        assertThat(n).as("the BOM's own version and one per artefact").isEqualTo(8);
        for (String a : List.of("jmpi-core", "jmpi-launcher", "jmpi-junit", "jmpi-examples", "jmpi-dl",
                "jmpi-dl-djl", "jmpi-mpj")) {
            assertThat(text).contains("<artifactId>" + a + "</artifactId>");
        }
    }

    /** jmpi-core is a real module: it exports the user-facing packages and keeps the runtime's to jmpi's own jars. */
    @Test
    void jmpiCoreDeclaresItsModule() {
        var module = java.lang.module.ModuleFinder.of(dist.resolve("lib/jmpi-core.jar")).find("org.jmpi.core");
        assertThat(module).as("org.jmpi.core in lib/jmpi-core.jar").isPresent();
        var descriptor = module.get().descriptor();
        assertThat(descriptor.isAutomatic()).as("a module-info, not only Automatic-Module-Name").isFalse();
        assertThat(descriptor.exports().stream().filter(e -> !e.isQualified()).map(e -> e.source()))
                .containsExactlyInAnyOrder("mpi", "org.jmpi.ft", "org.jmpi.profile");
        assertThat(descriptor.exports().stream().filter(e -> e.isQualified()).flatMap(e -> e.targets().stream()))
                .allMatch(t -> t.equals("org.jmpi.launcher") || t.equals("org.jmpi.junit"));
    }

    /**
     * A modular program: compiled against the module, run from the module path as a singleton (with a JFR recording,
     * which must see the events of a named module) and, when Debian's MPICH is installed, on 3 ranks started by the
     * real mpiexec.hydra; a program that reaches into the runtime does not compile.
     */
    @Test
    void aModularProgramRequiresOrgJmpiCore(@TempDir Path tmp) throws Exception {
        Path src = Files.createDirectories(tmp.resolve("src/app/app"));
        Files.writeString(tmp.resolve("src/app/module-info.java"), "module app { requires org.jmpi.core; }\n");
        Files.writeString(src.resolve("Main.java"), """
                package app;
                public class Main {
                    public static void main(String[] args) throws mpi.MPIException {
                        mpi.MPI.Init(args);
                        int[] one = {mpi.MPI.COMM_WORLD.getRank() + 1};
                        int[] sum = new int[1];
                        mpi.MPI.COMM_WORLD.allReduce(one, sum, 1, mpi.MPI.INT, mpi.MPI.SUM);
                        System.out.println("modular rank " + mpi.MPI.COMM_WORLD.getRank() + " of "
                                + mpi.MPI.COMM_WORLD.getSize() + " sum " + sum[0]);
                        mpi.MPI.Finalize();
                    }
                }
                """);
        String jdk = System.getProperty("java.home");
        String core = dist.resolve("lib/jmpi-core.jar").toString();
        Path out = tmp.resolve("out");
        assertThat(run(tmp, Map.of(), jdk + "/bin/javac", "--module-path", core, "-d", out.resolve("app").toString(),
                tmp.resolve("src/app/module-info.java").toString(), src.resolve("Main.java").toString()))
                .isEqualTo("");
        Path jfr = tmp.resolve("rec.jfr");
        assertThat(run(tmp, Map.of(), jdk + "/bin/java", "-XX:StartFlightRecording:filename=" + jfr
                + ",settings=default,+org.jmpi.Collective#enabled=true,+org.jmpi.Collective#threshold=0ms",
                "--enable-native-access=org.jmpi.core", "--module-path",
                core + ":" + out, "-m", "app/app.Main")).contains("modular rank 0 of 1 sum 1");
        List<String> events = new java.util.ArrayList<>();
        try (var recording = new jdk.jfr.consumer.RecordingFile(jfr)) {
            while (recording.hasMoreEvents()) {
                events.add(recording.readEvent().getEventType().getName());
            }
        }
        assertThat(events).as("jmpi's JFR events from the named module").contains("org.jmpi.Collective");

        Path hydra = Path.of("/usr/bin/mpiexec.hydra");
        if (Files.isExecutable(hydra)) { // .ci/run installs Debian's mpich
            String text = run(tmp, Map.of(), hydra.toString(), "-n", "3", jdk + "/bin/java",
                    "--enable-native-access=org.jmpi.core", "--module-path", core + ":" + out, "-m", "app/app.Main");
            for (int r = 0; r < 3; r++) {
                assertThat(text).contains("modular rank " + r + " of 3 sum 6");
            }
        }

        Path bad = Files.createDirectories(tmp.resolve("src/bad/bad"));
        Files.writeString(tmp.resolve("src/bad/module-info.java"), "module bad { requires org.jmpi.core; }\n");
        Files.writeString(bad.resolve("Peek.java"), """
                package bad;
                public class Peek {
                    Object config = org.jmpi.runtime.Config.defaults();
                }
                """);
        Process p = new ProcessBuilder(jdk + "/bin/javac", "--module-path", core, "-d",
                tmp.resolve("badout").toString(), tmp.resolve("src/bad/module-info.java").toString(),
                bad.resolve("Peek.java").toString()).redirectErrorStream(true).start();
        String errors = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(errors).isNotZero();
        assertThat(errors).contains("package org.jmpi.runtime is not visible");
    }

    private static String run(Path cwd, Map<String, String> env, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String text = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", cmd) + "\n" + text).isZero();
        return text;
    }
}
