package org.jmpi.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The compiler directives that keep jmpi's runtime out of C2: the JVM this runs on accepts them and announces them
 * with exactly {@link JitHints#DIRECTIVES_NOTICE} (the line jmpirun's proxy drops), and they name jmpi's own
 * {@code mpi} classes one by one, not a program's {@code mpi.something} package.
 */
class JitHintsTest {
    @Test
    void theDirectivesNameTheFacadeClassByClassAndTheRuntimeByPackage() {
        String d = JitHints.directives();
        assertThat(d).contains("\"mpi/Comm*.*\"", "\"mpi/Request*.*\"", "\"-mpi/Comm*.*\"",
                "\"org/jmpi/pt2pt/*.*\"", "\"-org/jmpi/transport/*.*\"", "Exclude: true");
        assertThat(d).doesNotContain("\"mpi/*.*\"", "org/jmpi/op/", "org/jmpi/benchmarks");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theJvmAcceptsThemAndSaysSoInOneLine() throws Exception {
        List<String> options = JitHints.directiveOptions();
        assertThat(options).hasSize(2);
        Path file = Path.of(options.get(1).substring("-XX:CompilerDirectivesFile=".length()));
        assertThat(Files.readString(file)).isEqualTo(JitHints.directives());
        // made once: a second call names the same file
        assertThat(JitHints.directiveOptions()).isEqualTo(options);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(options);
        cmd.add("-version");
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isZero();
        assertThat(out.lines().toList()).containsExactly(JitHints.DIRECTIVES_NOTICE);
    }
}
