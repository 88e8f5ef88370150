package org.jmpi.tests.compat;

import static org.assertj.core.api.Assertions.assertThat;

import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.junit.MpiTest;

/** Issue 12, item 4: MPI.INFO_ENV holds the keys MPI defines that jmpi knows, in threads and processes mode. */
class InfoEnvTest {

    @MpiTest(ranks = {1, 3})
    void infoEnvDescribesTheJob() throws MPIException {
        Info env = MPI.INFO_ENV;
        assertThat(env.get("maxprocs")).isEqualTo(Integer.toString(MPI.COMM_WORLD.getSize()));
        assertThat(env.get("thread_level")).isEqualTo("MPI_THREAD_SINGLE");
        assertThat(env.get("wdir")).isEqualTo(System.getProperty("user.dir"));
        assertThat(env.get("arch")).isEqualTo(System.getProperty("os.arch"));
        assertThat(env.get("host")).isEqualTo(MPI.getProcessorName());
        assertThat(env.get("argv")).isNotNull();
        assertThat(env.get("command")).isNotBlank();
        assertThat(env.size()).isGreaterThanOrEqualTo(7);
        assertThat(env.get("soft")).isNull();
    }
}
