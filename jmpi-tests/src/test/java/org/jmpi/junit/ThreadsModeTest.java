package org.jmpi.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.jmpi.shared.RankClassLoader;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/** Self-tests of {@link MpiTest} in threads mode; the bodies need no MPI ({@code init = false}). */
class ThreadsModeTest {
    private static final AtomicInteger INSTANCES_OF_THIS_CLASS = new AtomicInteger();

    @MpiTest(ranks = {1, 2, 3, 4, 8}, modes = Mode.THREADS, init = false, timeoutSeconds = 20)
    void everyRankHasItsOwnLoaderAndStatics(MpiTestContext ctx) {
        assertThat(INSTANCES_OF_THIS_CLASS.incrementAndGet()).as("static counter on rank %d", ctx.rank())
                .isEqualTo(1);
        assertThat(getClass().getClassLoader()).isInstanceOfSatisfying(RankClassLoader.class,
                l -> assertThat(l.rank()).isEqualTo(ctx.rank()));
        assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(getClass().getClassLoader());
        assertThat(ctx.mode()).isEqualTo(Mode.THREADS);
        assertThat(ctx.size()).isBetween(1, 8);
    }

    @MpiTest(ranks = 3, modes = Mode.THREADS, init = false, timeoutSeconds = 20)
    void theRanksShareTheMessagePathButNotTheirMpiState() {
        ClassLoader mine = getClass().getClassLoader();
        // loaded once per JVM: the engine, the transports, datatypes and kernels (compiled once for every rank)
        for (Class<?> c : List.of(org.jmpi.pt2pt.Engine.class, org.jmpi.transport.shm.ShmTransport.class,
                org.jmpi.datatype.BufferView.class, org.jmpi.op.PredefinedOp.class, org.jmpi.runtime.Progress.class)) {
            assertThat(c.getClassLoader()).as(c.getName()).isNotInstanceOf(RankClassLoader.class)
                    .isSameAs(RankClassLoader.class.getClassLoader());
        }
        // loaded by every rank for itself: the API's statics and the runtime that holds the rank's state
        for (Class<?> c : List.of(mpi.MPI.class, org.jmpi.runtime.JmpiRuntime.class,
                org.jmpi.runtime.Communicator.class, org.jmpi.pt2pt.Partitioned.class)) {
            assertThat(c.getClassLoader()).as(c.getName()).isSameAs(mine);
        }
    }

