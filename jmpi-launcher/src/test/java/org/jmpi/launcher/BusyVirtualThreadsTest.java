package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jmpi.launcher.ranks.TestRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job's start, PMI exchanges, finalize and end do not depend on the virtual-thread scheduler of the JVM that runs
 * the launcher. That JVM may be a test's or a program's (the {@link Launcher} API, jmpi-junit's processes mode), and
 * its virtual threads may keep every carrier busy; before, the PMI server and the exit watchers ran on virtual
 * threads, and a rank's {@code finalize} then waited unanswered until a carrier came free (a job that printed its
 * answer and never ended). Here every carrier runs a virtual thread that never yields while a job runs.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BusyVirtualThreadsTest {
    @Test
    void aJobRunsToItsEndWhileEveryCarrierIsBusy() throws Exception {
        int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                Runtime.getRuntime().availableProcessors());
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch spinning = new CountDownLatch(carriers);
        List<Thread> spinners = new ArrayList<>();
        ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
        try {
            for (int i = 0; i < carriers; i++) {
                spinners.add(Thread.ofVirtual().name("busy-" + i).start(() -> {
                    spinning.countDown();
                    while (!stop.get()) {
                        Thread.onSpinWait();
                    }
                }));
            }
            spinning.await(); // every carrier now runs a virtual thread that does not give it back
            LaunchResult r;
            try (Launcher.Job job = Launcher.builder()
                    .ranks(2)
                    .classpath(LauncherTest.testClasses())
                    .mainClass(TestRank.class.getName())
                    .args("exchange")
                    .jvmArgs(LauncherTest.FAST_JVM)
                    .timeout(Duration.ofSeconds(30))
                    .output((rank, stderr, line) -> lines.add(rank + (stderr ? " err: " : " out: ") + line))
                    .build().start()) {
                r = job.await();
            }
            assertThat(r.exitCode()).as(r.summary() + " " + lines).isZero();
            assertThat(r.timedOut()).isFalse();
        } finally {
            stop.set(true);
            for (Thread t : spinners) {
                t.join();
            }
        }
    }
}
