package org.jmpi.junit;

import java.util.List;
import org.opentest4j.TestAbortedException;

/** Runs one invocation in {@link Mode#PROCESSES}: one JVM per rank. */
final class ProcessesRunner {
    private ProcessesRunner() {}

    static Outcome run(RankTask task, int size, long timeoutNanos, List<String> jvmArgs) {
        throw new TestAbortedException("processes mode is not available yet (waiting for org.jmpi.launcher.Launcher)");
    }
}
