package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jmpi.launcher.ranks.FaultRank;
import org.jmpi.launcher.ranks.TestRank;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs over several "hosts" on this machine: proxies in this JVM ({@code --launcher fork}), and remote proxies
 * ({@code ProxyMain} JVMs) started by a fake ssh that runs the remote command here, so the whole front end / proxy
 * protocol, the fences across hosts, heartbeats and the failure policy run as they do across real hosts (the
 * launch-integration tests do the same over real ssh into network namespaces).
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MultiHostTest {
    @TempDir
    Path dir;

    private FakeSsh fakeSsh;
    private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> notes = new ConcurrentLinkedQueue<>();
    private final List<Long> started = new ArrayList<>();
    /**
     * How long a process may outlive the job: none, but for a test that loses a host. Its ranks are out of jmpirun's
     * reach and end by themselves when they find their proxy gone (about a second and a half here).
     */
    private Duration outliveAllowed = Duration.ZERO;

    @BeforeEach
    void writeFakeSsh() throws Exception {
        fakeSsh = new FakeSsh(dir);
    }

    /**
     * Kills (by pid) anything a test started that is still alive ({@link #outliveAllowed} after the job ended), and
     * fails the test if there was any.
     */
    @AfterEach
    void noProcessLeft() throws Exception {
        started.addAll(proxyPids());
        started.addAll(printedPids());
        long deadline = System.nanoTime() + outliveAllowed.toNanos();
        List<Long> alive = started.stream().filter(pid -> !endsBy(pid, deadline)).toList();
        alive.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        assertThat(alive).as("processes of the job still alive after it ended").isEmpty();
    }

    /** Whether process {@code pid} has ended (or ends) by {@code deadline} ({@link System#nanoTime()}). */
    private static boolean endsBy(long pid, long deadline) {
        long left = Math.max(0, deadline - System.nanoTime());
        return ProcessHandle.of(pid)
                .map(h -> !h.onExit().completeOnTimeout(h, left, TimeUnit.NANOSECONDS).join().isAlive())
                .orElse(true);
    }

    private List<Long> proxyPids() throws Exception {
        return fakeSsh.proxyPids();
    }

    private List<Long> printedPids() {
        return FakeSsh.printedPids(lines);
    }

    private Launcher.Builder job(int ranks, Class<?> main, String mode, List<HostSpec> hosts, LaunchAgent agent)
            throws Exception {
        return Launcher.builder()
                .ranks(ranks)
                .classpath(LauncherTest.testClasses())
                .mainClass(main.getName())
                .args(mode)
                .jvmArgs(LauncherTest.FAST_JVM)
                .hosts(hosts)
                .launchAgent(agent)
                .timeout(Duration.ofSeconds(60))
                .notices(notes::add)
                .output((rank, stderr, line) -> lines.add(rank + (stderr ? " err: " : " out: ") + line));
    }

    private LaunchAgent ssh() {
        return fakeSsh.agent();
    }

    private LaunchResult run(Launcher.Builder b) throws Exception {
        try (Launcher.Job job = b.build().start()) {
            return job.await();
        }
    }

    private List<String> outputContaining(String s) {
        return lines.stream().filter(l -> l.contains(s)).toList();
    }

    @Test
    void proxiesInThisJvmFenceAcrossHosts() throws Exception {
        LaunchResult r = run(job(4, TestRank.class, "where", List.of(HostSpec.of("a", 2), HostSpec.of("b", 2)),
                LaunchAgent.fork()));
        assertThat(r.exitCode()).as(r.summary() + " " + lines).isZero();
        String cards = " cards from-0,from-1,from-2,from-3 app 0";
        assertThat(lines).anyMatch(l -> l.startsWith("0 out: rank 0 node 0 local 0/2 tcp null map (vector,(0,2,2))"
                + cards));
        assertThat(lines).anyMatch(l -> l.startsWith("3 out: rank 3 node 1 local 1/2 tcp null map (vector,(0,2,2))"
                + cards));
    }

    @Test
    void remoteProxiesRunAnMpmdJobAcrossHosts() throws Exception {
        LaunchResult r = run(job(1, TestRank.class, "where", List.of(HostSpec.of("nodeA", 1), HostSpec.of("nodeB", 2)),
                ssh()).nextApp().ranks(2).mainClass(TestRank.class.getName()).args("where"));
        assertThat(r.exitCode()).as(r.summary() + " " + lines + notes).isZero();
        String cards = " cards from-0,from-1,from-2 app ";
        // remote hosts without SSH_CONNECTION listen on every interface
        assertThat(lines).anyMatch(l -> l.startsWith("0 out: rank 0 node 0 local 0/1 tcp * map (vector,(0,1,1),(1,1,2))"
                + cards + "0"));
        assertThat(lines).anyMatch(l -> l.startsWith("2 out: rank 2 node 1 local 1/2 tcp * map (vector,(0,1,1),(1,1,2))"
                + cards + "1"));
        assertThat(proxyPids()).hasSize(2);
    }

    @Test
    void aFailureOnOneHostEndsTheRanksOnEveryHost() throws Exception {
        LaunchResult r = run(job(3, TestRank.class, "exit3", List.of(HostSpec.of("nodeA", 1), HostSpec.of("nodeB", 2)),
                ssh()));
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.failedRank()).isEqualTo(1);
        assertThat(r.summary()).contains("rank 1 (host nodeB, pid ").contains("exited with code 3")
                .contains("killed the 2 ranks still running on 2 hosts");
        assertThat(r.teardownTime()).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aHostWhoseProxyDiesIsLostAndTheOthersEnd() throws Exception {
        outliveAllowed = Duration.ofSeconds(10);
        CountDownLatch ready = new CountDownLatch(3);
        Launcher.Builder b = job(3, TestRank.class, "pidblock", List.of(HostSpec.of("nodeA", 2),
                HostSpec.of("nodeB", 1)), ssh()).output((rank, stderr, line) -> {
                    lines.add(rank + " out: " + line);
                    if (line.contains(" pid ")) {
                        ready.countDown();
                    }
                });
        try (Launcher.Job job = b.build().start()) {
            assertThat(ready.await(60, TimeUnit.SECONDS)).as("ranks up " + lines + notes).isTrue();
            long proxyB = fakeSsh.proxyPid("nodeB");
            ProcessHandle.of(proxyB).orElseThrow().destroyForcibly();
            LaunchResult r = job.await();
            assertThat(r.exitCode()).isEqualTo(LaunchResult.HOST_LOST_EXIT_CODE);
            assertThat(r.failedRank()).isEqualTo(2);
            assertThat(r.summary()).startsWith("jmpirun: host nodeB was lost (its proxy ended").contains("its ranks 2");
            assertThat(r.teardownTime()).isLessThan(Duration.ofSeconds(10));
        }
    }

    @Test
    void survivorsHearOfAFailureWithContinueOnFailure() throws Exception {
        LaunchResult r = run(job(3, TestRank.class, "notices", List.of(HostSpec.of("nodeA", 2),
                HostSpec.of("nodeB", 1)), ssh()).continueOnFailure(true));
        assertThat(r.exitCode()).as(r.summary() + " " + lines).isEqualTo(3);
        assertThat(r.teardownTime()).isZero();
        assertThat(r.rankExitCodes()).containsExactly(0, 3, 0);
        assertThat(lines).contains("0 out: rank 0 heard 1: exited with code 3", "2 out: rank 2 heard 1: exited with "
                + "code 3");
    }

    @Test
    void rank0OnAnotherHostReadsStandardInput() throws Exception {
        InputStream saved = System.in;
        System.setIn(new ByteArrayInputStream("hello over ssh\n".getBytes(StandardCharsets.UTF_8)));
        try {
            LaunchResult r = run(job(2, TestRank.class, "stdin", List.of(HostSpec.of("nodeA", 1),
                    HostSpec.of("nodeB", 1)), ssh()).stdinToRank0(true));
            assertThat(r.exitCode()).as(r.summary() + " " + lines).isZero();
            assertThat(lines).contains("0 out: rank 0 read hello over ssh");
        } finally {
            System.setIn(saved);
        }
    }

    @Test
    void aRefusedConnectionIsReportedAndDoesNotDisturbTheJob() throws Exception {
        CountDownLatch ready = new CountDownLatch(2);
        Launcher.Builder b = job(2, TestRank.class, "hang", null, LaunchAgent.fork())
                .output((rank, stderr, line) -> {
                    lines.add(rank + " out: " + line);
                    if (line.equals("ready")) {
                        ready.countDown();
                    }
                });
        try (Launcher.Job job = b.build().start()) {
            assertThat(ready.await(60, TimeUnit.SECONDS)).isTrue();
            String[] hp = job.pmiAddress().split(":");
            try (java.net.Socket s = new java.net.Socket(hp[0], Integer.parseInt(hp[1]))) {
                s.getOutputStream().write("cmd=initack pmiid=0\n".getBytes(StandardCharsets.US_ASCII));
                assertThat(s.getInputStream().read()).as("closed without an answer").isEqualTo(-1);
            }
            job.kill();
            assertThat(job.await().exitCode()).isEqualTo(LaunchResult.KILLED_EXIT_CODE);
        }
        assertThat(notes).anyMatch(n -> n.contains("refused a PMI connection") && n.contains("no job secret"));
    }

    // ------------------------------------------------------------------------------------------ MPI-level faults

    private LaunchResult fault(String mode) throws Exception {
        return run(job(3, FaultRank.class, mode, List.of(HostSpec.of("nodeA", 2), HostSpec.of("nodeB", 1)), ssh())
                .tcpHost("lo"));
    }

    @Test
    void mpiRanksTalkAcrossHosts() throws Exception {
        LaunchResult r = fault("ok");
        assertThat(r.exitCode()).as(r.summary() + " " + lines + notes).isZero();
        assertThat(outputContaining(" got 42")).hasSize(2);
    }

    @Test
    void withContinueOnFailureMpiCallsInvolvingTheDeadRankFailInsteadOfHanging() throws Exception {
        LaunchResult r = run(job(3, FaultRank.class, "survive", List.of(HostSpec.of("nodeA", 2),
                HostSpec.of("nodeB", 1)), ssh()).tcpHost("lo").continueOnFailure(true));
        assertThat(r.exitCode()).as(r.summary() + " " + lines + notes).isEqualTo(3);
        assertThat(r.rankExitCodes()).containsExactly(0, 0, 3);
        for (int rank = 0; rank < 2; rank++) {
            assertThat(lines).contains(rank + " out: rank " + rank + " recv on a dup failed with error class 75",
                    rank + " out: rank " + rank + " recv failed with error class 75",
                    rank + " out: rank " + rank + " send failed with error class 75");
        }
    }

    @Test
    void faultsOnAnotherHostEndTheJobWithTheRightCode() throws Exception {
        record Case(String mode, int code, String words) {}
        for (Case c : List.of(new Case("exit3", 3, "exited with code 3"),
                new Case("sigkill", 137, "killed by signal 9"),
                new Case("halt", 5, "exited with code 5"),
                new Case("abort7", 7, "called abort with exit code 7"),
                new Case("nofinalize", 1, "without finalizing"))) {
            lines.clear();
            LaunchResult r = fault(c.mode());
            assertThat(r.exitCode()).as(c.mode() + ": " + r.summary() + " " + lines).isEqualTo(c.code());
            assertThat(r.failedRank()).as(c.mode()).isEqualTo(2);
            assertThat(r.summary()).as(c.mode()).contains("rank 2 (host nodeB").contains(c.words());
            assertThat(r.teardownTime()).as(c.mode()).isLessThan(Duration.ofSeconds(10));
            List<Long> pids = printedPids();
            assertThat(pids).as(c.mode() + " ranks started").hasSize(3);
            started.addAll(pids);
            assertThat(pids).as(c.mode() + ": no rank left").noneMatch(LauncherTest::alive);
            assertThat(proxyPids()).as(c.mode() + ": no proxy left").noneMatch(LauncherTest::alive);
        }
    }
}
