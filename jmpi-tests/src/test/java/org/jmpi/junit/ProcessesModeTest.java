package org.jmpi.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import mpi.MPI;
import mpi.MPIException;
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

    /** Every rank sends (pid, parent pid) to rank 0, which checks them: N distinct JVMs, children of this one. */
    @MpiTest(ranks = {2, 4}, modes = Mode.PROCESSES, timeoutSeconds = 60)
    void ranksAreDistinctJvmsStartedByTheTestJvm() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        ProcessHandle me = ProcessHandle.current();
        long[] mine = {me.pid(), me.parent().map(ProcessHandle::pid).orElse(-1L)};
        if (rank != 0) {
            MPI.COMM_WORLD.send(mine, 2, MPI.LONG, 0, 7);
            return;
        }
        Set<Long> pids = new HashSet<>();
        pids.add(mine[0]);
        for (int r = 1; r < size; r++) {
            long[] theirs = new long[2];
            MPI.COMM_WORLD.recv(theirs, 2, MPI.LONG, r, 7);
            pids.add(theirs[0]);
            assertThat(theirs[1]).as("parent of rank %d", r).isEqualTo(mine[1]);
        }
        assertThat(pids).hasSize(size).doesNotContain(mine[1]);
    }

    @Test
    @Timeout(120)
    void aFailureOnRankTwoOfFourNamesRankTwoAndShowsTheOutput() {
        EngineExecutionResults r = SelfTestSupport.run(Inner.FailsOnRankTwo.class);
        r.testEvents().assertStatistics(s -> s.started(1).failed(1));
        Throwable t = SelfTestSupport.failures(r).getFirst();
        assertThat(t).hasMessageStartingWith("[processes, 4 ranks] rank 2 of 4 failed:")
                .hasMessageContaining("rank 2: org.opentest4j.AssertionFailedError: boom on rank two")
                .hasMessageContaining("[2] hello from rank 2 on stdout")
                .hasMessageContaining("[2] hello from rank 2 on stderr");
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
                .hasMessageContaining("rank 0: rank 0 (pid ").hasMessageContaining("exited with code 7");
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
