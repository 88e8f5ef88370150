package org.jmpi.tests.compat;

import static org.assertj.core.api.Assertions.assertThat;

import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.junit.MpiTest;

/**
 * Issue 12, item 4: MPI.INFO_ENV holds the keys MPI defines that jmpi knows, in threads and processes mode; and the
 * keys Open MPI adds (soft, ompi_num_apps, ompi_first_rank, ompi_np). Several application contexts: DpmRank's
 * appcheck (jmpirun, processes) and SpawnInThreadsModeTest (threads).
 */
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
        // Open MPI sets soft to maxprocs, and keys of its own that programs written for it read (one application
        // context here: the whole world)
        assertThat(env.get("soft")).isEqualTo(env.get("maxprocs"));
        assertThat(env.get("ompi_num_apps")).isEqualTo("1");
        assertThat(env.get("ompi_first_rank")).isEqualTo("0");
        assertThat(env.get("ompi_np")).isEqualTo(Integer.toString(MPI.COMM_WORLD.getSize()));
        assertThat(env.size()).isEqualTo(11);
    }
}
