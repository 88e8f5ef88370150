package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jmpi.launcher.ranks.CheckedRank;
import org.jmpi.launcher.ranks.CountingTool;
import org.jmpi.launcher.ranks.ProfiledRank;
import org.jmpi.launcher.ranks.ThrowingTool;
import org.jmpi.launcher.ranks.TraceCompletionsRank;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The profiling interface (org.jmpi.profile) through jmpirun: a tool sees exactly the calls a real program makes
 * (only the outermost ones), in processes and in threads mode; the summary's totals agree; a failing tool is
 * reported once and the program goes on.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ProfilingTest {
    /** What ProfiledRank calls on rank r of n, by name. */
    static Map<String, Integer> expected(int rank, int size) {
        Map<String, Integer> m = new TreeMap<>();
        m.put("MPI.Init", 1);
        m.put("Comm.getRank", 1);
        m.put("Comm.getSize", 1);
        m.put("Comm.barrier", 3);
        m.put("Comm.allReduce", 1);
        m.put("Comm.send", rank + 1);
        m.put("Comm.recv", ((rank + size - 1) % size + 1) + 1);
        m.put("Comm.sendRecv", 1);
        m.put("Comm.iSend", 1);
        m.put("Request.waitFor", 1);
        m.put("Comm.bcast", 1);
        m.put("MPI.Finalize", 1);
        return m;
    }

    private static LaunchIntegrationTest.Result run(String mode, int n, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("--no-stdin", "-n", Integer.toString(n), "-cp",
                LaunchIntegrationTest.rankClassPath()));
        if (mode.equals("threads")) {
            args.add("--threads");
        }
        args.addAll(List.of(extra));
        args.add(ProfiledRank.class.getName());
        return LaunchIntegrationTest.run(LaunchIntegrationTest.jmpirun(args.toArray(String[]::new)), Map.of(),
                Duration.ofSeconds(180));
    }

    @ParameterizedTest
    @CsvSource({"processes, 2", "processes, 3", "threads, 3"})
    void aToolCountsEveryCallOfARealProgramExactly(String mode, int n) throws Exception {
        LaunchIntegrationTest.Result r = run(mode, n, "--tool", CountingTool.class.getName());
        assertThat(r.rc()).as(r.out()).isZero();
        Matcher m = Pattern.compile("counted (\\d+)((?: [\\w.]+=\\d+)+)").matcher(r.out());
        int seen = 0;
        while (m.find()) {
            int rank = Integer.parseInt(m.group(1));
            Map<String, Integer> counted = new TreeMap<>();
            for (String kv : m.group(2).trim().split(" ")) {
                String[] p = kv.split("=");
                counted.put(p[0], Integer.parseInt(p[1]));
            }
            assertThat(counted).as("rank " + rank + " of " + n + ": " + r.out()).isEqualTo(expected(rank, n));
            seen++;
        }
        assertThat(seen).as(r.out()).isEqualTo(n);
    }

    @ParameterizedTest
    @CsvSource({"processes, 3", "threads, 2"})
    void theSummaryAgreesWithTheProgramsCalls(String mode, int n) throws Exception {
        LaunchIntegrationTest.Result r = run(mode, n, "--summary");
        assertThat(r.rc()).as(r.out()).isZero();
        Map<String, Integer> total = new TreeMap<>();
        for (int rank = 0; rank < n; rank++) {
            expected(rank, n).forEach((k, v) -> total.merge(k, v, Integer::sum));
        }
        for (Map.Entry<String, Integer> e : total.entrySet()) {
            Matcher m = Pattern.compile("(?m)^  " + Pattern.quote(e.getKey()) + " +(\\d+) ").matcher(r.out());
            assertThat(m.find()).as(e.getKey() + " in " + r.out()).isTrue();
            assertThat(Integer.parseInt(m.group(1))).as(e.getKey()).isEqualTo(e.getValue());
        }
        for (int rank = 0; rank < n; rank++) {
            assertThat(r.out()).containsPattern("(?m)^ +" + rank + " +[0-9.]+ +[0-9.]+ +[0-9.]+$");
        }
    }

    @ParameterizedTest
    @CsvSource({"processes, 2", "threads, 2"})
    void aFailingToolIsReportedOnceAndTheProgramGoesOn(String mode, int n) throws Exception {
        LaunchIntegrationTest.Result r = run(mode, n, "--tool", ThrowingTool.class.getName());
        assertThat(r.rc()).as(r.out()).isZero();
        String line = "tool " + ThrowingTool.class.getName() + " failed in before(";
        assertThat(r.out().split(Pattern.quote(line), -1)).as("once per rank: " + r.out()).hasSize(n + 1);
    }

    private static LaunchIntegrationTest.Result check(String mode, String program) throws Exception {
        return check(mode, program, Map.of("JMPI_CHECK_BLOCKED_SECONDS", "2"), Duration.ofSeconds(120));
    }

    /** {@code --check} on two ranks of {@link CheckedRank} running {@code program}, in {@code mode}. */
    private static LaunchIntegrationTest.Result check(String mode, String program, Map<String, String> env,
            Duration timeout) throws Exception {
        List<String> args = new ArrayList<>(List.of("--no-stdin", "-n", "2", "--check", "-cp",
                LaunchIntegrationTest.rankClassPath()));
        if (mode.equals("threads")) {
            args.add("--threads");
        }
        args.add(CheckedRank.class.getName());
        args.add(program);
        return LaunchIntegrationTest.run(LaunchIntegrationTest.jmpirun(args.toArray(String[]::new)), env, timeout);
    }

    @ParameterizedTest
    @CsvSource({"processes, root", "processes, count", "threads, root", "threads, count"})
    void checkStopsACollectiveMismatchNamingRanksCallAndSite(String mode, String program) throws Exception {
        LaunchIntegrationTest.Result r = check(mode, program);
        assertThat(r.rc()).as(r.out()).isEqualTo(org.jmpi.tools.CheckTool.EXIT_MISMATCH);
        assertThat(r.out()).contains("jmpi --check: collective mismatch", "rank 0 (world rank 0) called Comm.bcast",
                "rank 1 (world rank 1) called Comm.bcast", "CheckedRank.main(CheckedRank.java:")
                .doesNotContain("went on");
        if (program.equals("root")) {
            assertThat(r.out()).contains("called Comm.bcast(root 0, 1 x MPI_INT)",
                    "called Comm.bcast(root 1, 1 x MPI_INT)");
        } else {
            assertThat(r.out()).contains("called Comm.bcast(root 0, 2 x MPI_INT)",
                    "called Comm.bcast(root 0, 1 x MPI_INT)");
        }
    }

    @ParameterizedTest
    @CsvSource({"processes", "threads"})
    void checkTurnsATwoRankDeadlockIntoAReport(String mode) throws Exception {
        LaunchIntegrationTest.Result r = check(mode, "deadlock");
        assertThat(r.rc()).as(r.out()).isEqualTo(org.jmpi.tools.CheckTool.EXIT_DEADLOCK);
        assertThat(r.out()).contains("jmpi --check: every rank is blocked (a deadlock)",
                "rank 0 waits in Comm.recv(source 1, tag 3)", "rank 1 waits in Comm.recv(source 0, tag 3)");
    }

    /**
     * At the default JMPI_CHECK_BLOCKED_SECONDS (60): when every rank waits in MPI and nothing is in flight, the
     * verdict comes within seconds, not after a minute, and without a stack trace (threads mode printed the watchdog
     * thread's JobAbortedError).
     */
    @ParameterizedTest
    @CsvSource({"processes, 2", "processes, 3", "threads, 2", "threads, 3"})
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void checkNamesADeadlockWithinSecondsWithoutAStackTrace(String mode, int n) throws Exception {
        List<String> args = new ArrayList<>(List.of("--no-stdin", "-n", Integer.toString(n), "--check", "-cp",
                LaunchIntegrationTest.rankClassPath()));
        if (mode.equals("threads")) {
            args.add("--threads");
        }
        args.add(CheckedRank.class.getName());
        args.add("ring");
        LaunchIntegrationTest.Result r = LaunchIntegrationTest.run(
                LaunchIntegrationTest.jmpirun(args.toArray(String[]::new)), Map.of(), Duration.ofSeconds(27));
        assertThat(r.rc()).as(r.out()).isEqualTo(org.jmpi.tools.CheckTool.EXIT_DEADLOCK);
        assertThat(r.out()).contains("jmpi --check: every rank is blocked (a deadlock)");
        for (int rank = 0; rank < n; rank++) {
            assertThat(r.out()).contains("rank " + rank + " waits in Comm.recv(source " + (rank + 1) % n + ", tag 3)");
        }
        assertThat(r.out()).doesNotContain("JobAbortedError", "Exception in thread", "went on")
                .doesNotContainPattern("(?m)^\\s+at [\\w.$/]+\\(");
        assertThat(r.elapsed()).isLessThan(Duration.ofSeconds(27));
    }

    /**
     * The quick verdict needs every rank waiting in MPI: a rank computing outside MPI (slow), or a thread of a
     * THREAD_MULTIPLE program computing while the rank's one MPI call waits (threaded), leaves those waits to the long
     * timeout, and the program runs to its end.
     */
    @ParameterizedTest
    @CsvSource({"processes, slow", "threads, slow", "processes, threaded", "threads, threaded"})
    void checkLetsWaitsThatAnotherRankOrThreadEndsLateRun(String mode, String program) throws Exception {
        LaunchIntegrationTest.Result r = check(mode, program, Map.of(), Duration.ofSeconds(60));
        assertThat(r.rc()).as(r.out()).isZero();
        assertThat(r.out()).contains("rank 0 went on", "rank 1 went on").doesNotContain("jmpi --check");
    }

    @ParameterizedTest
    @CsvSource({"processes", "threads"})
    void checkListsLeaksAtFinalizeAndLetsACorrectProgramRun(String mode) throws Exception {
        LaunchIntegrationTest.Result leak = check(mode, "leak");
        assertThat(leak.rc()).as(leak.out()).isZero();
        assertThat(leak.out()).contains("finalized with 1 communicator(s) never freed", "1 request(s) never completed");
        LaunchIntegrationTest.Result fine = check(mode, "fine");
        assertThat(fine.rc()).as(fine.out()).isZero();
        assertThat(fine.out()).contains("rank 0 went on", "rank 1 went on").doesNotContain("jmpi --check");
    }

    /**
     * A request completed by any wait or test call is not a leak: before, only waitFor, test, waitAll and testAll
     * were seen, so a program completing its receives with waitStatus, waitAny, testSome... was told at MPI_Finalize
     * that it never completed them.
     */
    @ParameterizedTest
    @CsvSource({"processes", "threads"})
    void checkSeesEveryCompletionCall(String mode) throws Exception {
        List<String> args = new ArrayList<>(List.of("--no-stdin", "-n", "2", "--check", "-cp",
                LaunchIntegrationTest.rankClassPath()));
        if (mode.equals("threads")) {
            args.add("--threads");
        }
        args.add(TraceCompletionsRank.class.getName());
        LaunchIntegrationTest.Result r = LaunchIntegrationTest.run(
                LaunchIntegrationTest.jmpirun(args.toArray(String[]::new)), Map.of(), Duration.ofSeconds(120));
        assertThat(r.rc()).as(r.out()).isZero();
        assertThat(r.out()).contains("rank 0 completed every receive", "rank 1 completed every receive")
                .doesNotContain("jmpi --check");
    }

    @ParameterizedTest
    @CsvSource({"processes, 3", "threads, 2"})
    void theTraceIsValidJsonWithASpanPerCallAndAFlowPerMessage(String mode, int n,
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path file = tmp.resolve("job.json");
        LaunchIntegrationTest.Result r = run(mode, n, "--trace", file.toString());
        assertThat(r.rc()).as(r.out()).isZero();
        com.fasterxml.jackson.databind.JsonNode events = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(file.toFile()).get("traceEvents");
        Map<String, Integer> spans = new TreeMap<>();
        Map<Long, List<com.fasterxml.jackson.databind.JsonNode>> flows = new TreeMap<>();
        for (com.fasterxml.jackson.databind.JsonNode e : events) {
            switch (e.get("ph").asText()) {
                case "X" -> spans.merge(e.get("pid").asInt() + " " + e.get("name").asText(), 1, Integer::sum);
                case "s", "f" -> flows.computeIfAbsent(e.get("id").asLong(), k -> new ArrayList<>()).add(e);
                default -> { }
            }
        }
        int sends = 0;
        for (int rank = 0; rank < n; rank++) {
            for (Map.Entry<String, Integer> x : expected(rank, n).entrySet()) {
                assertThat(spans.get(rank + " " + x.getKey())).as("rank " + rank + " " + x.getKey())
                        .isEqualTo(x.getValue());
            }
            sends += rank + 1 + 2; // send, sendRecv, iSend
        }
        assertThat(flows).as("one flow per message: every send has its receive").hasSize(sends);
        for (List<com.fasterxml.jackson.databind.JsonNode> f : flows.values()) {
            assertThat(f).hasSize(2);
            assertThat(f.get(0).get("ph").asText() + f.get(1).get("ph").asText()).isIn("sf", "fs");
            com.fasterxml.jackson.databind.JsonNode s = f.get(0).get("ph").asText().equals("s") ? f.get(0) : f.get(1);
            com.fasterxml.jackson.databind.JsonNode d = s == f.get(0) ? f.get(1) : f.get(0);
            assertThat(d.get("pid").asInt()).as("to the next rank").isEqualTo((s.get("pid").asInt() + 1) % n);
        }
    }

    /**
     * A message received by iRecv gets its arrow whichever call completes the receive: every wait and test form, on
     * one request or an array, with statuses or without, also for a receive from ANY_SOURCE with ANY_TAG. Before the
     * fix none drew it: waitFor and waitAll return no status, which the tool took its source and tag from, and the
     * other calls were not looked at.
     */
    @ParameterizedTest
    @CsvSource({"processes, 3", "threads, 2"})
    void everyCallThatCompletesAnIrecvDrawsItsArrow(String mode, int n,
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path file = tmp.resolve("job.json");
        List<String> args = new ArrayList<>(List.of("--no-stdin", "-n", Integer.toString(n), "-cp",
                LaunchIntegrationTest.rankClassPath(), "--trace", file.toString()));
        if (mode.equals("threads")) {
            args.add("--threads");
        }
        args.add(TraceCompletionsRank.class.getName());
        LaunchIntegrationTest.Result r = LaunchIntegrationTest.run(
                LaunchIntegrationTest.jmpirun(args.toArray(String[]::new)), Map.of(), Duration.ofSeconds(180));
        assertThat(r.rc()).as(r.out()).isZero();
        com.fasterxml.jackson.databind.JsonNode events = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(file.toFile()).get("traceEvents");
        List<com.fasterxml.jackson.databind.JsonNode> spans = new ArrayList<>();
        Map<Long, List<com.fasterxml.jackson.databind.JsonNode>> flows = new TreeMap<>();
        for (com.fasterxml.jackson.databind.JsonNode e : events) {
            switch (e.get("ph").asText()) {
                case "X" -> spans.add(e);
                case "s", "f" -> flows.computeIfAbsent(e.get("id").asLong(), k -> new ArrayList<>()).add(e);
                default -> { }
            }
        }
        // where each arrow ends: the call whose span holds its end, on the receiving rank
        Map<String, Integer> endsIn = new TreeMap<>();
        for (List<com.fasterxml.jackson.databind.JsonNode> f : flows.values()) {
            assertThat(f).hasSize(2);
            com.fasterxml.jackson.databind.JsonNode s = f.get(0).get("ph").asText().equals("s") ? f.get(0) : f.get(1);
            com.fasterxml.jackson.databind.JsonNode d = s == f.get(0) ? f.get(1) : f.get(0);
            assertThat(d.get("ph").asText()).isEqualTo("f");
            assertThat(d.get("pid").asInt()).as("to the next rank").isEqualTo((s.get("pid").asInt() + 1) % n);
            double at = d.get("ts").asDouble();
            String call = spans.stream().filter(x -> x.get("pid").asInt() == d.get("pid").asInt()
                    && x.get("ts").asDouble() <= at && at <= x.get("ts").asDouble() + x.get("dur").asDouble())
                    .map(x -> x.get("name").asText()).findFirst().orElse("(no span)");
            endsIn.merge(call, 1, Integer::sum);
        }
        Map<String, Integer> expected = new TreeMap<>();
        for (String call : TraceCompletionsRank.CALLS) {
            expected.put("Request." + call, n * TraceCompletionsRank.messages(call));
        }
        assertThat(endsIn).as("arrows by the call that completed the receive").isEqualTo(expected);
    }

    @org.junit.jupiter.api.Test
    void anUnwritableTraceFileIsRefusedBeforeTheJobStarts() throws Exception {
        LaunchIntegrationTest.Result r = run("processes", 2, "--trace", "/proc/no-such-dir/job.json");
        assertThat(r.rc()).as(r.out()).isEqualTo(JmpiRun.USAGE_ERROR);
        assertThat(r.out()).contains("--trace /proc/no-such-dir/job.json: cannot write the trace file there")
                .doesNotContain("counted");
    }

    @org.junit.jupiter.api.Test
    void theSummaryChartIsAnSvgWithABarPerRank(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        java.nio.file.Path svg = tmp.resolve("summary.svg");
        LaunchIntegrationTest.Result r = run("processes", 3, "--summary-svg", svg.toString());
        assertThat(r.rc()).as(r.out()).isZero();
        assertThat(r.out()).contains("jmpirun: summary chart in " + svg, "jmpirun: summary: time in MPI per rank");
        org.w3c.dom.Document d = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(svg.toFile());
        assertThat(d.getDocumentElement().getTagName()).isEqualTo("svg");
        StringBuilder titles = new StringBuilder();
        org.w3c.dom.NodeList t = d.getElementsByTagName("title");
        for (int i = 0; i < t.getLength(); i++) {
            titles.append(t.item(i).getTextContent()).append('\n');
        }
        // which calls get a colour of their own depends on their times (the 7 with the most time over all ranks), so
        // the test checks the chart's shape: every rank has a bar part for the same 7 calls, all of them calls the
        // program made, then the other calls and the time outside MPI; MPI_Init (hundreds of ms) is always one
        Map<Integer, List<String>> parts = new TreeMap<>();
        for (String line : titles.toString().split("\n")) {
            Matcher m = Pattern.compile("rank (\\d+) (.+?)( [0-9.]+ ms)?").matcher(line);
            assertThat(m.matches()).as(line).isTrue();
            parts.computeIfAbsent(Integer.parseInt(m.group(1)), k -> new ArrayList<>()).add(m.group(2));
        }
        assertThat(parts.keySet()).containsExactly(0, 1, 2);
        for (int rank = 0; rank < 3; rank++) {
            Map<String, Integer> made = expected(rank, 3);
            List<String> p = parts.get(rank);
            assertThat(p).as("rank " + rank).hasSize(9).endsWith("other MPI calls", "outside MPI")
                    .contains("MPI.Init").isEqualTo(parts.get(0));
            assertThat(p.subList(0, 7)).as("rank " + rank).allSatisfy(c -> assertThat(made).containsKey(c));
        }
    }

    @ParameterizedTest
    @CsvSource({"processes", "threads"})
    void aToolLibraryOnTheClassPathIsUsedWithoutAFlag(String mode, @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        java.nio.file.Path services = java.nio.file.Files.createDirectories(tmp.resolve("META-INF/services"));
        java.nio.file.Files.writeString(services.resolve("org.jmpi.profile.MpiTool"),
                "# a tool library declares its tools like any ServiceLoader provider\n" + CountingTool.class.getName()
                        + "\n");
        List<String> args = new ArrayList<>(List.of("--no-stdin", "-n", "2", "-cp",
                tmp + java.io.File.pathSeparator + LaunchIntegrationTest.rankClassPath()));
        if (mode.equals("threads")) {
            args.add("--threads");
        }
        args.add(ProfiledRank.class.getName());
        LaunchIntegrationTest.Result r = LaunchIntegrationTest.run(
                LaunchIntegrationTest.jmpirun(args.toArray(String[]::new)), Map.of(), Duration.ofSeconds(120));
        assertThat(r.rc()).as(r.out()).isZero();
        assertThat(r.out()).contains("counted 0 ", "counted 1 ");
    }
}
