package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jmpi.launcher.ranks.UlfmRank;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * ULFM under {@code --continue-on-failure}, with real processes: one host (proxy in jmpirun's JVM) and two "hosts"
 * whose proxies are started by a fake ssh (the whole front end / proxy protocol, as across real hosts). A rank is
 * SIGKILLed; the survivors must see errors instead of hanging, and agree and shrink consistently.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UlfmTest {
    @TempDir
    Path dir;

    private FakeSsh fakeSsh;
    private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> notes = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void writeFakeSsh() throws Exception {
        fakeSsh = new FakeSsh(dir);
    }

    @AfterEach
    void noProcessLeft() throws Exception {
        List<Long> started = new ArrayList<>(fakeSsh.proxyPids());
        started.addAll(FakeSsh.printedPids(lines));
        // the ranks of a lost host end on their own (they lost their proxy) within about two seconds
        for (long pid : started) {
            var h = ProcessHandle.of(pid);
            if (h.isPresent()) {
                try {
                    h.get().onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    // still alive: reported below
                }
            }
        }
        List<Long> alive = started.stream().filter(LauncherTest::alive).toList();
        alive.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        assertThat(alive).as("processes of the job still alive after it ended").isEmpty();
    }

    private LaunchResult run(int ranks, boolean twoHosts, String... args) throws Exception {
        lines.clear();
        Launcher.Builder b = Launcher.builder()
                .ranks(ranks)
                .classpath(LauncherTest.testClasses())
                .mainClass(UlfmRank.class.getName())
                .args(args)
                .jvmArgs(LauncherTest.FAST_JVM)
                .continueOnFailure(true)
                .timeout(Duration.ofSeconds(90))
                .dumpStacksOnTimeout(true) // a survivor that hangs shows where, in the assertion's lines
                .notices(notes::add)
                .output((rank, stderr, line) -> lines.add(rank + (stderr ? " err: " : " out: ") + line));
        if (twoHosts) {
            int first = (ranks + 1) / 2;
            b.hosts(List.of(HostSpec.of("nodeA", first), HostSpec.of("nodeB", ranks - first)))
                    .launchAgent(fakeSsh.agent())
                    .tcpHost("lo");
        } else {
            b.launchAgent(LaunchAgent.fork());
        }
        try (Launcher.Job job = b.build().start()) {
            return job.await();
        }
    }

    private void assertVictimKilled(LaunchResult r, int victim) {
        assertThat(r.rankExitCodes().get(victim)).as(r.summary() + " " + lines + notes).isEqualTo(137);
        for (int i = 0; i < r.rankExitCodes().size(); i++) {
            if (i != victim) {
                assertThat(r.rankExitCodes().get(i)).as("rank " + i + ": " + r.summary() + " " + lines).isZero();
            }
        }
    }

    @Test
    void collectivesFailAtEverySurvivorThenRevokeShrinkAndAgreeWork() throws Exception {
        for (int[] c : new int[][] {{3, 0}, {4, 0}, {4, 1}, {5, 1}}) {
            int n = c[0];
            boolean twoHosts = c[1] == 1;
            int victim = n - 2;
            LaunchResult r = run(n, twoHosts, "collective", Integer.toString(victim));
            assertVictimKilled(r, victim);
            int sum = 0;
            for (int i = 0; i < n; i++) {
                sum += i == victim ? 0 : i;
            }
            // survivors 0..n-1 without the victim: even ranks contribute 1, odd 3, so the AND is 1 when one is even
            for (int i = 0; i < n; i++) {
                if (i == victim) {
                    continue;
                }
                String me = i + " out: rank " + i;
                assertThat(lines).as(n + " ranks, two hosts " + twoHosts + ": " + lines)
                        .anyMatch(l -> l.equals(me + " allreduce failed with error class 75")
                                || l.equals(me + " allreduce failed with error class 77"));
                assertThat(lines).as(n + " ranks, two hosts " + twoHosts + ": " + lines)
                        .contains(me + " iallreduce failed with error class 75",
                                me + " revoked true shrunk to " + (n - 1) + " sum " + sum + " agreed 1");
            }
        }
    }

    @Test
    void anySourceReceivesStayPendingUntilTheFailureIsAcknowledged() throws Exception {
        for (boolean twoHosts : new boolean[] {false, true}) {
            LaunchResult r = run(3, twoHosts, "anysource", "2");
            assertVictimKilled(r, 2);
            assertThat(lines).as(lines.toString()).contains(
                    "0 out: rank 0 wait failed with error class 76 null false",
                    "0 out: rank 0 blocking recv failed with error class 75",
                    "0 out: rank 0 probe of the dead rank failed with error class 75",
                    "0 out: rank 0 iprobe from ANY_SOURCE failed with error class 75",
                    "0 out: rank 0 failed group size 1 acked 1",
                    "0 out: rank 0 iprobe after the acknowledgement null",
                    "0 out: rank 0 then received 41 from 1");
        }
    }

    @Test
    void agreementIsUniformWhenAMemberDiesBeforeContributing() throws Exception {
        for (int[] c : new int[][] {{2, 0}, {4, 0}, {4, 1}}) {
            int n = c[0];
            LaunchResult r = run(n, c[1] == 1, "agree", Integer.toString(n - 1));
            assertVictimKilled(r, n - 1);
            for (int i = 0; i < n - 1; i++) {
                String me = i + " out: rank " + i;
                // rank 0 contributes 6, the others 7: the AND is 6
                assertThat(lines).as(lines.toString()).contains(me + " agreed 6 failed 1",
                        me + " shrunk to " + (n - 1) + " counted " + (n - 1));
            }
        }
    }

    @Test
    void theSurvivorsOfALostHostHearOfEachOfItsRanksAndShrinkWithoutThem() throws Exception {
        java.util.concurrent.CountDownLatch ready = new java.util.concurrent.CountDownLatch(5);
        Launcher.Builder b = Launcher.builder()
                .ranks(5)
                .classpath(LauncherTest.testClasses())
                .mainClass(UlfmRank.class.getName())
                .args("host")
                .jvmArgs(LauncherTest.FAST_JVM)
                .continueOnFailure(true)
                .timeout(Duration.ofSeconds(90))
                .dumpStacksOnTimeout(true) // a survivor that hangs shows where, in the assertion's lines
                .hosts(List.of(HostSpec.of("nodeA", 2), HostSpec.of("nodeB", 3)))
                .launchAgent(fakeSsh.agent())
                .tcpHost("lo")
                .notices(notes::add)
                .output((rank, stderr, line) -> {
                    lines.add(rank + (stderr ? " err: " : " out: ") + line);
                    if (line.startsWith("ready ")) {
                        ready.countDown();
                    }
                });
        try (Launcher.Job job = b.build().start()) {
            assertThat(ready.await(60, java.util.concurrent.TimeUnit.SECONDS)).as(lines + " " + notes).isTrue();
            long proxyB = fakeSsh.proxyPid("nodeB");
            ProcessHandle.of(proxyB).orElseThrow().destroyForcibly();
            LaunchResult r = job.await();
            assertThat(r.summary()).as(r.summary() + " " + lines).contains("host nodeB was lost");
            for (int i = 0; i < 2; i++) {
                String me = i + " out: rank " + i;
                assertThat(lines).as(lines.toString()).contains(me + " iallreduce failed with error class 75",
                        me + " revoked true shrunk to 2 sum 1 agreed 1");
            }
        }
    }

    @Test
    void oneSidedCallsInvolvingTheDeadRankFailAndPassiveTargetGoesOnBetweenSurvivors() throws Exception {
        LaunchResult r = run(4, false, "rma", "2");
        assertVictimKilled(r, 2);
        for (int i : new int[] {0, 1, 3}) {
            String me = i + " out: rank " + i;
            assertThat(lines).as(lines.toString()).contains(me + " put to the dead rank failed with error class 75",
                    me + " fence failed with error class 75");
        }
        assertThat(lines).as(lines.toString()).contains("0 out: rank 0 counted 3 accumulates");
    }

    @Test
    void collectiveFileCallsFailAndIndependentOnesGoOn() throws Exception {
        LaunchResult r = run(3, false, "io", "1", dir.resolve("ulfm.dat").toString());
        assertVictimKilled(r, 1);
        for (int i : new int[] {0, 2}) {
            String me = i + " out: rank " + i;
            assertThat(lines).as(lines.toString()).contains(me + " wrote independently",
                    me + " collective write failed with error class 75", me + " close failed with error class 75");
        }
    }

    @Test
    void aRankThatDiesBeforeMpiInitIsReportedToTheOthersWhenTheyStart() throws Exception {
        for (boolean twoHosts : new boolean[] {false, true}) {
            LaunchResult r = run(3, twoHosts, "early", "1");
            assertThat(r.rankExitCodes()).as(r.summary() + " " + lines).containsExactly(0, 3, 0);
            for (int i : new int[] {0, 2}) {
                String me = i + " out: rank " + i;
                assertThat(lines).as(lines.toString()).contains(me + " revoked true shrunk to 2 sum 2 agreed 1");
            }
        }
    }

    @Test
    void revokeInterruptsEveryMemberWithoutAFailure() throws Exception {
        for (int n : new int[] {2, 3}) {
            LaunchResult r = run(n, false, "revoke");
            assertThat(r.exitCode()).as(r.summary() + " " + lines + notes).isZero();
            for (int i = 0; i < n; i++) {
                String me = i + " out: rank " + i;
                if (i > 0) {
                    assertThat(lines).as(lines.toString()).contains(me + " recv failed with error class 77");
                }
                assertThat(lines).as(lines.toString()).contains(me + " barrier failed with error class 77",
                        me + " revoked true agreed 5 shrunk to " + n + " counted " + n);
            }
        }
    }
}
