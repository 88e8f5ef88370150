package org.jmpi.tests.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.jmpi.launcher.JmpiRun;
import org.jmpi.launcher.Launcher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 12, the compatibility corpus: Java MPI programs in the style of Open MPI's Java users (package-less classes,
 * not always public; arrays of every primitive type with other datatypes; pair types on byte[] and ByteBuffer;
 * slices; MPI.newXxxBuffer; intercommunicators; error handlers), in {@code src/test/corpus}. Each is compiled as a
 * user would (javac with jmpi on the class path) and run under jmpirun at 1 to 4 ranks, as threads and as
 * processes; each checks its own results and rank 0 prints {@code <Name> PASSED}.
 */
class CompatCorpusTest {
    private static final Path CORPUS = Path.of("src", "test", "corpus").toAbsolutePath();
    private static final String[] PROGRAMS = {"Hello", "Ring", "MixedArrays", "PairReductions", "Slices",
        "Intercomms", "ErrorHandlers", "StructsAndPacking"};

    @TempDir
    static Path classes;

    @BeforeAll
    static void compileTheCorpus() throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-Xlint:all", "-Werror", "-cp",
                String.join(File.pathSeparator, Launcher.jmpiClassPath().stream().map(Path::toString).toList())));
        try (Stream<Path> files = Files.list(CORPUS)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = javac.run(null, err, err, args.toArray(String[]::new));
        assertThat(rc).as(err.toString(StandardCharsets.UTF_8)).isZero();
    }

    static Stream<Arguments> runs() {
        List<Arguments> all = new ArrayList<>();
        for (String program : PROGRAMS) {
            for (boolean threads : new boolean[] {true, false}) {
                for (int n = 1; n <= 4; n++) {
                    all.add(Arguments.of(program, threads ? "threads" : "processes", n));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} as {1}, {2} ranks")
    @MethodSource("runs")
    @Timeout(120)
    void runsUnchanged(String program, String mode, int ranks) throws Exception {
        List<String> args = new ArrayList<>(List.of("--no-stdin", "--timeout", "90", "-n", Integer.toString(ranks),
                "-cp", classes.toString()));
        if (mode.equals("threads")) {
            args.add("--threads");
        } else {
            args.addAll(List.of("--jvm-arg=-XX:TieredStopAtLevel=1", "--jvm-arg=-XX:+UseSerialGC"));
        }
        args.add(program);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = run(args, out, err);
        String text = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertThat(code).as(text).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).lines()).as(text).contains(program + " PASSED");
    }

    /** Runs jmpirun in this JVM; threads-mode ranks print to System.out/err, which are captured meanwhile. */
    private static synchronized int run(List<String> args, ByteArrayOutputStream out, ByteArrayOutputStream err) {
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        System.setOut(o);
        System.setErr(e);
        try {
            return JmpiRun.execute(o, e, Map.of(), args.toArray(String[]::new));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }
}
