package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jmpi.launcher.ranks.NoMainHere;
import org.jmpi.launcher.ranks.ThreadsHang;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * jmpirun --threads runs what {@code java Main} runs (issue 12, item 6) and says why a job ended as processes mode
 * does (item 13; the signal cases are in {@link JmpiRunProcessTest}).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ThreadsModeCompatTest {
    private record Run(int code, String out, String err) {}

    /** Runs jmpirun in this JVM, capturing what ranks print (System.out/err) and what jmpirun prints. */
    private static synchronized Run jmpirun(String... args) throws Exception {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        System.setOut(o);
        System.setErr(e);
        int code;
        try {
            code = JmpiRun.execute(o, e, Map.of(), args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aClassThatIsNotPublicRuns() throws Exception {
        Run r = jmpirun("--threads", "-n", "2", "-cp", LauncherTest.testClasses().toString(),
                "org.jmpi.launcher.ranks.HiddenMain");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("hidden main on rank 0", "hidden main on rank 1");
    }

    @Test
    void aMissingMainGetsJavasMessageOnce() throws Exception {
        Run r = jmpirun("--threads", "-n", "3", "-cp", LauncherTest.testClasses().toString(),
                NoMainHere.class.getName());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().lines().filter(l -> l.startsWith("Error: Main method not found in class "
                + NoMainHere.class.getName()))).hasSize(1);
        Run missing = jmpirun("--threads", "-n", "2", "-cp", LauncherTest.testClasses().toString(), "NoSuchClass");
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err()).contains("Error: Could not find or load main class NoSuchClass");
    }

    @Test
    void aTimeoutEndsTheRanksWithTheProcessesSummary() throws Exception {
        Run r = jmpirun("--threads", "-n", "2", "--timeout", "2", "-cp", LauncherTest.testClasses().toString(),
                ThreadsHang.class.getName());
        assertThat(r.code()).isEqualTo(LaunchResult.TIMEOUT_EXIT_CODE);
        assertThat(r.err()).contains("jmpirun: the job did not finish within 2.0 s (timeout); killed the 2 ranks "
                + "still running (teardown ");
    }
}
