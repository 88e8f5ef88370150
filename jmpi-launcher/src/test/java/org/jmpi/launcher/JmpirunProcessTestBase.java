package org.jmpi.launcher;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test that runs jmpirun as a process of its own ({@link #jmpirun}, started by the test in {@link #dir}): whatever
 * the outcome, the process and every process it started are killed after each test.
 */
abstract class JmpirunProcessTestBase {
    @TempDir
    Path dir;

    /** The running test's jmpirun process, or null. */
    Process jmpirun;

    @AfterEach
    void killLeftovers() {
        if (jmpirun != null) {
            jmpirun.descendants().forEach(ProcessHandle::destroyForcibly);
            jmpirun.destroyForcibly();
        }
    }
}
