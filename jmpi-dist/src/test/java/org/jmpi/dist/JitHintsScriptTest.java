package org.jmpi.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jmpi.runtime.JitHints;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JIT hints outside jmpirun's proxy: {@code lib/jit-hints.sh} lists exactly {@link JitHints#JVM_OPTIONS}, and
 * {@code bin/jmpi-java} (ranks started by Hydra, Slurm, ...) gives them to its {@code java} unless {@code
 * JMPI_JIT_HINTS=0}, before the user's own options so that those win.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JitHintsScriptTest {
    private static Path dist;

    @BeforeAll
    static void distribution() {
        dist = Path.of(System.getProperty("jmpi.dist", "target/jmpi")).toAbsolutePath();
        assumeTrue(Files.isRegularFile(dist.resolve("lib/jit-hints.sh")), "no laid-out distribution at " + dist);
    }

    private static String run(Map<String, String> env, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("JMPI_JIT_HINTS");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("ended: " + List.of(cmd)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void theScriptListsTheSameOptionsAsTheClass() throws Exception {
        String out = run(Map.of(), "bash", "-c", ". \"$0\" && printf '%s\\n' \"${jmpi_jit_hints[@]}\"",
                dist.resolve("lib/jit-hints.sh").toString());
        assertThat(out.lines().toList()).isEqualTo(JitHints.JVM_OPTIONS);
    }

    @Test
    void jmpiJavaGivesThemToJavaUnlessTurnedOff() throws Exception {
        String java = dist.resolve("bin/jmpi-java").toString();
        String on = run(Map.of(), java, "-XX:+PrintFlagsFinal", "-version");
        assertThat(on.lines().filter(l -> l.matches("\\s*ccstrlist CompileCommand\\s+= quiet\\s*"))).hasSize(1);
        assertThat(on.lines().filter(l -> l.contains("CompileThresholdScaling,org.jmpi.pt2pt.*::*,0.4"))).hasSize(1);
        assertThat(on.lines().filter(l -> l.contains("dontinline,mpi.*::*OutOfLine"))).hasSize(1);
        String off = run(Map.of("JMPI_JIT_HINTS", "0"), java, "-XX:+PrintFlagsFinal", "-version");
        assertThat(off.lines().filter(l -> l.contains("CompileThresholdScaling,") || l.contains("OutOfLine")))
                .isEmpty();
    }
}
