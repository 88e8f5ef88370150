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
 * with exactly {@link JitHints#DIRECTIVES_NOTICE}, and they name jmpi's own
 * {@code mpi} classes by their capital initials, not a program's {@code mpi.something} package.
 */
class JitHintsTest {
    @Test
    void theDirectivesNameTheFacadeByCapitalInitialsAndTheRuntimeByPackage() {
        String d = JitHints.directives();
        assertThat(d).contains("\"mpi/C*.*\"", "\"mpi/R*.*\"", "\"-mpi/C*.*\"",
                "\"org/jmpi/pt2pt/*.*\"", "\"-org/jmpi/transport/*.*\"", "Exclude: true");
        assertThat(d).doesNotContain("\"mpi/*.*\"", "org/jmpi/op/", "org/jmpi/benchmarks", "BackgroundCompilation");
        // for a rank bound to a core: the same, its methods compiled in the foreground
        assertThat(JitHints.directives(true)).isEqualTo(d.replace("], c2: { Exclude",
                "], BackgroundCompilation: false, c2: { Exclude"));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theJvmAcceptsThemAndSaysSoInOneLine() throws Exception {
        for (boolean foreground : new boolean[] {false, true}) {
            Path file = JitHints.directivesFile(foreground);
            assertThat(Files.readString(file)).isEqualTo(JitHints.directives(foreground));
            // made once: a second call names the same file
            assertThat(JitHints.directivesFile(foreground)).isEqualTo(file);
            assertThat(acceptance(file)).containsExactly(JitHints.DIRECTIVES_NOTICE);
        }
        assertThat(JitHints.directivesFile()).isEqualTo(JitHints.directivesFile(false));
    }

    /** What a JVM given the directives {@code file} prints on standard output (it must start). */
    private static List<String> acceptance(Path file) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-XX:+UnlockDiagnosticVMOptions");
        cmd.add("-XX:CompilerDirectivesFile=" + file);
        cmd.add("-version");
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isZero();
        return out.lines().toList();
    }

    /**
     * A JVM whose command line names no directives file takes them from inside ({@link JitHints#applyNow}, what
     * {@code MPI_Init} runs in the background), silently, when it has {@link JitHints#ADD_OPENS}; without that option
     * the call does nothing and says so.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aJvmWithoutTheFlagTakesThemFromInsideWithoutPrinting() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        Process p = new ProcessBuilder(java, JitHints.ADD_OPENS, "-cp", cp, Apply.class.getName())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isZero();
        assertThat(out.lines().toList()).first().isEqualTo("applied true");
        // the JVM's own list of directives now has the runtime's packages, and nothing else was printed
        assertThat(out).contains("org/jmpi/pt2pt/").doesNotContain("compiler directives added");
        p = new ProcessBuilder(java, "-cp", cp, Apply.class.getName()).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isZero();
        assertThat(out.lines().toList()).first().isEqualTo("applied false");
    }

    /** Runs {@link JitHints#applyNow} and prints its answer, then the JVM's directives (test child JVM). */
    public static final class Apply {
        public static void main(String[] args) throws Exception {
            boolean applied = JitHints.applyNow();
            System.out.println("applied " + applied);
            if (applied) {
                Class<?> impl = Class.forName("com.sun.management.internal.DiagnosticCommandImpl");
                java.lang.reflect.Method get = impl.getDeclaredMethod("getDiagnosticCommandMBean");
                get.setAccessible(true);
                java.lang.reflect.Method execute = impl.getDeclaredMethod("executeDiagnosticCommand", String.class);
                execute.setAccessible(true);
                System.out.println(execute.invoke(get.invoke(null), "Compiler.directives_print"));
            }
        }
    }
}
