package org.jmpi.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/** Self-tests of {@link MpiTest} in processes mode; the bodies need no MPI ({@code init = false}). */
class ProcessesModeTest {
    private static final AtomicCounter COUNTER = new AtomicCounter();

    @MpiTest(ranks = {1, 3}, modes = Mode.PROCESSES, init = false, timeoutSeconds = 60)
    void everyRankIsAJvmOfItsOwn(MpiTestContext ctx) {
        assertThat(ctx.mode()).isEqualTo(Mode.PROCESSES);
        assertThat(ctx.rank()).isBetween(0, ctx.size() - 1);
        assertThat(getClass().getClassLoader()).isSameAs(ClassLoader.getSystemClassLoader());
        assertThat(COUNTER.next()).isEqualTo(1);
    }

    @Test
    @Timeout(120)
    void fourRanksAreFourJvmsWithDistinctPids() {
        EngineExecutionResults r = SelfTestSupport.run(Inner.ReportsPid.class);
        r.testEvents().assertStatistics(s -> s.started(1).failed(1));
        String m = SelfTestSupport.failures(r).getFirst().getMessage();
        assertThat(m).startsWith("[processes, 4 ranks] 4 of 4 ranks failed:");
        Set<Long> pids = new HashSet<>();
        for (int rank = 0; rank < 4; rank++) {
            Matcher x = Pattern.compile("rank " + rank + ": java.lang.IllegalStateException: rank " + rank
                    + " pid=(\\d+)").matcher(m);
            assertThat(x.find()).as("rank %d in %s", rank, m).isTrue();
            pids.add(Long.parseLong(x.group(1)));
        }
        assertThat(pids).hasSize(4).doesNotContain(ProcessHandle.current().pid());
    }

    @Test
    @Timeout(120)
    void aFailureOnRankTwoOfFourNamesRankTwoAndShowsTheOutput() {
        EngineExecutionResults r = SelfTestSupport.run(Inner.FailsOnRankTwo.class);
        r.testEvents().assertStatistics(s -> s.started(1).failed(1));
        Throwable t = SelfTestSupport.failures(r).getFirst();
        assertThat(t).hasMessageStartingWith("[processes, 4 ranks] rank 2 of 4 failed:")
                .hasMessageContaining("rank 2: org.opentest4j.AssertionFailedError: boom on rank two")
                .hasMessageNotContaining("rank 0:").hasMessageNotContaining("rank 3:")
                .hasMessageContaining("[2] hello from rank 2 on stdout")
                .hasMessageContaining("[1] hello from rank 1 on stderr");
        assertThat(t.getSuppressed()).singleElement().isInstanceOfSatisfying(RankFailure.class, f -> {
            assertThat(f.rank()).isEqualTo(2);
            assertThat(f.getMessage()).contains("boom on rank two").contains("FailsOnRankTwo.body(");
        });
    }

    @Test
    @Timeout(120)
    void aHangingRankTimesOutWithAThreadDumpOfItsJvm() {
        long start = System.nanoTime();
        EngineExecutionResults r = SelfTestSupport.run(Inner.HangsOnRankOne.class);
        double seconds = (System.nanoTime() - start) / 1e9;
        r.testEvents().assertStatistics(s -> s.started(1).failed(1));
        Throwable t = SelfTestSupport.failures(r).getFirst();
        assertThat(t).hasMessageStartingWith("[processes, 2 ranks] timed out after 5 s")
                .hasMessageContaining("rank 1: still running")
                .hasMessageContaining("[1] Full thread dump")
                .hasMessageContaining("hangForever");
        assertThat(seconds).as("time to report the timeout").isLessThan(5 + 3 + 5);
    }

    @Test
    @Timeout(120)
    void aJvmThatExitsWithoutAnExceptionIsAFailure() {
        EngineExecutionResults r = SelfTestSupport.run(Inner.ExitsOnRankZero.class);
        r.testEvents().assertStatistics(s -> s.started(1).failed(1));
        assertThat(SelfTestSupport.failures(r).getFirst())
                .hasMessageStartingWith("[processes, 2 ranks] rank 0 of 2 failed:")
                .hasMessageContaining("exited with status 7");
    }

    /** A counter that would exceed 1 if two ranks shared this class. */
    static final class AtomicCounter {
        private final java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();

        int next() {
            return n.incrementAndGet();
        }
    }

    static class Inner {
        @OnlyThroughTestKit
        static class ReportsPid {
            @MpiTest(ranks = 4, modes = Mode.PROCESSES, init = false, timeoutSeconds = 60)
            void body(MpiTestContext ctx) {
                throw new IllegalStateException("rank " + ctx.rank() + " pid=" + ProcessHandle.current().pid());
            }
        }

        @OnlyThroughTestKit
        static class FailsOnRankTwo {
            @MpiTest(ranks = 4, modes = Mode.PROCESSES, init = false, timeoutSeconds = 60)
            void body(MpiTestContext ctx) {
                System.out.println("hello from rank " + ctx.rank() + " on stdout");
                System.err.println("hello from rank " + ctx.rank() + " on stderr");
                if (ctx.rank() == 2) {
                    fail("boom on rank two");
                }
            }
        }

        @OnlyThroughTestKit
        static class HangsOnRankOne {
            @MpiTest(ranks = 2, modes = Mode.PROCESSES, init = false, timeoutSeconds = 5)
            void body(MpiTestContext ctx) throws InterruptedException {
                if (ctx.rank() == 1) {
                    hangForever();
                }
            }

            private static void hangForever() throws InterruptedException {
                new CountDownLatch(1).await();
            }
        }

        @OnlyThroughTestKit
        static class ExitsOnRankZero {
            @MpiTest(ranks = 2, modes = Mode.PROCESSES, init = false, timeoutSeconds = 60)
            void body(MpiTestContext ctx) {
                if (ctx.rank() == 0) {
                    System.exit(7);
                }
            }
        }
    }
}
