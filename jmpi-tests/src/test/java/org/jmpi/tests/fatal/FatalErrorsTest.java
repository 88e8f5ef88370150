package org.jmpi.tests.fatal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jmpi.launcher.LaunchResult;
import org.jmpi.launcher.Launcher;
import org.jmpi.shared.ThreadsJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Under the default handler (MPI.ERRORS_ARE_FATAL) an error ends the whole job with one line naming the call,
 * the error and the rank, and a non-zero exit code; MPI.abort ends it with the given code. Checked as processes
 * (through the launcher) and as threads.
 */
class FatalErrorsTest {
    private static final String EXPECTED =
            "jmpi: rank 1: MPI_Send: invalid rank 99 (communicator of size 3) (MPI_ERR_RANK)";

    private static LaunchResult launch(String main, List<String> lines) throws Exception {
        return Launcher.builder().ranks(3).classpath(System.getProperty("java.class.path")).mainClass(main)
                .timeout(Duration.ofSeconds(60)).output((rank, stderr, line) -> lines.add(rank + ":" + line))
                .build().run();
    }

    @Test
    @Timeout(90)
    void fatalErrorEndsAProcessJob() throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        LaunchResult r = launch(BadSendMain.class.getName(), lines);
        assertThat(r.timedOut()).isFalse();
        assertThat(r.exitCode()).as(String.join("\n", lines)).isEqualTo(6); // MPI_ERR_RANK
        assertThat(lines).as("one line on rank 1's stderr").filteredOn(l -> l.contains("MPI_Send")).hasSize(1)
                .first().isEqualTo("1:" + EXPECTED);
        assertThat(r.teardownTime()).isLessThan(Duration.ofSeconds(5));
        // the summary carries the message unchanged, underscores and all (issue 12, item 8)
        assertThat(r.summary()).contains(EXPECTED);
    }

    @Test
    @Timeout(90)
    void abortEndsAProcessJobWithItsCode() throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        LaunchResult r = launch(AbortMain.class.getName(), lines);
        assertThat(r.exitCode()).as(String.join("\n", lines)).isEqualTo(7);
        assertThat(lines).anyMatch(l -> l.startsWith("2:jmpi: rank 2: MPI_Abort called with error code 7"));
    }

    /** Issue 12, item 5: only the handler's own action happens; the fatal handler ends the job. */
    @Test
    @Timeout(90)
    void callingTheFatalHandlerEndsTheJob() throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        LaunchResult r = launch(CallErrhandlerMain.class.getName(), lines);
        assertThat(r.exitCode()).as(String.join("\n", lines)).isEqualTo(13); // MPI_ERR_ARG
        assertThat(lines).anyMatch(l -> l.startsWith("1:jmpi: rank 1: MPI_Comm_call_errhandler:"));
        assertThat(ThreadsJob.runMain(3, classPath(), CallErrhandlerMain.class.getName(), new String[0], false, 5000))
                .isEqualTo(13);
    }

    private static URL[] classPath() throws Exception {
        String[] parts = System.getProperty("java.class.path").split(File.pathSeparator);
        URL[] urls = new URL[parts.length];
        for (int i = 0; i < parts.length; i++) {
            urls[i] = Path.of(parts[i]).toUri().toURL();
        }
        return urls;
    }

    @Test
    @Timeout(60)
    void fatalErrorEndsAThreadsJob() throws Exception {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int code;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            code = ThreadsJob.runMain(3, classPath(), BadSendMain.class.getName(), new String[0], false, 5000);
        } finally {
            System.setErr(err);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        assertThat(code).as(out).isEqualTo(6);
        assertThat(out.lines().filter(l -> l.contains("MPI_Send"))).containsExactly(EXPECTED);
    }

    @Test
    @Timeout(60)
    void abortEndsAThreadsJob() throws Exception {
        int code = ThreadsJob.runMain(3, classPath(), AbortMain.class.getName(), new String[0], false, 5000);
        assertThat(code).isEqualTo(7);
    }
}
