package org.jmpi.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import mpi.MPI;
import mpi.MPIException;
import org.jmpi.junit.MpiTest;
import org.jmpi.junit.MpiTestContext;

/** Init, Finalize and the environment queries, on every transport and at several sizes. */
class InitTest {

    @MpiTest(ranks = {1, 2, 3, 4, 8})
    void worldAndSelfHaveTheRightShape(MpiTestContext ctx) throws MPIException {
        assertThat(MPI.COMM_WORLD.getSize()).isEqualTo(ctx.size());
        assertThat(MPI.COMM_WORLD.getRank()).isEqualTo(ctx.rank());
        assertThat(MPI.COMM_SELF.getSize()).isEqualTo(1);
        assertThat(MPI.COMM_SELF.getRank()).isZero();
        assertThat(MPI.isInitialized()).isTrue();
        assertThat(MPI.isFinalized()).isFalse();
        assertThat(MPI.getProcessorName()).isNotBlank();
        assertThat(MPI.wtick()).isPositive();
        double t0 = MPI.wtime();
        MPI.COMM_WORLD.barrier();
        assertThat(MPI.wtime()).isGreaterThanOrEqualTo(t0);
        assertThat(MPI.getVersion().getVersion()).isEqualTo(3);
        assertThat(MPI.getLibVersion()).contains("jmpi");
    }

    @MpiTest(ranks = {1, 3}, init = false)
    void callsBeforeInitAndAfterFinalizeFail() throws MPIException {
        assertThat(MPI.isInitialized()).isFalse();
        assertThatThrownBy(() -> MPI.COMM_WORLD.getRank())
                .isInstanceOfSatisfying(MPIException.class, e -> {
                    assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_OTHER);
                    assertThat(e).hasMessageContaining("not initialized");
                });
        assertThatThrownBy(() -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 0, 0))
                .isInstanceOf(MPIException.class).hasMessageContaining("not initialized");
        int provided = MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
        assertThat(provided).isEqualTo(MPI.THREAD_MULTIPLE);
        assertThat(MPI.queryThread()).isEqualTo(MPI.THREAD_MULTIPLE);
        assertThat(MPI.isThreadMain()).isTrue();
        assertThatThrownBy(() -> MPI.Init(new String[0]))
                .isInstanceOf(MPIException.class).hasMessageContaining("already initialized");
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
        assertThat(MPI.isFinalized()).isTrue();
        assertThat(MPI.isInitialized()).isTrue();
        assertThatThrownBy(() -> MPI.COMM_WORLD.getSize())
                .isInstanceOfSatisfying(MPIException.class, e -> {
                    assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_OTHER);
                    assertThat(e).hasMessageContaining("finalized");
                });
    }

    @MpiTest(ranks = 2, init = false)
    void initReturnsTheArguments() throws MPIException {
        String[] args = {"a", "b"};
        String[] out = MPI.Init(args);
        assertThat(out).containsExactly("a", "b").isNotSameAs(args);
        MPI.Finalize();
    }
}
