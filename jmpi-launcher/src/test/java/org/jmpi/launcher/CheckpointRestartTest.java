package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jmpi.launcher.ranks.CheckpointRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * jmpirun's checkpoint flags and {@code --restart-on-failure}, in-process ({@link JmpiRun#execute}) with real rank
 * processes: bad flags are refused before anything starts; a job whose rank SIGKILLs itself once is started again
 * from the newest complete checkpoint and ends with the answer of an uninterrupted run.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CheckpointRestartTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int jmpirun(String... args) throws Exception {
        out.reset();
        err.reset();
        List<String> a = new ArrayList<>(List.of("--no-stdin", "-cp", LauncherTest.testClasses().toString()));
        for (String j : LauncherTest.FAST_JVM) {
            a.add("--jvm-arg=" + j);
        }
        a.addAll(List.of(args));
        return JmpiRun.execute(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), a.toArray(String[]::new));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private List<String> generations(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("generation-")).sorted().toList();
        }
    }

    /** The answer of an uninterrupted run. */
    private String answer(int ranks, int steps) throws Exception {
        assertThat(jmpirun("-n", Integer.toString(ranks), CheckpointRank.class.getName(), Integer.toString(steps),
                "none")).as(err()).isZero();
        return out().lines().filter(l -> l.startsWith("answer ")).findFirst().orElseThrow();
    }

    @Test
    void badFlagsAreRefusedBeforeTheJobStarts() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        boolean root = "root".equals(System.getProperty("user.name"));
        Path readOnly = root ? Path.of("/sys") : Files.createDirectory(dir.resolve("ro"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r-xr-xr-x")));
        String main = CheckpointRank.class.getName();
        String[][] cases = {
            {"-ckpoint-prefix", dir.resolve("missing").toString(), "the checkpoint directory does not exist"},
            {"--ckpoint-prefix", file.toString(), "not a directory"},
            {"-ckpoint-prefix", readOnly.toString(), "cannot be written"},
            {"-ckpoint-prefix", dir.toString(), "-ckpoint-num", "3", "holds no complete generation 3"},
            {"-ckpoint-interval", "5", "needs a checkpoint directory"},
            {"-ckpoint-prefix", dir.toString(), "-ckpoint-interval", "soon", "needs a number of seconds"},
            {"-ckpoint-prefix", dir.toString(), "--ckpoint-keep", "0", "at least 1"},
            {"--restart-on-failure", "2", "--continue-on-failure", "contradict each other"},
            {"--restart-on-failure", "-1", "0 or more"},
            {"--threads", "--restart-on-failure", "1", "does not apply with --threads"},
        };
        for (String[] c : cases) {
            List<String> args = new ArrayList<>(List.of(c).subList(0, c.length - 1));
            args.addAll(List.of("-n", "2", main, "4", "none"));
            assertThat(jmpirun(args.toArray(String[]::new))).as(String.join(" ", c)).isEqualTo(JmpiRun.USAGE_ERROR);
            assertThat(err()).as(String.join(" ", c)).startsWith("jmpirun: ").contains(c[c.length - 1]);
            assertThat(out()).as("no rank started").isEmpty();
        }
        assertThat(generations(dir)).isEmpty();
    }

    @Test
    void aKilledRankRestartsTheJobFromTheNewestCompleteCheckpoint() throws Exception {
        String expected = answer(3, 40);
        assertThat(jmpirun("-n", "3", "-ckpoint-prefix", dir.toString(), "--restart-on-failure", "2",
                CheckpointRank.class.getName(), "40", "kill")).as(err()).isZero();
        assertThat(out().lines().filter(l -> l.startsWith("answer "))).containsExactly(expected);
        // killed after step 20 was checkpointed: generation 19 holds step 20
        List<String> restarts = err().lines().filter(l -> l.contains("restart ")).toList();
        assertThat(restarts).singleElement().asString().startsWith("jmpirun: rank 2 ")
                .contains("killed by signal 9").contains("restart 1 of 2, from checkpoint generation 19 in " + dir);
        assertThat(out().lines().filter(l -> l.startsWith("resumed "))).hasSize(3).allMatch(l -> l.endsWith("step 20"));
        assertThat(generations(dir)).containsExactly("generation-38", "generation-39");
    }

    @Test
    void withoutACheckpointTheJobStartsAgainFromTheBeginning() throws Exception {
        String expected = answer(2, 10);
        assertThat(jmpirun("-n", "2", "--restart-on-failure", "1", CheckpointRank.class.getName(), "10", "kill"))
                .as(err()).isZero();
        assertThat(out().lines().filter(l -> l.startsWith("answer "))).containsExactly(expected);
        assertThat(out()).doesNotContain("resumed");
        assertThat(err().lines().filter(l -> l.contains("restart "))).singleElement().asString()
                .contains("restart 1 of 1, from the beginning (no -ckpoint-prefix)");
    }

    @Test
    void restartsEndWhenTheCountIsSpentOrTheFailureIsNotACrash() throws Exception {
        int code = jmpirun("-n", "2", "-ckpoint-prefix", dir.toString(), "--restart-on-failure", "2",
                CheckpointRank.class.getName(), "10", "killAlways");
        assertThat(code).as(err()).isEqualTo(137);
        List<String> lines = err().lines().filter(l -> l.startsWith("jmpirun: ")).toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).contains("restart 1 of 2, from checkpoint generation 0");
        assertThat(lines.get(1)).contains("restart 2 of 2, from checkpoint generation 1");
        assertThat(lines.get(2)).contains("rank 1").contains("killed by signal 9").doesNotContain("restart");
        // MPI_Abort is the program's decision: no restart
        Path other = Files.createDirectory(dir.resolve("abort"));
        assertThat(jmpirun("-n", "2", "-ckpoint-prefix", other.toString(), "--restart-on-failure", "2",
                CheckpointRank.class.getName(), "10", "abort")).isEqualTo(9);
        assertThat(err()).doesNotContain("restart ");
    }

    @Test
    void anExplicitGenerationOnTheFirstRunOnly() throws Exception {
        assertThat(jmpirun("-n", "2", "-ckpoint-prefix", dir.toString(), "--ckpoint-keep", "30",
                CheckpointRank.class.getName(), "20", "none")).as(err()).isZero();
        String full = out().lines().filter(l -> l.startsWith("answer ")).findFirst().orElseThrow();
        assertThat(generations(dir)).hasSize(20);
        // resume from generation 5 (step 6): same answer; the checkpoints after it are written anew
        assertThat(jmpirun("-n", "2", "-ckpoint-prefix", dir.toString(), "-ckpoint-num", "5", "--ckpoint-keep", "30",
                "-ckpoint-interval", "0", CheckpointRank.class.getName(), "20", "none")).as(err()).isZero();
        assertThat(out().lines()).contains(full, "resumed 0 at step 6", "resumed 1 at step 6");
    }

    /**
     * A job run again in the directory of one that finished starts afresh and says so in one line, in both modes; the
     * checkpoints of one that did not finish are still resumed from.
     */
    @Test
    void theCheckpointsOfAFinishedJobAreNotTakenForARestart() throws Exception {
        String main = CheckpointRank.class.getName();
        assertThat(jmpirun("-n", "3", "-ckpoint-prefix", dir.toString(), main, "8", "none")).as(err()).isZero();
        String answer = out().lines().filter(l -> l.startsWith("answer ")).findFirst().orElseThrow();
        assertThat(generations(dir)).containsExactly("generation-6", "generation-7");
        for (String mode : new String[] {"processes", "threads"}) {
            List<String> args = new ArrayList<>(List.of("-n", "3", "-ckpoint-prefix", dir.toString(), main, "8",
                    "none"));
            int code;
            String printed;
            if (mode.equals("threads")) {
                // threads print to this JVM's System.out
                args.add(0, "--threads");
                PrintStream old = System.out;
                ByteArrayOutputStream ranks = new ByteArrayOutputStream();
                System.setOut(new PrintStream(ranks, true, StandardCharsets.UTF_8));
                try {
                    code = jmpirun(args.toArray(String[]::new));
                } finally {
                    System.setOut(old);
                }
                printed = ranks.toString(StandardCharsets.UTF_8);
            } else {
                code = jmpirun(args.toArray(String[]::new));
                printed = out();
            }
            assertThat(code).as(mode + ": " + err()).isZero();
            assertThat(printed).as(mode).doesNotContain("resumed").contains(answer);
            // (the threads run also notes that the test's --jvm-arg does not apply)
            assertThat(err().lines().filter(l -> !l.contains("--jvm-arg"))).as(mode).containsExactly(
                    "jmpirun: note: the checkpoints in " + dir
                    + " (newest: generation " + (mode.equals("threads") ? 15 : 7) + ") are those of a job that "
                    + "finished; this job starts afresh (-ckpoint-num " + (mode.equals("threads") ? 15 : 7)
                    + " resumes from one)");
        }
        // a job that is killed half-way did not finish: run again, it resumes
        assertThat(jmpirun("-n", "3", "-ckpoint-prefix", dir.toString(), main, "8", "kill")).isEqualTo(137);
        assertThat(jmpirun("-n", "3", "-ckpoint-prefix", dir.toString(), main, "8", "none")).as(err()).isZero();
        assertThat(out()).contains("resumed 0 at step 4", answer);
        assertThat(err()).doesNotContain("afresh");
    }

    @Test
    void threadsModeGetsTheSettingsAsProperties() throws Exception {
        assertThat(jmpirun("--threads", "-n", "2", "-ckpoint-prefix", dir.toString(), CheckpointRank.class.getName(),
                "6", "none")).as(err()).isZero();
        assertThat(generations(dir)).containsExactly("generation-4", "generation-5");
        assertThat(System.getProperty("jmpi.ckpt.prefix")).as("cleared after the run").isNull();
    }
}
