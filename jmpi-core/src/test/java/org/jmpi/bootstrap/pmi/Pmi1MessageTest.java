package org.jmpi.bootstrap.pmi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class Pmi1MessageTest {
    @Test
    void parsesKeysInAnyOrder() {
        Pmi1Message hydra = Pmi1Message.parse("cmd=get_result rc=0 msg=success value=tcp://127.0.0.1:40000");
        Pmi1Message slurm = Pmi1Message.parse("cmd=get_result value=tcp://127.0.0.1:40000 rc=0");
        for (Pmi1Message m : new Pmi1Message[] {hydra, slurm}) {
            assertThat(m.command()).isEqualTo("get_result");
            assertThat(m.rc()).isZero();
            assertThat(m.get("value")).isEqualTo("tcp://127.0.0.1:40000");
        }
    }

    @Test
    void toleratesExtraWhitespaceAndEqualsInValues() {
        Pmi1Message m = Pmi1Message.parse("  cmd=put \t kvsname=k   key=a value=b+c/d==  \r\n");
        assertThat(m.command()).isEqualTo("put");
        assertThat(m.fields()).containsExactly(java.util.Map.entry("kvsname", "k"), java.util.Map.entry("key", "a"),
                java.util.Map.entry("value", "b+c/d=="));
    }

    @Test
    void readsRcAsNotFoundInBothDialects() {
        assertThat(Pmi1Message.parse("cmd=get_result rc=-1 msg=key_x_not_found value=unknown").rc()).isEqualTo(-1);
        assertThat(Pmi1Message.parse("cmd=get_result rc=1").rc()).isEqualTo(1);
        assertThat(Pmi1Message.parse("cmd=barrier_out").rc()).isZero();
        assertThat(Pmi1Message.parse("cmd=barrier_out rc=zero").rc()).isEqualTo(-1);
    }

    @Test
    void knowsTheMultiLineSpawnForm() {
        assertThat(Pmi1Message.parse("mcmd=spawn").command()).isEqualTo("spawn");
        Pmi1Message end = Pmi1Message.parse("endcmd");
        assertThat(end.command()).isEmpty();
        assertThat(end.fields()).containsKey("endcmd");
    }

    @Test
    void formatsCommandFirstThenFieldsInOrder() {
        assertThat(Pmi1Message.of("put", "kvsname", "k", "key", "a", "value", "v").format())
                .isEqualTo("cmd=put kvsname=k key=a value=v");
        assertThat(Pmi1Message.parse("cmd=set size=2").format()).isEqualTo("cmd=set size=2");
        assertThat(Pmi1Message.of("x").intValue("missing", 42)).isEqualTo(42);
    }

    /** Issue 12, item 8: a text with spaces, underscores, '%' and non-ASCII survives the wire unchanged. */
    @Test
    void encodedTextComesBackUnchanged() {
        String text = "jmpi: rank 1: MPI_Pack: 100% of MPI_ERR_BUFFER \u00e9\u6f22\ttab";
        String wire = Pmi1Message.encodeText(text);
        assertThat(wire).doesNotContain(" ", "\t").contains("MPI_Pack", "MPI_ERR_BUFFER", "%25");
        Pmi1Message m = Pmi1Message.parse(Pmi1Message.of("abort", "exitcode", "6", "jmpi_msg", wire).format());
        assertThat(Pmi1Message.decodeText(m.get("jmpi_msg"))).isEqualTo(text);
        assertThat(Pmi1Message.decodeText("50%_done%2")).isEqualTo("50%_done%2"); // malformed escapes stay
    }
}
