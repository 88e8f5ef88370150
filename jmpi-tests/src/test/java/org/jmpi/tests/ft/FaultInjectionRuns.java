package org.jmpi.tests.ft;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jmpi.benchmarks.CheckpointFaults;
import org.jmpi.launcher.JmpiRun;

/**
 * The settings and checks both fault-injection tests share: a few runs of {@link CheckpointFaults} (the 100-run
 * series is jmpi-benchmarks/scripts/ckpt-faults.sh) with jmpirun from this JVM's class path, a 4-rank 128 x 128
 * Jacobi of 2,000 iterations checkpointing every 100, and 40% of the kills timed into a checkpoint write slowed to
 * 200 ms.
 */
final class FaultInjectionRuns {
    /** Runs of the driver per test (about 12 s each here, after the reference run; 4 until CI took 30 minutes). */
    static final int RUNS = 3;

    private FaultInjectionRuns() {}

    /** Runs the driver with the shared settings plus {@code extra} (e.g. {@code mode=ulfm}). */
    static CheckpointFaults.Counts run(Map<String, String> extra) throws Exception {
        String cp = System.getProperty("java.class.path");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Map<String, String> options = new LinkedHashMap<>();
        options.put("jmpirun", java + " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp " + cp + " "
                + JmpiRun.class.getName());
        options.put("cp", cp);
        options.put("runs", Integer.toString(RUNS));
        options.put("ranks", "4");
        options.put("size", "128");
        options.put("iterations", "2000");
        options.put("checkpoint-every", "100");
        options.put("during-write", "0.4");
        options.put("write-delay-ms", "200");
        options.put("timeout", "240");
        options.putAll(extra);
        return CheckpointFaults.run(CheckpointFaults.Settings.of(options));
    }

    /**
     * Every run right, none hung, nothing left behind, at least one kill, and one recovery ({@code what}: a restart
     * or a shrink) per kill.
     */
    static void assertEveryRunRecovered(CheckpointFaults.Counts c, String what) {
        assertThat(c.rightAnswers()).as(c.toString()).isEqualTo(RUNS);
        assertThat(c.hangs()).as(c.toString()).isZero();
        assertThat(c.leftoverProcesses()).as(c.toString()).isZero();
        assertThat(c.leftoverShmFiles()).as(c.toString()).isZero();
        assertThat(c.kills()).as(c.toString()).isPositive();
        assertThat(c.restarts()).as("one " + what + " per kill: " + c).isEqualTo(c.kills());
    }
}
