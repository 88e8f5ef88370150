package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jmpi.launcher.ranks.EarlyEnd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A rank that ends early ends the job the same way in both modes, with the same exit code and a line naming it:
 * its main returning without MPI.Finalize (exit 1), or it calling {@code System.exit(3)} (exit 3). jmpirun runs as a
 * process of its own: in threads mode {@code System.exit} ends its JVM.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EarlyEndTest extends JmpirunProcessTestBase {
    private record Run(int code, String output) {}

    private Run run(boolean threads, String mode) throws Exception {
        List<String> args = new ArrayList<>(List.of("--no-stdin", "-n", "3", "--timeout", "60"));
        if (threads) {
            args.add("--threads");
        } else {
            args.add("--jvm-arg=-XX:TieredStopAtLevel=1");
        }
        args.addAll(List.of("-cp", LauncherTest.testClasses().toString(), EarlyEnd.class.getName(), mode));
        Path out = dir.resolve((threads ? "threads-" : "processes-") + mode + ".txt");
        jmpirun = new ProcessBuilder(LaunchIntegrationTest.jmpirun(args.toArray(String[]::new)))
                .redirectErrorStream(true).redirectOutput(out.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        assertThat(jmpirun.waitFor(90, TimeUnit.SECONDS)).as("jmpirun ended").isTrue();
        return new Run(jmpirun.exitValue(), Files.readString(out));
    }

    private void bothModesSay(String mode, int code, String what) throws Exception {
        for (boolean threads : new boolean[] {false, true}) {
            Run r = run(threads, mode);
            assertThat(r.code()).as((threads ? "threads: " : "processes: ") + r.output()).isEqualTo(code);
            assertThat(r.output().lines().filter(l -> l.startsWith("jmpirun: rank 1 ") && l.contains(what)
                    && l.contains("; killed the 2 ranks still running")))
                    .as((threads ? "threads: " : "processes: ") + r.output()).hasSize(1);
        }
    }

    @Test
    void aMainThatReturnsWithoutFinalizeFailsTheJobInBothModes() throws Exception {
        bothModesSay("return", 1, "exited with code 0 without finalizing");
    }

    @Test
    void systemExitNamesTheRankInBothModes() throws Exception {
        bothModesSay("exit3", 3, "exited with code 3");
    }
}
