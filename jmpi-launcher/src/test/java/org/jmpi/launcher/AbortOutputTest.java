package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import org.jmpi.launcher.ranks.AbortAfterOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 12, item 7: every line a rank wrote before the job ended in MPI_Abort reaches jmpirun's output, in order per
 * rank. The teardown after an abort used to signal ranks with {@link Process#destroy()}, which also closes the pipes
 * the launcher reads their output from: lines still in a pipe were lost (about 1 run in 20 with short output, almost
 * always with a pipe-full of it behind a slow terminal, as here).
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AbortOutputTest {
    private static final int RANKS = 3;
    private static final int LINES = 4000;
    private static final int RUNS = 4;

    @Test
    void noLineIsLostWhenAJobAborts() throws Exception {
        List<String> problems = new ArrayList<>();
        for (int run = 0; run < RUNS; run++) {
            List<String> out = new CopyOnWriteArrayList<>();
            LaunchResult r = Launcher.builder().ranks(RANKS).classpath(System.getProperty("java.class.path"))
                    .jvmArgs(LauncherTest.FAST_JVM).mainClass(AbortAfterOutput.class.getName())
                    .args(List.of(Integer.toString(LINES))).timeout(Duration.ofSeconds(60)).stdinToRank0(false)
                    .output((rank, stderr, line) -> {
                        // a slow terminal: lines wait in the pipes when the abort comes
                        LockSupport.parkNanos(50_000);
                        out.add(rank + (stderr ? "e:" : "o:") + line);
                    }).build().run();
            assertThat(r.exitCode()).as(r.summary()).isEqualTo(3);
            for (int rank = 0; rank < RANKS; rank++) {
                String prefix = rank + "o:";
                List<String> mine = out.stream().filter(l -> l.startsWith(prefix)).toList();
                int next = 0;
                for (String l : mine) {
                    if (next < LINES && l.startsWith(prefix + "rank " + rank + " line " + next + " ")) {
                        next++;
                    }
                }
                if (mine.size() != LINES || next != LINES) {
                    problems.add("run " + run + ", rank " + rank + ": " + mine.size() + " of " + LINES
                            + " lines, " + next + " in order");
                }
            }
            if (!out.contains((RANKS - 1) + "e:rank " + (RANKS - 1) + " aborts")) {
                problems.add("run " + run + ": the aborting rank's stderr line is missing");
            }
        }
        assertThat(problems).isEmpty();
    }
}
