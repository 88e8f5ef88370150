package org.jmpi.launcher.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.jmpi.launcher.HostSpec;
import org.jmpi.launcher.hosts.Placement.MapBy;
import org.junit.jupiter.api.Test;

class PlacementTest {
    private static final List<HostSpec> TWO_BY_TWO = List.of(HostSpec.of("a", 2), HostSpec.of("b", 2));

    @Test
    void bySlotFillsEachHostInTurn() throws Exception {
        Placement p = Placement.of(TWO_BY_TWO, 4, MapBy.SLOT, 0, true);
        assertThat(p.hostOf()).containsExactly(0, 0, 1, 1);
        assertThat(p.processMapping()).isEqualTo("(vector,(0,2,2))");
        assertThat(p.ranksOn(1)).containsExactly(2, 3);
    }

    @Test
    void bySlotOversubscribesInRoundsAsHydraDoes() throws Exception {
        // mpi-operator's default: one slot per worker, "mpirun -n 4"
        Placement p = Placement.of(List.of(HostSpec.of("w0", 1), HostSpec.of("w1", 1)), 4, MapBy.SLOT, 0, true);
        assertThat(p.hostOf()).containsExactly(0, 1, 0, 1);
        assertThat(p.processMapping()).isEqualTo("(vector,(0,2,1))");
        assertThat(p.usedHosts()).isEqualTo(2);
    }

    @Test
    void byNodeGoesRoundTheHosts() throws Exception {
        Placement p = Placement.of(List.of(HostSpec.of("a", 3), HostSpec.of("b", 1)), 4, MapBy.NODE, 0, true);
        assertThat(p.hostOf()).containsExactly(0, 1, 0, 0);
    }

    @Test
    void perHostBlocks() throws Exception {
        Placement p = Placement.of(TWO_BY_TWO, 5, MapBy.SLOT, 3, true);
        assertThat(p.hostOf()).containsExactly(0, 0, 0, 1, 1);
        assertThat(p.processMapping()).isEqualTo("(vector,(0,1,3),(1,1,2))");
    }

    @Test
    void unusedHostsDoNotCountInTheMapping() throws Exception {
        Placement p = Placement.of(List.of(HostSpec.of("a", 4), HostSpec.of("b", 4)), 3, MapBy.SLOT, 0, true);
        assertThat(p.usedHosts()).isEqualTo(1);
        assertThat(p.processMapping()).isEqualTo("(vector,(0,1,3))");
    }

    @Test
    void noOversubscribeRefusesTooManyRanks() {
        assertThatThrownBy(() -> Placement.of(TWO_BY_TWO, 5, MapBy.SLOT, 0, false))
                .isInstanceOf(HostListException.class).hasMessageContaining("not enough slots for 5 ranks");
    }

    @Test
    void mapByValues() throws Exception {
        assertThat(MapBy.parse("slot")).isEqualTo(MapBy.SLOT);
        assertThat(MapBy.parse("NODE")).isEqualTo(MapBy.NODE);
        assertThat(MapBy.parse("core:oversubscribe")).isEqualTo(MapBy.SLOT);
        assertThatThrownBy(() -> MapBy.parse("socket")).hasMessageContaining("not supported");
        assertThatThrownBy(() -> MapBy.parse("node:pe=2")).hasMessageContaining("modifier");
    }
}
