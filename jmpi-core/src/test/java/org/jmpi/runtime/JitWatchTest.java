package org.jmpi.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link JitWatch}: finds the compiler threads by name, calls them busy while their scheduler counters grow, ends once
 * they stand still, and reads without allocating (waiting threads call it in the spin loop of every wait).
 */
class JitWatchTest {

    /** A thread's directory under {@code tasks}; returns its schedstat file. */
    private static Path task(Path tasks, String tid, String comm, String schedstat) throws IOException {
        Path t = Files.createDirectories(tasks.resolve(tid));
        Files.writeString(t.resolve("comm"), comm + "\n");
        Files.writeString(t.resolve("schedstat"), schedstat);
        return t.resolve("schedstat");
    }

    @Test
    void busyWhileACompilerThreadsCountersGrowAndEndedOnceTheyStandStill(@TempDir Path tasks) throws IOException {
        task(tasks, "100", "main", "5000 10 3\n");
        Path c2 = task(tasks, "101", "C2 CompilerThre", "1000 200 7\n");
        task(tasks, "102", "C1 CompilerThre", "3000 400 9\n");
        // every call reads (no interval); ends at the second idle read
        JitWatch w = JitWatch.open(tasks, 0, 0);
        assertThat(w).isNotNull();
        Files.writeString(c2, "1500 200 8\n"); // it ran
        assertThat(w.busy()).isTrue();
        Files.writeString(c2, "1500 900 8\n"); // it waited for a core: still work to do
        assertThat(w.busy()).isTrue();
        Files.writeString(tasks.resolve("100").resolve("schedstat"), "9000 10 4\n"); // not a compiler thread
        assertThat(w.busy()).as("first idle read").isFalse();
        assertThat(w.ended()).isFalse();
        assertThat(w.busy()).as("second idle read: watching ends").isFalse();
        assertThat(w.ended()).isTrue();
        Files.writeString(c2, "9999 900 9\n");
        assertThat(w.busy()).as("after the end nothing is read").isFalse();
    }

    @Test
    void growthBetweenIdleReadsStartsTheQuietPeriodAgain(@TempDir Path tasks) throws IOException {
        Path c1 = task(tasks, "7", "C1 CompilerThre", "10 0 1\n");
        JitWatch w = JitWatch.open(tasks, 0, Long.MAX_VALUE);
        assertThat(w.busy()).isFalse();
        Files.writeString(c1, "20 0 2\n");
        assertThat(w.busy()).isTrue();
        assertThat(w.busy()).isFalse();
        assertThat(w.ended()).isFalse();
    }

    @Test
    void betweenReadsTheLastAnswerStands(@TempDir Path tasks) throws IOException {
        Path c1 = task(tasks, "7", "C1 CompilerThre", "10 0 1\n");
        JitWatch w = JitWatch.open(tasks, Long.MAX_VALUE / 4, 0);
        Files.writeString(c1, "20 0 2\n");
        assertThat(w.busy()).as("busy from the start, until the first read").isTrue();
        assertThat(w.ended()).isFalse();
    }

    @Test
    void nothingToWatchGivesNoWatch(@TempDir Path tasks) throws IOException {
        assertThat(JitWatch.open(tasks.resolve("absent"), 0, 0)).isNull();
        task(tasks, "1", "main", "1 2 3\n");
        assertThat(JitWatch.open(tasks, 0, 0)).as("no compiler thread").isNull();
        task(tasks, "2", "C2 CompilerThre", "garbage\n");
        assertThat(JitWatch.open(tasks, 0, 0)).as("counters that do not parse").isNull();
    }

    @Test
    void aCounterThatDisappearsEndsTheWatch(@TempDir Path tasks) throws IOException {
        Path c2 = task(tasks, "3", "C2 CompilerThre", "1 1 1\n");
        JitWatch w = JitWatch.open(tasks, 0, Long.MAX_VALUE);
        Files.writeString(c2, ""); // a thread that ended reads as nothing
        assertThat(w.busy()).isFalse();
        assertThat(w.ended()).isTrue();
    }

    @Test
    void thisJvmsCompilerThreadsAreFoundAndReadWithoutAllocating() {
        Path self = Path.of("/proc/self/task");
        assumeTrue(Files.isDirectory(self), "Linux only");
        JitWatch w = JitWatch.open(self, 0, Long.MAX_VALUE);
        assertThat(w).as("the C1 and C2 compiler threads of this JVM").isNotNull();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 2_000; i++) {
            w.busy(); // the first calls' own garbage, and C2 for busy and read
        }
        int calls = 20_000;
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < calls; i++) {
            w.busy();
        }
        long bytes = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(w.ended()).isFalse();
        assertThat(bytes).as("bytes allocated by %d reads of the counters", calls).isLessThan(calls / 10);
    }
}
