package org.jmpi.tests.ft;

import java.util.Map;
import org.jmpi.benchmarks.CheckpointFaults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A few runs of the fault-injection driver ({@link CheckpointFaults}; the 100-run series is
 * jmpi-benchmarks/scripts/ckpt-faults.sh): a 4-rank Jacobi under {@code jmpirun --restart-on-failure}, one random
 * rank SIGKILLed per run at a random time or while a checkpoint is being written. Every run must end with the checksum
 * of an uninterrupted run, one restart per kill, nothing hung, no process or /dev/shm file left.
 */
class CheckpointFaultInjectionTest {
    @Test
    @Timeout(value = 600, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void killedRanksRestartToTheRightAnswer() throws Exception {
        FaultInjectionRuns.assertEveryRunRecovered(FaultInjectionRuns.run(Map.of("restarts", "3")), "restart");
    }
}
