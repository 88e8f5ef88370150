package org.jmpi.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.jmpi.bootstrap.pmi.PmiException;
import org.junit.jupiter.api.Test;

class BootstrapFactoryTest {
    @Test
    void nothingSetIsASingleton() {
        Bootstrap b = BootstrapFactory.fromEnvironment(Map.of("PATH", "/bin"));
        assertThat(b).isInstanceOf(SingletonBootstrap.class);
        assertThat(b.size()).isEqualTo(1);
    }

    @Test
    void aPmixOnlyLauncherIsAnErrorThatSaysWhatWorks() {
        for (Map<String, String> env : java.util.List.of(Map.of("PMIX_RANK", "0", "PMIX_NAMESPACE",
                "slurm.pmix.8.0"), Map.of("OMPI_COMM_WORLD_SIZE", "2", "OMPI_COMM_WORLD_RANK", "1"))) {
            assertThatThrownBy(() -> BootstrapFactory.fromEnvironment(env)).isInstanceOf(PmiException.class)
                    .hasMessageContaining("PMIx-only launcher").hasMessageContaining("jmpirun")
                    .hasMessageContaining("mpiexec.hydra").hasMessageContaining("srun --mpi=pmi2")
                    .hasMessageContaining("JMPI_KVS");
        }
    }

    @Test
    void envOnlyModeFindsRankAndSizeInTheLaunchersVariables() {
        assertThat(BootstrapFactory.envRankAndSize(Map.of("JMPI_RANK", "1", "JMPI_SIZE", "4"))).containsExactly(1, 4);
        assertThat(BootstrapFactory.envRankAndSize(Map.of("OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "3",
                "PMIX_RANK", "2"))).containsExactly(2, 3);
        assertThat(BootstrapFactory.envRankAndSize(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2")))
                .containsExactly(0, 2);
        assertThat(BootstrapFactory.envRankAndSize(Map.of("PMIX_RANK", "5", "SLURM_NTASKS", "8")))
                .containsExactly(5, 8);
        assertThat(BootstrapFactory.envRankAndSize(Map.of("PMIX_RANK", "5"))).isNull();
        assertThatThrownBy(() -> BootstrapFactory.envRankAndSize(Map.of("JMPI_RANK", "4", "JMPI_SIZE", "4")))
                .hasMessageContaining("do not make a rank");
        assertThatThrownBy(() -> BootstrapFactory.envRankAndSize(Map.of("JMPI_RANK", "x", "JMPI_SIZE", "4")))
                .hasMessageContaining("must be a number");
        assertThatThrownBy(() -> BootstrapFactory.fromEnvironment(Map.of("JMPI_KVS", "127.0.0.1:1")))
                .hasMessageContaining("no variable tells this rank its rank");
        assertThatThrownBy(() -> BootstrapFactory.fromEnvironment(Map.of("JMPI_KVS", "127.0.0.1:1", "JMPI_RANK", "0",
                "JMPI_SIZE", "2"))).hasMessageContaining("JMPI_SECRET");
    }

    @Test
    void pmi2UnderSlurmUnlessTold() {
        assertThat(BootstrapFactory.usePmi2(Map.of("PMI_FD", "5", "PMI_JOBID", "1.0", "SLURM_JOB_ID", "1"))).isTrue();
        assertThat(BootstrapFactory.usePmi2(Map.of("PMI_FD", "5"))).as("Hydra").isFalse();
        assertThat(BootstrapFactory.usePmi2(Map.of("PMI_FD", "5", "PMI_JOBID", "1.0", "SLURM_JOB_ID", "1",
                "JMPI_PMI", "1"))).isFalse();
        assertThat(BootstrapFactory.usePmi2(Map.of("JMPI_PMI", "2"))).isTrue();
        assertThatThrownBy(() -> BootstrapFactory.usePmi2(Map.of("JMPI_PMI", "3"))).hasMessageContaining("1 or 2");
    }
}
