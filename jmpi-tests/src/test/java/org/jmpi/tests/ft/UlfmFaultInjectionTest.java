package org.jmpi.tests.ft;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.jmpi.benchmarks.CheckpointFaults;
import org.jmpi.launcher.JmpiRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A few runs of the fault-injection driver in ULFM mode ({@link CheckpointFaults} {@code --mode ulfm}; the 100-run
 * series is jmpi-benchmarks/scripts/ckpt-faults.sh with that option): a 4-rank JacobiUlfm under {@code jmpirun
 * --continue-on-failure}, one random rank SIGKILLed per run at a random time or while a checkpoint is being written.
 * The survivors must finish with the checksum of an uninterrupted run, one recovery per kill, nothing hung, no process
 * or /dev/shm file left.
 */
class UlfmFaultInjectionTest {
    @Test
    @Timeout(value = 600, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void theSurvivorsFinishWithTheRightAnswer() throws Exception {
        String cp = System.getProperty("java.class.path");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        CheckpointFaults.Settings s = CheckpointFaults.Settings.of(Map.ofEntries(
                Map.entry("jmpirun", java + " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp " + cp + " "
                        + JmpiRun.class.getName()),
                Map.entry("mode", "ulfm"), Map.entry("cp", cp), Map.entry("runs", "5"), Map.entry("ranks", "4"),
                Map.entry("size", "128"), Map.entry("iterations", "4000"), Map.entry("checkpoint-every", "100"),
                Map.entry("during-write", "0.4"), Map.entry("write-delay-ms", "200"), Map.entry("timeout", "240")));
        CheckpointFaults.Counts c = CheckpointFaults.run(s);
        assertThat(c.rightAnswers()).as(c.toString()).isEqualTo(5);
        assertThat(c.hangs()).as(c.toString()).isZero();
        assertThat(c.leftoverProcesses()).as(c.toString()).isZero();
        assertThat(c.leftoverShmFiles()).as(c.toString()).isZero();
        assertThat(c.kills()).as(c.toString()).isPositive();
        assertThat(c.restarts()).as("one recovery per kill: " + c).isEqualTo(c.kills());
    }
}
