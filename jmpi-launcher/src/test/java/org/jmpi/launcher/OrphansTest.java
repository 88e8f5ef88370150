package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jmpi.launcher.ranks.FaultRank;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing outlives its job when the launcher is killed with SIGKILL (what the OOM killer, a batch system's hard kill
 * or an impatient user sends): every rank ends and no {@code /dev/shm} file of the job remains after 3 s. The job's
 * processes are known by the pids the ranks print ({@code ready <rank> pid <pid>}) and by the descendants of the
 * jmpirun this test started, so nothing of another job on the machine is counted or killed.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OrphansTest {
    /** How long a job may take to disappear after its launcher was killed. */
    static final Duration GRACE = Duration.ofSeconds(3);
    private static final Pattern READY = Pattern.compile("ready (\\d+) pid (\\d+)");
    private static final Pattern JOB = Pattern.compile("card \\d+ \\S+ job (\\S+)");

    @TempDir
    Path dir;

    private Process launcher;
    private final List<ProcessHandle> started = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        for (ProcessHandle h : started) {
            h.destroyForcibly();
        }
        if (launcher != null) {
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly();
        }
    }

    /** Starts {@code cmd} with its output in a file; returns the file. */
    Path start(List<String> cmd) throws IOException {
        Path out = dir.resolve("out.txt");
        launcher = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        return out;
    }

    /** Waits until every one of {@code n} ranks printed its pid and its job id; returns the rank pids. */
    static List<Long> awaitRanks(Process launcher, Path out, int n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            String text = Files.readString(out);
            List<Long> pids = rankPids(text);
            if (pids.size() == n && JOB.matcher(text).results().count() == n) {
                return pids;
            }
            assertThat(launcher.isAlive()).as("launcher alive while ranks start: " + text).isTrue();
            assertThat(System.nanoTime()).as("ranks up: " + text).isLessThan(deadline);
            launcher.waitFor(50, TimeUnit.MILLISECONDS);
        }
    }

    static List<Long> rankPids(String text) {
        List<Long> pids = new ArrayList<>();
        Matcher m = READY.matcher(text);
        while (m.find()) {
            pids.add(Long.parseLong(m.group(2)));
        }
        return pids;
    }

    static String jobId(String text) {
        Matcher m = JOB.matcher(text);
        assertThat(m.find()).as("job id in " + text).isTrue();
        return m.group(1);
    }

    /** The shared-memory files of job {@code jobId} (names {@code jmpi-<job id>-<rank>}). */
    static List<String> segmentFiles(String jobId) throws IOException {
        String prefix = "jmpi-" + jobId.replaceAll("[^A-Za-z0-9_.-]", "_") + "-";
        try (Stream<Path> s = Files.list(Path.of("/dev/shm"))) {
            return s.map(p -> p.getFileName().toString()).filter(f -> f.startsWith(prefix)).toList();
        }
    }

    /**
     * Polls until none of {@code processes} is alive and job {@code jobId} has no file in /dev/shm, for at most
     * {@link #GRACE}; returns what is still there (empty when all is gone).
     */
    static List<String> leftAfterGrace(List<Long> processes, String jobId) throws Exception {
        long deadline = System.nanoTime() + GRACE.toNanos();
        while (true) {
            List<String> left = new ArrayList<>();
            for (long pid : processes) {
                ProcessHandle.of(pid).filter(ProcessHandle::isAlive).ifPresent(h -> left.add("process " + pid + " "
                        + h.info().commandLine().orElse("")));
            }
            left.addAll(segmentFiles(jobId));
            if (left.isEmpty() || System.nanoTime() > deadline) {
                return left;
            }
            ProcessHandle.of(processes.isEmpty() ? ProcessHandle.current().pid() : processes.get(0))
                    .map(ProcessHandle::onExit).ifPresent(f -> f.completeOnTimeout(null, 20, TimeUnit.MILLISECONDS)
                            .join());
        }
    }

    static void kill9(long pid) throws Exception {
        assertThat(new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor()).isZero();
    }

    @Test
    void sigkillOfJmpirunEndsEveryRankAndLeavesNoSegmentFile() throws Exception {
        Path out = start(LaunchIntegrationTest.jmpirun("--no-stdin", "-n", "4", "-cp",
                LaunchIntegrationTest.rankClassPath(), "--jvm-arg", "-XX:TieredStopAtLevel=1",
                FaultRank.class.getName(), "card"));
        List<Long> ranks = awaitRanks(launcher, out, 4);
        String job = jobId(Files.readString(out));
        List<Long> all = new ArrayList<>(ranks);
        launcher.descendants().forEach(h -> all.add(h.pid()));
        launcher.descendants().forEach(started::add);
        assertThat(segmentFiles(job)).as("every peer mapped every segment: the files are gone already").isEmpty();
        kill9(launcher.pid());
        assertThat(leftAfterGrace(all, job)).as("left " + GRACE + " after SIGKILL of jmpirun").isEmpty();
    }

    @Test
    void wrappedRanksEndWhenThePmiConnectionCloses() throws Exception {
        // a shell between jmpirun and the JVM: the parent-death signal watches the shell, which lives on; the end of
        // the PMI connection must end the rank
        String java = String.join(" ", LaunchIntegrationTest.javaRank("card"));
        Path out = start(LaunchIntegrationTest.jmpirun("--no-stdin", "-n", "2", "--exec", "/bin/sh", "-c",
                java + "; true"));
        List<Long> ranks = awaitRanks(launcher, out, 2);
        String job = jobId(Files.readString(out));
        List<Long> all = new ArrayList<>(ranks);
        launcher.descendants().forEach(h -> all.add(h.pid()));
        launcher.descendants().forEach(started::add);
        assertThat(all).as("shells and JVMs").hasSizeGreaterThanOrEqualTo(4);
        kill9(launcher.pid());
        assertThat(leftAfterGrace(ranks, job)).as("ranks left " + GRACE + " after SIGKILL of jmpirun").isEmpty();
        assertThat(leftAfterGrace(all, job)).as("shells left after their ranks").isEmpty();
    }
}
