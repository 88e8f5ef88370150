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
 * Shared-memory segment files ({@code /dev/shm/jmpi-<job id>-<rank>}) are gone once MPI_Init has returned (every rank
 * of the host mapped every segment, and the last to map each removed it), and nothing of the job is left when it has
 * ended: a file a killed rank left behind is removed by the host proxy.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SharedMemoryCleanupTest {
    private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();

    private LaunchResult run(int ranks, String mode, List<String> jobId) throws Exception {
        return run(ranks, mode, jobId, java.util.Map.of());
    }

    private LaunchResult run(int ranks, String mode, List<String> jobId, java.util.Map<String, String> env)
            throws Exception {
        Launcher.Builder b = Launcher.builder()
                .env(env)
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
        return segments(Path.of("/dev/shm"), jobId);
    }

    private static List<Path> segments(Path dir, String jobId) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("jmpi-" + jobId + "-")).toList();
        }
    }

    @Test
    void noSegmentFileRemainsAfterInitOrAfterTheJob() throws Exception {
        List<String> job = new ArrayList<>();
        LaunchResult r = run(3, "finalize", job);
        assertThat(r.exitCode()).as(r.summary() + " " + lines).isZero();
        for (int rank = 0; rank < 3; rank++) {
            assertThat(lines).as("rank %d found its segment file removed after MPI_Init", rank)
                    .contains(rank + " out: segment /dev/shm/jmpi-" + job.get(0) + "-" + rank + " false");
        }
        assertThat(segments(job.get(0))).isEmpty();
    }

    @Test
    void theLauncherRemovesTheSegmentsOfAJobWhoseRankWasKilled() throws Exception {
        List<String> job = new ArrayList<>();
        LaunchResult r = run(3, "kill9", job);
        assertThat(r.exitCode()).as(r.summary()).isNotZero();
        assertThat(r.failedRank()).isEqualTo(1);
        assertThat(lines).contains("1 out: left /dev/shm/jmpi-" + job.get(0) + "-1");
        assertThat(segments(job.get(0))).as("segment files left by the killed job").isEmpty();
    }

    /**
     * A rank SIGKILLed in MPI_Init after creating its segment, before any peer mapped it, in a segment directory given
     * to the ranks only (as {@code jmpirun -x JMPI_SHM_DIR=...} does): the proxy's end-of-job sweep must look there.
     */
    @Test
    void aSegmentOfARankKilledInMpiInitIsRemovedFromTheRanksOwnDirectory(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        List<String> job = new ArrayList<>();
        LaunchResult r = run(3, "killDuringInit", job, java.util.Map.of("JMPI_SHM_DIR", dir.toString()));
        assertThat(r.exitCode()).as(r.summary()).isNotZero();
        assertThat(r.failedRank()).isEqualTo(1);
        assertThat(lines).as("rank 1 was killed while its segment existed")
                .contains("1 out: created " + dir.resolve("jmpi-" + job.get(0) + "-1") + " true");
        assertThat(segments(dir, job.get(0))).as("segment files left by the killed job").isEmpty();
    }
}
