package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.jmpi.launcher.ranks.ShmRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Shared-memory segment files ({@code /dev/shm/jmpi-<job id>-<rank>}) exist while a job runs and are gone when it has
 * ended: removed by each rank's MPI_Finalize, and by the host proxy when a rank was killed before it.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SharedMemoryCleanupTest {
    private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();

    private LaunchResult run(int ranks, String mode, List<String> jobId) throws Exception {
        Launcher.Builder b = Launcher.builder()
                .ranks(ranks)
                .classpath(LauncherTest.testClasses())
                .mainClass(ShmRank.class.getName())
                .args(mode)
                .jvmArgs(LauncherTest.FAST_JVM)
                .terminationGrace(Duration.ofMillis(500))
                .timeout(Duration.ofSeconds(60))
                .output((rank, stderr, line) -> lines.add(rank + (stderr ? " err: " : " out: ") + line));
        try (Launcher.Job job = b.build().start()) {
            jobId.add(job.jobId());
            return job.await();
        }
    }

    private static List<Path> segments(String jobId) throws Exception {
        try (Stream<Path> s = Files.list(Path.of("/dev/shm"))) {
            return s.filter(p -> p.getFileName().toString().startsWith("jmpi-" + jobId + "-")).toList();
        }
    }

    @Test
    void finalizeRemovesEverySegment() throws Exception {
        List<String> job = new ArrayList<>();
        LaunchResult r = run(3, "finalize", job);
        assertThat(r.exitCode()).as(r.summary() + " " + lines).isZero();
        for (int rank = 0; rank < 3; rank++) {
            assertThat(lines).as("rank %d saw its segment while running", rank)
                    .contains(rank + " out: segment /dev/shm/jmpi-" + job.get(0) + "-" + rank + " true");
        }
        assertThat(segments(job.get(0))).isEmpty();
    }

    @Test
    void theLauncherRemovesTheSegmentsOfAJobWhoseRankWasKilled() throws Exception {
        List<String> job = new ArrayList<>();
        LaunchResult r = run(3, "kill9", job);
        assertThat(r.exitCode()).as(r.summary()).isNotZero();
        assertThat(r.failedRank()).isEqualTo(1);
        assertThat(lines).contains("1 out: segment /dev/shm/jmpi-" + job.get(0) + "-1 true");
        assertThat(segments(job.get(0))).as("segment files left by the killed job").isEmpty();
    }
}
