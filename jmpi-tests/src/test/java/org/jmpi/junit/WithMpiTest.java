package org.jmpi.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/** Self-tests of {@link MpiTest} with MPI initialised by the extension (the default, {@code init = true}). */
class WithMpiTest {
    @MpiTest(ranks = {1, 2, 3, 4}, timeoutSeconds = 60)
    void theWorldMatchesTheContext(MpiTestContext ctx) throws MPIException {
        assertThat(MPI.isInitialized()).isTrue();
        assertThat(MPI.COMM_WORLD.getRank()).isEqualTo(ctx.rank());
        assertThat(MPI.COMM_WORLD.getSize()).isEqualTo(ctx.size());
    }

    @MpiTest(ranks = {2, 3}, timeoutSeconds = 60)
    void aBodyMayFinalizeItself() throws MPIException {
        MPI.Finalize();
        assertThat(MPI.isFinalized()).isTrue();
    }

    @Test
    @Timeout(90)
    void aRankFailingWhileOthersWaitInMpiEndsTheJobQuickly() {
        long start = System.nanoTime();
        EngineExecutionResults r = SelfTestSupport.run(Inner.FailsWhileOthersReceive.class);
        double seconds = (System.nanoTime() - start) / 1e9;
        r.testEvents().assertStatistics(s -> s.started(2).failed(2));
        List<Throwable> f = SelfTestSupport.failures(r);
        assertThat(f.get(0)).hasMessageStartingWith("[threads, 3 ranks] rank 0 of 3 failed:")
                .hasMessageContaining("rank 0: java.lang.IllegalStateException: rank 0 gives up");
        assertThat(f.get(1)).hasMessageStartingWith("[processes, 3 ranks] rank 0 of 3 failed:")
                .hasMessageContaining("rank 0: java.lang.IllegalStateException: rank 0 gives up")
                .hasMessageContaining("ranks 1, 2: ended by the job's abort");
        assertThat(seconds).as("seconds until both reported (the timeout is 30 s each)").isLessThan(25);
    }

    @Test
    @Timeout(90)
    void aRankLeavingWithoutFinalizeFailsTheProcessesJob() {
        EngineExecutionResults r = SelfTestSupport.run(Inner.ExitsWithoutFinalize.class);
        r.testEvents().assertStatistics(s -> s.started(1).failed(1));
        assertThat(SelfTestSupport.failures(r).getFirst())
                .hasMessageStartingWith("[processes, 2 ranks] rank 1 of 2 failed:")
                .hasMessageContaining("without finalizing");
    }

    @Test
    @Timeout(90)
    void anMpiAbortFailsTheInvocationAndSaysWhoAborted() {
        EngineExecutionResults r = SelfTestSupport.run(Inner.AbortsOnRankOne.class);
        r.testEvents().assertStatistics(s -> s.started(2).failed(2));
        List<Throwable> f = SelfTestSupport.failures(r);
        assertThat(f.get(0)).hasMessageStartingWith("[threads, 3 ranks] job aborted:")
                .hasMessageContaining("abort: ");
        assertThat(f.get(1)).hasMessageStartingWith("[processes, 3 ranks] job aborted:")
                .hasMessageContaining("abort: rank 1 (pid ").hasMessageContaining("called abort with exit code 3");
    }

    static class Inner {
        @OnlyThroughTestKit
        static class AbortsOnRankOne {
            @MpiTest(ranks = 3, timeoutSeconds = 30)
            void body() throws MPIException {
                if (MPI.COMM_WORLD.getRank() == 1) {
                    MPI.COMM_WORLD.abort(3);
                }
                int[] buf = new int[1];
                MPI.COMM_WORLD.recv(buf, 1, MPI.INT, 1, 0);
            }
        }

        @OnlyThroughTestKit
        static class FailsWhileOthersReceive {
            @MpiTest(ranks = 3, timeoutSeconds = 30)
            void body() throws MPIException {
                if (MPI.COMM_WORLD.getRank() == 0) {
                    throw new IllegalStateException("rank 0 gives up");
                }
                int[] buf = new int[1];
                MPI.COMM_WORLD.recv(buf, 1, MPI.INT, 0, 0);
            }
        }

        @OnlyThroughTestKit
        static class ExitsWithoutFinalize {
            @MpiTest(ranks = 2, modes = Mode.PROCESSES, timeoutSeconds = 30)
            void body() throws MPIException {
                if (MPI.COMM_WORLD.getRank() == 1) {
                    System.out.flush();
                    Runtime.getRuntime().halt(0);
                }
            }
        }
    }
}
