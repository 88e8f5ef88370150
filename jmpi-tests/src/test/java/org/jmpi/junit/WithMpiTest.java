package org.jmpi.junit;

import static org.assertj.core.api.Assertions.assertThat;

import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/** Self-tests of {@link MpiTest} with MPI initialised by the extension (the default, {@code init = true}). */
class WithMpiTest {
    @MpiTest(ranks = {1, 2, 3, 4, 8}, modes = Mode.THREADS, timeoutSeconds = 30)
    void theWorldMatchesTheContext(MpiTestContext ctx) throws MPIException {
        assertThat(MPI.isInitialized()).isTrue();
        assertThat(MPI.COMM_WORLD.getRank()).isEqualTo(ctx.rank());
        assertThat(MPI.COMM_WORLD.getSize()).isEqualTo(ctx.size());
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.THREADS, timeoutSeconds = 30)
    void aBodyMayFinalizeItself() throws MPIException {
        MPI.Finalize();
        assertThat(MPI.isFinalized()).isTrue();
    }

    @Test
    @Timeout(60)
    void aRankFailingWhileOthersWaitInMpiEndsTheJobQuickly() {
        long start = System.nanoTime();
        EngineExecutionResults r = SelfTestSupport.run(Inner.FailsWhileOthersReceive.class);
        double seconds = (System.nanoTime() - start) / 1e9;
        r.testEvents().assertStatistics(s -> s.started(1).failed(1));
        Throwable t = SelfTestSupport.failures(r).getFirst();
        assertThat(t).hasMessageStartingWith("[threads, 3 ranks] rank 0 of 3 failed:")
                .hasMessageContaining("rank 0: java.lang.IllegalStateException: rank 0 gives up");
        assertThat(seconds).as("seconds until reported").isLessThan(20);
    }

    static class Inner {
        @OnlyThroughTestKit
        static class FailsWhileOthersReceive {
            @MpiTest(ranks = 3, modes = Mode.THREADS, timeoutSeconds = 20)
            void body() throws MPIException {
                if (MPI.COMM_WORLD.getRank() == 0) {
                    throw new IllegalStateException("rank 0 gives up");
                }
                int[] buf = new int[1];
                MPI.COMM_WORLD.recv(buf, 1, MPI.INT, 0, 0);
            }
        }
    }
}
