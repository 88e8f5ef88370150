package org.jmpi.tests.ft;

import java.util.Map;
import org.jmpi.benchmarks.CheckpointFaults;
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
        FaultInjectionRuns.assertEveryRunRecovered(FaultInjectionRuns.run(Map.of("mode", "ulfm")), "recovery");
    }
}
