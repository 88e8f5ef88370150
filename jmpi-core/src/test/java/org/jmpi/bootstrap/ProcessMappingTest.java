package org.jmpi.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The values of launch-integration.md, section 1.3, and the compact form jmpirun writes. */
class ProcessMappingTest {
    private static int[] nodes(String value, int size) {
        ProcessMapping m = ProcessMapping.parse(value, size);
        int[] out = new int[size];
        for (int r = 0; r < size; r++) {
            out[r] = m.nodeOf(r);
        }
        return out;
    }

    @Test
    void hydraOnOneHostRepeatsItsVectorCyclically() {
        assertThat(nodes("(vector,(0,1,1))", 4)).containsExactly(0, 0, 0, 0);
        assertThat(ProcessMapping.parse("(vector,(0,1,1))", 4).nodes()).isEqualTo(1);
    }

    @Test
    void blocksAndCyclesOverHosts() {
        assertThat(nodes("(vector,(0,2,2))", 4)).containsExactly(0, 0, 1, 1);
        assertThat(nodes("(vector,(0,2,1))", 4)).containsExactly(0, 1, 0, 1);
        assertThat(nodes("(vector,(0,1,3),(1,1,2))", 5)).containsExactly(0, 0, 0, 1, 1);
        assertThat(nodes(" (vector, (0,1,2)) ", 2)).containsExactly(0, 0);
        assertThat(ProcessMapping.parse("(vector,(0,2,2))", 4).nodes()).isEqualTo(2);
    }

    @Test
    void anythingElseIsNoMapping() {
        for (String bad : new String[] {null, "", "(vector)", "(vector,(0,1))", "(vector,(0,x,1))", "(list,(0,1,1))",
            "(vector,(0,0,1))", "(vector,(0,1,1)"}) {
            assertThat(ProcessMapping.parse(bad, 4)).as(bad).isNull();
        }
    }

    @Test
    void formatIsCompactAndParsesBack() {
        assertThat(ProcessMapping.format(new int[] {0, 0, 0})).isEqualTo("(vector,(0,1,3))");
        assertThat(ProcessMapping.format(new int[] {0, 0, 1, 1})).isEqualTo("(vector,(0,2,2))");
        assertThat(ProcessMapping.format(new int[] {0, 1, 0, 1, 0, 1})).isEqualTo("(vector,(0,2,1))");
        assertThat(ProcessMapping.format(new int[] {0, 0, 0, 1, 1})).isEqualTo("(vector,(0,1,3),(1,1,2))");
        int[] odd = {0, 2, 1, 1, 0, 2};
        assertThat(nodes(ProcessMapping.format(odd), odd.length)).containsExactly(odd);
    }
}
