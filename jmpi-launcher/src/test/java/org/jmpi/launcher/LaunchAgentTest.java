package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LaunchAgentTest {
    private static final List<String> PROXY = List.of("/opt/jdk/bin/java", "-cp", "/a b/x.jar", "Main");

    @Test
    void plainSshGetsBatchModeAndAQuotedRemoteCommand() {
        List<String> cmd = LaunchAgent.from(null, null, null, Map.of()).commandFor("w0", PROXY, "/work dir");
        assertThat(cmd).containsExactly("ssh", "-x", "-T", "-o", "BatchMode=yes", "w0",
                "cd '/work dir' 2>/dev/null; exec /opt/jdk/bin/java -cp '/a b/x.jar' Main");
    }

    @Test
    void mpiOperatorExtraArgumentsAndHydraAgentVariables() {
        LaunchAgent a = LaunchAgent.from(null, null, null, Map.of("HYDRA_LAUNCH_EXTRA_ARGS",
                "-o ConnectionAttempts=10"));
        assertThat(a.commandFor("w1", PROXY, null)).containsSequence("-o", "ConnectionAttempts=10", "w1");
        LaunchAgent wrapper = LaunchAgent.from(null, null, null, Map.of("HYDRA_LAUNCHER_EXEC", "/t/fakessh -p 2222",
                "OMPI_MCA_plm_rsh_args", "-F /t/config"));
        assertThat(wrapper.kind()).isEqualTo(LaunchAgent.Kind.SSH);
        assertThat(wrapper.commandFor("h", List.of("j"), null)).containsExactly("/t/fakessh", "-p", "2222", "-F",
                "/t/config", "h", "exec j");
    }

    @Test
    void openMpiAgentListsPickTheFirstOnThePath() {
        LaunchAgent a = LaunchAgent.from(null, null, null, Map.of("OMPI_MCA_plm_rsh_agent",
                "no-such-agent-xyz : sh", "PATH", "/usr/bin:/bin"));
        assertThat(a.command()).containsExactly("sh");
        assertThatThrownBy(() -> LaunchAgent.from(null, null, null, Map.of("OMPI_MCA_plm_rsh_agent",
                "nope1 : nope2", "PATH", "/usr/bin"))).hasMessageContaining("none of the launch agents");
    }

    @Test
    void slurmStartsOneStepPerHost() {
        LaunchAgent a = LaunchAgent.from("slurm", null, null, Map.of());
        assertThat(a.commandFor("n1", List.of("java", "P"), "/w")).containsExactly("srun", "--nodes=1",
                "--ntasks=1", "--nodelist=n1", "--overlap", "--mpi=none", "--input=all", "--unbuffered", "--quiet",
                "--chdir=/w",
                "java", "P");
        assertThat(LaunchAgent.from(null, "/usr/bin/srun", null, Map.of()).kind())
                .isEqualTo(LaunchAgent.Kind.SLURM);
    }

    @Test
    void unknownLaunchersAndBadQuotesAreErrors() {
        assertThatThrownBy(() -> LaunchAgent.from("pbsdsh", null, null, Map.of()))
                .hasMessageContaining("not supported");
        assertThatThrownBy(() -> LaunchAgent.from(null, null, "-o 'x", Map.of())).hasMessageContaining("quote");
        assertThat(LaunchAgent.splitArgs("-o \"A B\" 'c d' e")).containsExactly("-o", "A B", "c d", "e");
        assertThat(LaunchAgent.quote("it's")).isEqualTo("'it'\\''s'");
    }
}
