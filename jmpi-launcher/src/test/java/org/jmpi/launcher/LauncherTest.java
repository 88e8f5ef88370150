package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jmpi.launcher.ranks.TestRank;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** End-to-end launches of {@link TestRank} as real JVMs. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LauncherTest {
    /** JVM options that make tiny rank JVMs start faster on a small machine. */
    static final List<String> FAST_JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto");

    private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    private final List<Long> started = new ArrayList<>();

    static Path testClasses() throws Exception {
        return Path.of(TestRank.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private Launcher.Builder job(int ranks, String mode) throws Exception {
        return Launcher.builder()
                .ranks(ranks)
                .classpath(testClasses())
                .mainClass(TestRank.class.getName())
                .args(mode)
                .jvmArgs(FAST_JVM)
                .timeout(Duration.ofSeconds(40))
                .output((rank, stderr, line) -> lines.add(rank + (stderr ? " err: " : " out: ") + line));
    }

    private LaunchResult run(Launcher.Builder b) throws Exception {
        try (Launcher.Job job = b.build().start()) {
            started.addAll(job.pids());
            return job.await();
        }
    }

    /** Kills (by pid) anything a test started that is still alive, and fails the test if there was any. */
    @AfterEach
    void noProcessLeft() {
        List<Long> alive = started.stream().filter(LauncherTest::alive).toList();
        alive.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        assertThat(alive).as("rank processes still alive after the job ended").isEmpty();
    }

    static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    @Test
    void threeRanksExchangeKeysThroughPutFenceGet() throws Exception {
        LaunchResult r = run(job(3, "exchange"));
        assertThat(r.exitCode()).as(r.summary() + " " + lines).isZero();
        assertThat(r.succeeded()).isTrue();
        assertThat(r.summary()).isEmpty();
        assertThat(r.rankExitCodes()).containsExactly(0, 0, 0);
        assertThat(r.teardownTime()).isZero();
        String cards = " sees 0=hello-from-0-of-3 1=hello-from-1-of-3 2=hello-from-2-of-3 missing=null"
                + " map=(vector,(0,1,3))";
        for (int rank = 0; rank < 3; rank++) {
            assertThat(lines).contains(rank + " out: rank " + rank + " env " + rank + "/3 local " + rank + "/3 job true"
                    + cards);
        }
    }

    @Test
    void aRankExitingNonZeroEndsTheJobWithItsCode() throws Exception {
        LaunchResult r = run(job(3, "exit3"));
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.failedRank()).isEqualTo(1);
        assertThat(r.aborted()).isFalse();
        assertThat(r.rankExitCode(1)).isEqualTo(3);
        assertThat(r.rankExitCode(0)).isNotZero();
        assertThat(r.rankExitCode(2)).isNotZero();
        assertThat(r.teardownTime()).isLessThan(Duration.ofSeconds(5));
        assertThat(r.summary()).contains("rank 1 (pid ").contains("exited with code 3").contains("killed the 2 ranks");
        assertThat(started).noneMatch(LauncherTest::alive);
    }

    @Test
    void abortGivesTheAbortCode() throws Exception {
        LaunchResult r = run(job(3, "abort7"));
        assertThat(r.exitCode()).isEqualTo(7);
        assertThat(r.aborted()).isTrue();
        assertThat(r.failedRank()).isEqualTo(1);
        assertThat(r.summary()).contains("rank 1").contains("abort with exit code 7: rank 1 gave up");
        assertThat(r.teardownTime()).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void abortWinsOverTheExitCodeOfTheAbortingRank() throws Exception {
        LaunchResult r = run(job(2, "abort7exit1"));
        assertThat(r.exitCode()).isEqualTo(7);
        assertThat(r.aborted()).isTrue();
    }

    /** The summary counts as killed only the ranks the teardown ended, not the one that aborted and exited. */
    @Test
    void theAbortingRankIsNotCountedAmongTheKilled() throws Exception {
        LaunchResult r = run(job(3, "abort7exit1"));
        assertThat(r.exitCode()).isEqualTo(7);
        assertThat(r.summary()).contains("rank 1 (pid ").contains("called abort with exit code 7")
                .contains("; killed the 2 ranks still running (teardown ");
        LaunchResult two = run(job(2, "abort7exit1"));
        assertThat(two.summary()).contains("called abort with exit code 7")
                .contains("; killed the 1 rank still running (teardown ");
    }

    @Test
    void exitingWithoutFinalizeFailsTheJob() throws Exception {
        LaunchResult r = run(job(3, "nofinalize"));
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.failedRank()).isEqualTo(2);
        assertThat(r.rankExitCode(2)).isZero();
        assertThat(r.summary()).contains("rank 2").contains("without finalizing");
    }

    @Test
    void timeoutKillsEverythingWith255() throws Exception {
        LaunchResult r = run(job(2, "hang").timeout(Duration.ofSeconds(1)));
        assertThat(r.exitCode()).isEqualTo(255);
        assertThat(r.timedOut()).isTrue();
        assertThat(r.summary()).contains("did not finish within 1.0 s");
        assertThat(r.teardownTime()).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void killEndsARunningJob() throws Exception {
        try (Launcher.Job job = job(2, "hang").build().start()) {
            started.addAll(job.pids());
            assertThat(job.await(Duration.ofMillis(50))).isEmpty();
            assertThat(job.isDone()).isFalse();
            job.kill();
            LaunchResult r = job.await();
            assertThat(r.exitCode()).isEqualTo(LaunchResult.KILLED_EXIT_CODE);
            assertThat(job.isDone()).isTrue();
        }
    }

    @Test
    void processesStartedByRanksAreKilledToo() throws Exception {
        LaunchResult r = run(job(3, "child"));
        assertThat(r.exitCode()).isEqualTo(3);
        List<Long> children = lines.stream().filter(l -> l.contains("child-pid "))
                .map(l -> Long.parseLong(l.substring(l.indexOf("child-pid ") + 10).trim())).toList();
        assertThat(children).hasSize(2);
        started.addAll(children);
        for (long pid : children) {
            ProcessHandle.of(pid).ifPresent(h -> h.onExit().orTimeout(5, TimeUnit.SECONDS)
                    .join());
        }
        assertThat(children).noneMatch(LauncherTest::alive);
    }

    @Test
    void dumpStacksMakesEveryRankPrintAThreadDump() throws Exception {
        CountDownLatch ready = new CountDownLatch(2);
        CountDownLatch dumped = new CountDownLatch(2);
        Launcher l = job(2, "hang").output((rank, stderr, line) -> {
            if (line.equals("ready")) {
                ready.countDown();
            } else if (line.contains("TestRank.main")) {
                dumped.countDown();
            }
        }).build();
        try (Launcher.Job job = l.start()) {
            started.addAll(job.pids());
            assertThat(ready.await(30, TimeUnit.SECONDS)).as("ranks ready").isTrue();
            assertThat(job.dumpStacks()).isEqualTo(2);
            assertThat(dumped.await(30, TimeUnit.SECONDS)).as("thread dumps seen").isTrue();
            job.kill();
            assertThat(job.await().exitCode()).isEqualTo(LaunchResult.KILLED_EXIT_CODE);
        }
    }

    @Test
    void timeoutCanDumpStacksFirst() throws Exception {
        LaunchResult r = run(job(1, "hang").timeout(Duration.ofSeconds(1)).dumpStacksOnTimeout(true));
        assertThat(r.exitCode()).isEqualTo(255);
        assertThat(r.timedOut()).isTrue();
    }

    @Test
    void jmpiClassPathPointsAtJmpiCore() {
        List<Path> cp = Launcher.jmpiClassPath();
        assertThat(cp).hasSize(1);
        Path p = cp.get(0);
        assertThat(p).exists();
        if (p.toFile().isDirectory()) {
            assertThat(p.resolve("org/jmpi/bootstrap/Bootstrap.class")).exists();
        } else {
            assertThat(p.getFileName().toString()).endsWith(".jar");
        }
    }

    @Test
    void rankCommandStartsAJvmWithNativeAccess() throws Exception {
        Launcher l = job(2, "x").jvmArgs("-Dfoo=bar").build();
        List<String> cmd = l.rankCommand();
        assertThat(cmd.get(0)).endsWith("java");
        assertThat(cmd).containsSequence("--enable-native-access=ALL-UNNAMED");
        assertThat(cmd).contains("-Dfoo=bar");
        assertThat(cmd.subList(cmd.size() - 2, cmd.size())).containsExactly(TestRank.class.getName(), "x");
        assertThat(l.rankClassPath()).startsWith(testClasses()).containsAll(Launcher.jmpiClassPath());
    }
}
