package org.jmpi.dpm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;
import org.junit.jupiter.api.Test;

/** The parts of dynamic processes that need no running job: port names, spawn counts, command lines. */
class DpmPartsTest {
    private static int errorClassOf(Runnable r) {
        try {
            r.run();
        } catch (MpiError e) {
            return e.errorClass();
        }
        throw new AssertionError("no error");
    }

    @Test
    void portNamesRoundTripAndMalformedOnesAreErrPort() {
        byte[] token = new byte[16];
        token[3] = 7;
        PortName p = new PortName("127.0.0.1", 4711, token);
        assertThat(PortName.parse(p.format())).isEqualTo(p);
        PortName v6 = new PortName("[::1]", 80, token);
        assertThat(PortName.parse(v6.format()).bareHost()).isEqualTo("::1");
        for (String bad : new String[] {null, "", "tcp://x:1", "jmpi-port:", "jmpi-port:h:1:00",
                "jmpi-port:h:0:" + "00".repeat(16), "jmpi-port:h:x:" + "00".repeat(16), "jmpi-port::1:" + "00".repeat(16),
                "jmpi-port:h:1:" + "zz".repeat(16)}) {
            assertThat(errorClassOf(() -> PortName.parse(bad))).as(bad).isEqualTo(ErrorClass.ERR_PORT);
        }
    }

    @Test
    void spawnCountsFollowMaxprocsSoftAndTheUniverse() {
        assertThat(Spawner.count(4, null, 0)).isEqualTo(4);
        assertThat(Spawner.count(4, null, 8)).isEqualTo(4);
        assertThat(errorClassOf(() -> Spawner.count(4, null, 3))).isEqualTo(ErrorClass.ERR_SPAWN);
        assertThat(errorClassOf(() -> Spawner.count(0, null, 0))).isEqualTo(ErrorClass.ERR_ARG);
        assertThat(errorClassOf(() -> Spawner.count(-1, "1:4", 0))).isEqualTo(ErrorClass.ERR_ARG);
        assertThat(Spawner.count(4, "1:4", 3)).isEqualTo(3);
        assertThat(Spawner.count(8, "2,4", 3)).isEqualTo(2);
        assertThat(Spawner.count(16, "2:16:4", 0)).isEqualTo(14);
        assertThat(Spawner.count(5, "1,2,4:8", 0)).isEqualTo(5);
        assertThat(errorClassOf(() -> Spawner.count(4, "8:16", 0))).isEqualTo(ErrorClass.ERR_SPAWN);
        assertThat(errorClassOf(() -> Spawner.count(4, "a:b", 0))).isEqualTo(ErrorClass.ERR_ARG);
    }

    @Test
    void commandLinesNameOneApplicationContextPerCommand() {
        System.setProperty("jmpi.launcher.classpath", "/opt/jmpi/lib/x.jar");
        try {
            List<String> cl = Spawner.commandLine(List.of(
                    new Spawner.Command("org.example.Worker", new String[] {"a b", ""}, 2, Map.of("wdir", "/tmp")),
                    new Spawner.Command("/bin/true", new String[] {"x"}, 1, Map.of())));
            assertThat(cl).containsSubsequence("org.jmpi.launcher.JmpiRun", "--no-stdin", "-n", "2", "--wdir", "/tmp",
                    "-cp", "org.example.Worker", "a b", "", ":", "-n", "1", "--exec", "/bin/true", "x");
            assertThat(errorClassOf(() -> Spawner.commandLine(List.of(new Spawner.Command("org.example.W",
                    new String[] {":"}, 1, Map.of()))))).isEqualTo(ErrorClass.ERR_SPAWN);
            assertThat(errorClassOf(() -> Spawner.commandLine(List.of(new Spawner.Command("org.example.W",
                    new String[0], 1, Map.of("wdir", "/no/such/dir")))))).isEqualTo(ErrorClass.ERR_SPAWN);
            assertThat(errorClassOf(() -> Spawner.commandLine(List.of(new Spawner.Command("not a class!",
                    new String[0], 1, Map.of()))))).isEqualTo(ErrorClass.ERR_SPAWN);
            assertThat(errorClassOf(() -> Spawner.commandLine(List.of(
                    new Spawner.Command("A", new String[0], 1, Map.of("host", "a")),
                    new Spawner.Command("B", new String[0], 1, Map.of("host", "b")))))).isEqualTo(ErrorClass.ERR_SPAWN);
            assertThat(errorClassOf(() -> Spawner.commandLine(List.of(new Spawner.Command("A", new String[0], 1,
                    Map.of("arch", "no-such-arch")))))).isEqualTo(ErrorClass.ERR_SPAWN);
        } finally {
            System.clearProperty("jmpi.launcher.classpath");
        }
    }

    @Test
    void theChildrensLauncherGetsNoPerRankVariablesAndAReachableListenAddress() {
        java.util.Map<String, String> env = new java.util.HashMap<>(java.util.Map.of("JMPI_RANK", "1",
                "JMPI_NODE_ID", "1", "PMI_PORT", "h:1", "JMPI_SECRET", "s", "JMPI_HOSTS", "a:1,b:1",
                "JMPI_TCP_HOST", "10.78.0.1", "JMPI_NAMESERVER", "n"));
        Spawner.launcherEnvironment(env, true);
        assertThat(env).containsOnlyKeys("JMPI_HOSTS", "JMPI_TCP_HOST", "JMPI_NAMESERVER").containsEntry(
                "JMPI_TCP_HOST", "*");
        java.util.Map<String, String> iface = new java.util.HashMap<>(java.util.Map.of("JMPI_TCP_HOST", "eth1"));
        Spawner.launcherEnvironment(iface, true);
        assertThat(iface).containsEntry("JMPI_TCP_HOST", "eth1"); // an interface names the right address anywhere
        java.util.Map<String, String> oneHost = new java.util.HashMap<>();
        Spawner.launcherEnvironment(oneHost, false);
        assertThat(oneHost).isEmpty(); // parents on one host: children choose as any job does
        assertThat(Spawner.isAddressLiteral("fd00::2")).isTrue();
        assertThat(Spawner.isAddressLiteral("*")).isFalse();
    }

    @Test
    void nameServerAddressesAreCheckedAndAbsentOnesAreErrName() {
        assertThat(errorClassOf(() -> NameServiceClient.parse("localhost"))).isEqualTo(ErrorClass.ERR_NAME);
        assertThat(errorClassOf(() -> NameServiceClient.parse("h:x:t"))).isEqualTo(ErrorClass.ERR_NAME);
        NameServiceClient.parse("[::1]:5:abc");
        // a server that is not there: a lookup fails with ERR_NAME, a publish with ERR_SERVICE, both at once
        NameServiceClient none = NameServiceClient.parse("127.0.0.1:1:abc");
        assertThat(errorClassOf(() -> none.lookup("x"))).isEqualTo(ErrorClass.ERR_NAME);
        assertThat(errorClassOf(() -> none.publish("x", "p"))).isEqualTo(ErrorClass.ERR_SERVICE);
        assertThat(errorClassOf(() -> none.publish("", "p"))).isEqualTo(ErrorClass.ERR_ARG);
    }
}
