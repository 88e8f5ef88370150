package org.jmpi.launcher.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jmpi.launcher.HostSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostDiscoveryTest {
    @TempDir
    Path dir;

    private String hostfile(String... lines) throws Exception {
        Path f = Files.createTempFile(dir, "hostfile", "");
        Files.write(f, List.of(lines));
        return f.toString();
    }

    @Test
    void nothingMeansThisHost() throws Exception {
        HostDiscovery.Result r = HostDiscovery.discover(List.of(), null, Map.of());
        assertThat(r.hosts()).isNull();
    }

    @Test
    void mpiOperatorWithOpenMpiOrMpichOrIntel() throws Exception {
        String openmpi = hostfile("w0.job.ns.svc slots=1", "w1.job.ns.svc slots=1");
        assertThat(HostDiscovery.discover(null, null, Map.of("OMPI_MCA_orte_default_hostfile", openmpi,
                "OMPI_MCA_orte_set_default_slots", "1")).hosts()).extracting(HostSpec::name)
                .containsExactly("w0.job.ns.svc", "w1.job.ns.svc");
        String mpich = hostfile("w0.job.ns.svc:2", "w1.job.ns.svc:2");
        assertThat(HostDiscovery.discover(null, null, Map.of("HYDRA_HOST_FILE", mpich)).hosts())
                .containsExactly(HostSpec.of("w0.job.ns.svc", 2), HostSpec.of("w1.job.ns.svc", 2));
        String intel = hostfile("w0", "w1");
        assertThat(HostDiscovery.discover(null, null, Map.of("I_MPI_HYDRA_HOST_FILE", intel, "I_MPI_PERHOST", "3"))
                .hosts()).containsExactly(new HostSpec("w0", 3, false), new HostSpec("w1", 3, false));
        assertThat(HostDiscovery.discover(null, null, Map.of("PRTE_MCA_prte_default_hostfile", openmpi)).source())
                .contains("PRTE_MCA_prte_default_hostfile");
    }

    @Test
    void aHostfileThatCannotBeReadIsAnErrorNotThisHost() {
        assertThatThrownBy(() -> HostDiscovery.discover(null, null, Map.of("HYDRA_HOST_FILE",
                dir.resolve("gone").toString()))).isInstanceOf(HostListException.class)
                .hasMessageContaining("cannot read");
    }

    @Test
    void conflictingSourcesAreErrors() throws Exception {
        String a = hostfile("a");
        String b = hostfile("b");
        assertThatThrownBy(() -> HostDiscovery.discover(null, null, Map.of("HYDRA_HOST_FILE", a,
                "OMPI_MCA_orte_default_hostfile", b))).hasMessageContaining("different hostfiles");
        assertThatThrownBy(() -> HostDiscovery.discover(List.of("x"), a, Map.of())).hasMessageContaining("not both");
        assertThatThrownBy(() -> HostDiscovery.discover(null, null, Map.of("OMPI_MCA_orte_set_default_slots",
                "auto", "MPI_HOST", "x"))).hasMessageContaining("needs a number");
    }

    @Test
    void commandLineWinsOverTheEnvironment() throws Exception {
        String f = hostfile("fromfile");
        assertThat(HostDiscovery.discover(List.of("a,b:2", "c"), null, Map.of("HYDRA_HOST_FILE", f)).hosts())
                .extracting(HostSpec::name).containsExactly("a", "b", "c");
    }

    @Test
    void volcanoSlurmAndPbs() throws Exception {
        assertThat(HostDiscovery.discover(null, null, Map.of("MPI_HOST", "mpiworker-0.job,mpiworker-1.job,"))
                .hosts()).extracting(HostSpec::name).containsExactly("mpiworker-0.job", "mpiworker-1.job");
        assertThat(HostDiscovery.discover(null, null, Map.of("SLURM_JOB_NODELIST", "n[1-3]",
                "SLURM_TASKS_PER_NODE", "2(x2),1")).hosts())
                .containsExactly(HostSpec.of("n1", 2), HostSpec.of("n2", 2), HostSpec.of("n3", 1));
        assertThatThrownBy(() -> HostDiscovery.discover(null, null, Map.of("SLURM_JOB_NODELIST", "n[1-3]",
                "SLURM_TASKS_PER_NODE", "2"))).hasMessageContaining("3 nodes");
        String pbs = hostfile("p1", "p1", "p2");
        assertThat(HostDiscovery.discover(null, null, Map.of("PBS_NODEFILE", pbs)).hosts())
                .containsExactly(new HostSpec("p1", 2, false), new HostSpec("p2", 1, false));
    }

    @Test
    void localNames() {
        assertThat(HostDiscovery.isLocal("localhost")).isTrue();
        assertThat(HostDiscovery.isLocal("127.0.0.1")).isTrue();
        assertThat(HostDiscovery.isLocal("no-such-host.invalid")).isFalse();
        assertThat(HostDiscovery.isLocal("192.0.2.77")).isFalse(); // TEST-NET-1, never ours
    }
}