    /** A program that brings another copy of jmpi on its class path keeps all of it, the message path included. */
    @Test
    @Timeout(60)
    void aRankWithAnotherCopyOfJmpiKeepsItsOwnMessagePath(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        ClassLoader parent = RankClassLoader.class.getClassLoader();
        // a copy of jmpi-core (its jar, or its classes directory) at another place
        java.nio.file.Path core = java.nio.file.Path.of(org.jmpi.pt2pt.Engine.class.getProtectionDomain()
                .getCodeSource().getLocation().toURI());
        java.nio.file.Path copy = tmp.resolve("copy");
        if (java.nio.file.Files.isDirectory(core)) {
            try (var files = java.nio.file.Files.walk(core)) {
                for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files::iterator) {
                    java.nio.file.Files.copy(f, copy.resolve(core.relativize(f).toString()));
                }
            }
        } else {
            copy = tmp.resolve("jmpi-core-copy.jar");
            java.nio.file.Files.copy(core, copy);
        }
        try (RankClassLoader other = new RankClassLoader(new java.net.URL[] {copy.toUri().toURL()}, parent, null,
                0)) {
            assertThat(other.loadClass("org.jmpi.pt2pt.Engine").getClassLoader()).isSameAs(other);
        }
        try (RankClassLoader same = new RankClassLoader(new java.net.URL[0], parent, null, 0)) {
            assertThat(same.loadClass("org.jmpi.pt2pt.Engine")).isSameAs(org.jmpi.pt2pt.Engine.class);
        }
    }

    @MpiTest(ranks = 3, modes = Mode.THREADS, init = false, timeoutSeconds = 20)
    void aBodyWithoutParametersRuns() {
        assertThat(getClass().getClassLoader()).isInstanceOf(RankClassLoader.class);
    }

    @Nested
    class InANestedClass {
        @MpiTest(ranks = 2, modes = Mode.THREADS, init = false, timeoutSeconds = 20)
        void runsOnAFreshRankLoadedOuterInstance(MpiTestContext ctx) {
            assertThat(getClass().getClassLoader()).isInstanceOfSatisfying(RankClassLoader.class,
                    l -> assertThat(l.rank()).isEqualTo(ctx.rank()));
            assertThat(ThreadsModeTest.this.getClass().getClassLoader()).isSameAs(getClass().getClassLoader());
        }
    }

    @Test
    @Timeout(60)
    void aFailureOnRankTwoOfFourNamesRankTwo() {
        EngineExecutionResults r = SelfTestSupport.run(Inner.FailsOnRankTwo.class);
        r.testEvents().assertStatistics(s -> s.started(1).failed(1).succeeded(0));
        Throwable t = SelfTestSupport.failures(r).getFirst();
        assertThat(t).hasMessageStartingWith("[threads, 4 ranks] rank 2 of 4 failed:")
                .hasMessageContaining("rank 2: org.opentest4j.AssertionFailedError: boom on rank two")
                .hasMessageNotContaining("rank 0:").hasMessageNotContaining("rank 1:")
                .hasMessageNotContaining("rank 3:");
        assertThat(t.getSuppressed()).singleElement().isInstanceOfSatisfying(RankFailure.class, f -> {
            assertThat(f.rank()).isEqualTo(2);
            assertThat(f.getCause()).isInstanceOf(org.opentest4j.AssertionFailedError.class)
                    .hasMessage("boom on rank two");
        });
    }

    @Test
    @Timeout(60)
    void failuresOnSeveralRanksAreAllListedInRankOrder() {
        EngineExecutionResults r = SelfTestSupport.run(Inner.FailsOnOddRanks.class);
        r.testEvents().assertStatistics(s -> s.started(1).failed(1));
        Throwable t = SelfTestSupport.failures(r).getFirst();
        String m = t.getMessage();
        assertThat(m).startsWith("[threads, 4 ranks] 2 of 4 ranks failed:")
                .contains("rank 1: java.lang.IllegalStateException: odd rank 1")
                .contains("rank 3: java.lang.IllegalStateException: odd rank 3");
        assertThat(m.indexOf("rank 1:")).isLessThan(m.indexOf("rank 3:"));
        assertThat(Arrays.stream(t.getSuppressed()).map(s -> ((RankFailure) s).rank()).toList())
                .containsExactly(1, 3);
    }

    @Test
    @Timeout(60)
    void oneInvocationPerRankCountWithReadableNames() {
        EngineExecutionResults r = SelfTestSupport.run(Inner.Passes.class);
        r.testEvents().assertStatistics(s -> s.started(3).succeeded(3));
        List<String> names = r.testEvents().started().stream()
                .map(e -> e.getTestDescriptor().getDisplayName()).toList();
        assertThat(names).containsExactly("[threads, 1 rank]", "[threads, 2 ranks]", "[threads, 5 ranks]");
    }

    @Test
    @Timeout(60)
    void aHangingRankTimesOutWithItsStackInTheMessage() {
        long start = System.nanoTime();
        EngineExecutionResults r = SelfTestSupport.run(Inner.HangsOnRankOne.class);
        double seconds = (System.nanoTime() - start) / 1e9;
        r.testEvents().assertStatistics(s -> s.started(1).failed(1));
        Throwable t = SelfTestSupport.failures(r).getFirst();
        assertThat(t).hasMessageStartingWith("[threads, 3 ranks] timed out after 2 s")
                .hasMessageContaining("rank 1: still running")
                .hasMessageContaining("--- rank 1")
                .hasMessageContaining("hangForever");
        assertThat(seconds).as("time to report the timeout").isLessThan(2 + 5);
    }

    @Test
    @Timeout(60)
    void anAssumptionFailingOnEveryRankSkipsTheInvocation() {
        EngineExecutionResults r = SelfTestSupport.run(Inner.AssumesFalse.class);
        r.testEvents().assertStatistics(s -> s.started(1).aborted(1).failed(0));
    }

    /** Test classes run only through {@link SelfTestSupport} (Surefire skips nested classes). */
    static class Inner {
        @OnlyThroughTestKit
        static class FailsOnRankTwo {
            @MpiTest(ranks = 4, modes = Mode.THREADS, init = false, timeoutSeconds = 20)
            void body(MpiTestContext ctx) {
                if (ctx.rank() == 2) {
                    fail("boom on rank two");
                }
            }
        }

        @OnlyThroughTestKit
        static class FailsOnOddRanks {
            @MpiTest(ranks = 4, modes = Mode.THREADS, init = false, timeoutSeconds = 20)
            void body(MpiTestContext ctx) {
                if (ctx.rank() % 2 == 1) {
                    throw new IllegalStateException("odd rank " + ctx.rank());
                }
            }
        }

        @OnlyThroughTestKit
        static class Passes {
            @MpiTest(ranks = {1, 2, 5}, modes = Mode.THREADS, init = false, timeoutSeconds = 20)
            void body(MpiTestContext ctx) {
                assertThat(ctx.rank()).isLessThan(ctx.size());
            }
        }

        @OnlyThroughTestKit
        static class HangsOnRankOne {
            @MpiTest(ranks = 3, modes = Mode.THREADS, init = false, timeoutSeconds = 2)
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
        static class AssumesFalse {
            @MpiTest(ranks = 2, modes = Mode.THREADS, init = false, timeoutSeconds = 20)
            void body() {
                org.junit.jupiter.api.Assumptions.assumeTrue(false, "not today");
            }
        }
    }
}
