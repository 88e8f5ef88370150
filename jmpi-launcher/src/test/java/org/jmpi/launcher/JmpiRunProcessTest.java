package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jmpi.launcher.ranks.TestRank;
import org.jmpi.launcher.ranks.ThreadsHang;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** jmpirun as a process of its own, for what only a real process has: signals (Ctrl-C, SIGTERM). */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JmpiRunProcessTest extends JmpirunProcessTestBase {
    private Path start(String... args) throws Exception {
        Path out = dir.resolve("out.txt");
        jmpirun = new ProcessBuilder(LaunchIntegrationTest.jmpirun(args)).redirectErrorStream(true)
                .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        return out;
    }

    /** Waits until {@code out} has {@code n} lines containing {@code word} (or jmpirun ended). */
    private void awaitLines(Path out, String word, int n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        while (Files.readString(out).lines().filter(l -> l.contains(word)).count() < n) {
            assertThat(jmpirun.isAlive()).as(Files.readString(out)).isTrue();
            assertThat(System.nanoTime()).as("ranks ready: " + Files.readString(out)).isLessThan(deadline);
            jmpirun.waitFor(50, TimeUnit.MILLISECONDS);
        }
    }

    private void signal(String sig) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + sig, Long.toString(jmpirun.pid())).start().waitFor()).isZero();
    }

    @Test
    void ctrlCIsForwardedToEveryRank() throws Exception {
        Path out = start("--no-stdin", "-n", "2", "-cp", LauncherTest.testClasses().toString(), "--jvm-arg",
                "-XX:TieredStopAtLevel=1", TestRank.class.getName(), "hang");
        awaitLines(out, "ready", 2);
        List<Long> ranks = jmpirun.descendants().map(ProcessHandle::pid).toList();
        signal("INT");
        assertThat(jmpirun.waitFor(20, TimeUnit.SECONDS)).as(Files.readString(out)).isTrue();
        assertThat(jmpirun.exitValue()).as(Files.readString(out)).isEqualTo(LaunchResult.INTERRUPTED_EXIT_CODE);
        assertThat(Files.readString(out)).contains("jmpirun: Ctrl-C passed on to the 2 ranks still running; Ctrl-C"
                + " again kills them at once", "jmpirun: interrupted");
        assertThat(ranks).noneMatch(LauncherTest::alive);
    }

    @Test
    void aSecondCtrlCKillsRanksThatIgnoreTheFirst() throws Exception {
        // ranks that ignore SIGINT and SIGTERM: only SIGKILL ends them
        Path out = start("--no-stdin", "-n", "2", "--exec", "/bin/sh", "-c",
                "trap '' INT TERM; echo ready; exec sleep 600");
        awaitLines(out, "ready", 2);
        List<Long> ranks = jmpirun.descendants().map(ProcessHandle::pid).toList();
        signal("INT");
        // the second Ctrl-C after jmpirun has seen the first, as a user's would be (two SIGINTs sent back to back
        // can merge into one pending signal before the JVM takes it)
        awaitLines(out, "Ctrl-C again", 1);
        signal("INT");
        long t0 = System.nanoTime();
        assertThat(jmpirun.waitFor(20, TimeUnit.SECONDS)).as(Files.readString(out)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("the second Ctrl-C kills at once")
                .isLessThan(Duration.ofMillis(1500));
        assertThat(jmpirun.exitValue()).isEqualTo(LaunchResult.INTERRUPTED_EXIT_CODE);
        assertThat(ranks).noneMatch(LauncherTest::alive);
    }

    /** A Ctrl-C while the ranks start (here: sent by a rank at once) reaches the job, not the JVM's default. */
    @Test
    void ctrlCDuringStartUpIsTheJobsToo() throws Exception {
        // the rank's parent is jmpirun's JVM (local ranks are its children)
        Path out = start("--no-stdin", "-n", "2", "--exec", "/bin/sh", "-c", "kill -INT $PPID; exec sleep 600");
        assertThat(jmpirun.waitFor(20, TimeUnit.SECONDS)).as(Files.readString(out)).isTrue();
        assertThat(jmpirun.exitValue()).as(Files.readString(out)).isEqualTo(LaunchResult.INTERRUPTED_EXIT_CODE);
        assertThat(Files.readString(out)).contains("jmpirun: interrupted");
    }

    @Test
    void sigtermEndsTheJobWith143() throws Exception {
        Path out = start("--no-stdin", "-n", "2", "-cp", LauncherTest.testClasses().toString(), "--jvm-arg",
                "-XX:TieredStopAtLevel=1", TestRank.class.getName(), "hang");
        awaitLines(out, "ready", 2);
        List<Long> ranks = jmpirun.descendants().map(ProcessHandle::pid).toList();
        signal("TERM");
        assertThat(jmpirun.waitFor(20, TimeUnit.SECONDS)).as(Files.readString(out)).isTrue();
        assertThat(jmpirun.exitValue()).isEqualTo(LaunchResult.KILLED_EXIT_CODE);
        assertThat(ranks).noneMatch(LauncherTest::alive);
    }

    /** Issue 12, item 13: a --threads job ended by a signal says so, as a processes job does. */
    @Test
    void signalsEndAThreadsJobWithASummary() throws Exception {
        String[][] cases = {{"TERM", "jmpirun: the job was killed on request; killed the 2 ranks still running"},
            {"INT", "jmpirun: interrupted; killed the 2 ranks still running"}};
        int[] codes = {LaunchResult.KILLED_EXIT_CODE, LaunchResult.INTERRUPTED_EXIT_CODE};
        for (int i = 0; i < cases.length; i++) {
            Path out = start("--no-stdin", "--threads", "-n", "2", "-cp", LauncherTest.testClasses().toString(),
                    ThreadsHang.class.getName());
            awaitLines(out, "ready", 2);
            signal(cases[i][0]);
            assertThat(jmpirun.waitFor(20, TimeUnit.SECONDS)).as(Files.readString(out)).isTrue();
            assertThat(jmpirun.exitValue()).as(Files.readString(out)).isEqualTo(codes[i]);
            assertThat(Files.readString(out)).contains(cases[i][1]);
            Files.delete(out);
        }
    }
}
