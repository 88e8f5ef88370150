package org.jmpi.launcher.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jmpi.launcher.HostSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostListsTest {
    @TempDir
    Path dir;

    private Path file(String... lines) throws Exception {
        Path f = Files.createTempFile(dir, "hosts", "");
        Files.write(f, List.of(lines));
        return f;
    }

    @Test
    void readsOpenMpiFormatAsMpiOperatorWritesIt() throws Exception {
        Path f = file("pi-worker-0.pi.default.svc slots=2", "pi-worker-1.pi.default.svc slots=2 max_slots=4");
        assertThat(HostLists.readHostfile(f, 1)).containsExactly(
                HostSpec.of("pi-worker-0.pi.default.svc", 2), HostSpec.of("pi-worker-1.pi.default.svc", 2));
    }

    @Test
    void readsHydraFormatCommentsBlankLinesAndBareHosts() throws Exception {
        Path f = file("# workers", "", "nodeA:2   # two", "nodeB", "  10.77.0.3:1  ");
        assertThat(HostLists.readHostfile(f, 3)).containsExactly(HostSpec.of("nodeA", 2),
                new HostSpec("nodeB", 3, false), HostSpec.of("10.77.0.3", 1));
    }

    @Test
    void aRepeatedHostAddsItsSlotsLikeAPbsNodeFile() throws Exception {
        Path f = file("n1", "n1", "n2", "n1");
        assertThat(HostLists.readHostfile(f, 1)).containsExactly(new HostSpec("n1", 3, false),
                new HostSpec("n2", 1, false));
    }

    @Test
    void ipv6Literals() throws Exception {
        assertThat(HostLists.parseHostList("[fd00::1]:2,fd00::2", 1)).containsExactly(HostSpec.of("fd00::1", 2),
                new HostSpec("fd00::2", 1, false));
    }

    @Test
    void anythingNotUnderstoodIsAnErrorNamingTheLine() throws Exception {
        assertThatThrownBy(() -> HostLists.readHostfile(file("a slots=2", "b slot=2"), 1))
                .isInstanceOf(HostListException.class).hasMessageContaining("line 2").hasMessageContaining("slot");
        assertThatThrownBy(() -> HostLists.readHostfile(file("a:x"), 1)).hasMessageContaining("number");
        assertThatThrownBy(() -> HostLists.readHostfile(file("a:0"), 1)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> HostLists.readHostfile(file("a slots"), 1)).hasMessageContaining("key=value");
        assertThatThrownBy(() -> HostLists.readHostfile(file("a:2 slots=2"), 1)).hasMessageContaining("not both");
        assertThatThrownBy(() -> HostLists.readHostfile(file("# nothing", ""), 1)).hasMessageContaining("no host");
        assertThatThrownBy(() -> HostLists.readHostfile(dir.resolve("missing"), 1))
                .hasMessageContaining("cannot read");
        assertThatThrownBy(() -> HostLists.parseHostList(",,", 1)).hasMessageContaining("no host");
    }

    @Test
    void hostListsAsOnTheCommandLine() throws Exception {
        assertThat(HostLists.parseHostList("a,b:2,a", 1)).containsExactly(new HostSpec("a", 2, false),
                HostSpec.of("b", 2));
    }

    @Test
    void slurmNodeListsAndCounts() throws Exception {
        assertThat(HostLists.expandSlurmNodeList("node[01-03,07],gpu1,rack[1-2]-n[1-2]")).containsExactly(
                "node01", "node02", "node03", "node07", "gpu1", "rack1-n1", "rack1-n2", "rack2-n1", "rack2-n2");
        assertThat(HostLists.expandSlurmNodeList("vm")).containsExactly("vm");
        assertThat(HostLists.expandSlurmCounts("2(x3),1")).containsExactly(2, 2, 2, 1);
        assertThatThrownBy(() -> HostLists.expandSlurmNodeList("node[1-3")).hasMessageContaining("unbalanced");
        assertThatThrownBy(() -> HostLists.expandSlurmNodeList("node[3-1]")).hasMessageContaining("bad range");
        assertThatThrownBy(() -> HostLists.expandSlurmCounts("2(y3)")).hasMessageContaining("bad task count");
    }
}
