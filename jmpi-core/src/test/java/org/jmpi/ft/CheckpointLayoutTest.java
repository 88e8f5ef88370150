package org.jmpi.ft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.ft.CheckpointLayout.BadCheckpointException;
import org.jmpi.ft.CheckpointLayout.ItemInfo;
import org.jmpi.ft.CheckpointLayout.Manifest;
import org.junit.jupiter.api.Test;

/** The manifest's text form, names of generation directories, the settings and the folding of rank errors. */
class CheckpointLayoutTest {
    private static Manifest sample() {
        return new Manifest(7, 3, Instant.parse("2026-11-22T10:00:00.123Z"), new long[] {100, 0, 1L << 33},
                new int[] {0x8d3f00aa, 0, -1},
                List.of(List.of(new ItemInfo("rows", ItemType.DOUBLES, 12), new ItemInfo("a name with spaces ü",
                        ItemType.OBJECT, 55)), List.of(), List.of(new ItemInfo("b", ItemType.BUFFER, 3))));
    }

    @Test
    void manifestRoundTrip() throws Exception {
        Manifest m = sample();
        byte[] text = m.encode();
        assertThat(new String(text, StandardCharsets.UTF_8)).startsWith("jmpi-checkpoint 1\ngeneration 7\nranks 3\n")
                .contains("part 0 100 8d3f00aa\n").contains("item 0 OBJECT 55 a name with spaces ü\n");
        Manifest back = Manifest.parse(text);
        assertThat(back.generation()).isEqualTo(7);
        assertThat(back.ranks()).isEqualTo(3);
        assertThat(back.time()).isEqualTo(m.time());
        assertThat(back.sizes()).isEqualTo(m.sizes());
        assertThat(back.checksums()).isEqualTo(m.checksums());
        assertThat(back.items()).isEqualTo(m.items());
    }

    @Test
    void damagedManifestsAreRefusedWithAReason() {
        byte[] text = sample().encode();
        for (int i = 0; i < text.length - 1; i += 7) {
            byte[] bad = text.clone();
            bad[i] ^= 0x01;
            assertThatThrownBy(() -> Manifest.parse(bad)).as("byte " + i).isInstanceOf(BadCheckpointException.class);
        }
        for (int cut : new int[] {0, 1, 10, text.length / 2, text.length - 1}) {
            byte[] shorter = java.util.Arrays.copyOf(text, cut);
            assertThatThrownBy(() -> Manifest.parse(shorter)).as("cut at " + cut)
                    .isInstanceOf(BadCheckpointException.class);
        }
        // a well-formed manifest (its checksum right) that leaves out a rank's part
        String body = "jmpi-checkpoint 1\ngeneration 1\nranks 2\ntime 2026-11-22T10:00:00Z\npart 0 5 00000000\n";
        assertThatThrownBy(() -> Manifest.parse(withEnd(body))).hasMessageContaining("no part for rank 1");
        assertThatThrownBy(() -> Manifest.parse(withEnd(body + "part 0 5 00000000\n")))
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> Manifest.parse(withEnd(body + "part 2 5 00000000\n")))
                .hasMessageContaining("rank out of range");
        assertThatThrownBy(() -> Manifest.parse(withEnd(body + "part 1 5 00000000\nitem 1 WIDGETS 1 x\n")))
                .hasMessageContaining("unknown item type");
        assertThatThrownBy(() -> Manifest.parse(withEnd("jmpi-checkpoint 2\n" + body.substring(18))))
                .hasMessageContaining("layout version 1");
    }

    private static byte[] withEnd(String body) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        crc.update(b);
        return (body + "end " + java.util.HexFormat.of().toHexDigits((int) crc.getValue()) + "\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void generationDirectoryNames() {
        assertThat(CheckpointLayout.generationOf("generation-0")).isZero();
        assertThat(CheckpointLayout.generationOf("generation-123")).isEqualTo(123);
        for (String other : new String[] {"generation-", "generation-01", "generation-1a", "generation--1", "gen-1",
            "generation-1234567890123456789", "manifest"}) {
            assertThat(CheckpointLayout.generationOf(other)).as(other).isEqualTo(-1);
        }
    }

    @Test
    void itemNames() {
        assertThat(CheckpointLayout.badName("rows")).isNull();
        assertThat(CheckpointLayout.badName("with space ünïcödé")).isNull();
        assertThat(CheckpointLayout.badName("")).isNotNull();
        assertThat(CheckpointLayout.badName(null)).isNotNull();
        assertThat(CheckpointLayout.badName("tab\there")).contains("control character");
        assertThat(CheckpointLayout.badName("x".repeat(1025))).contains("longer than 1024");
    }

    @Test
    void settingsFromPropertiesOrEnvironment() throws MPIException {
        CheckpointOptions none = CheckpointOptions.from(k -> null, k -> null);
        assertThat(none.enabled()).isFalse();
        assertThat(none.keep()).isEqualTo(CheckpointOptions.DEFAULT_KEEP);
        Map<String, String> env = Map.of("JMPI_CKPT_PREFIX", "/tmp/x/../ck", "JMPI_CKPT_INTERVAL", "1.5",
                "JMPI_CKPT_NUM", "4", "JMPI_CKPT_KEEP", "3", "JMPI_CKPT_WRITE_DELAY_MILLIS", "20");
        CheckpointOptions o = CheckpointOptions.from(k -> null, env::get);
        assertThat(o.prefix().toString()).isEqualTo("/tmp/ck");
        assertThat(o.interval()).isEqualTo(Duration.ofMillis(1500));
        assertThat(o.restartGeneration()).isEqualTo(4);
        assertThat(o.keep()).isEqualTo(3);
        assertThat(o.writeDelayMillis()).isEqualTo(20);
        // a property wins over the variable
        CheckpointOptions p = CheckpointOptions.from(Map.of("jmpi.ckpt.keep", "9")::get, env::get);
        assertThat(p.keep()).isEqualTo(9);
        for (Map.Entry<String, String> bad : List.of(Map.entry("JMPI_CKPT_INTERVAL", "soon"),
                Map.entry("JMPI_CKPT_NUM", "-2"), Map.entry("JMPI_CKPT_KEEP", "0"),
                Map.entry("JMPI_CKPT_INTERVAL", "-1"))) {
            assertThatThrownBy(() -> CheckpointOptions.from(k -> null, Map.of(bad.getKey(), bad.getValue())::get))
                    .isInstanceOfSatisfying(MPIException.class, e -> {
                        assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_ARG);
                        assertThat(e.getMessage()).contains(bad.getKey() + "=" + bad.getValue());
                    });
        }
    }

    @Test
    void rankErrorsAreFoldedIntoOneMessage() {
        assertThat(Coordination.combine(new String[] {"", "", ""})).isEmpty();
        assertThat(Coordination.combine(new String[] {"", "6\tbad", "", "6\tbad", "13\tworse"}))
                .isEqualTo("6\tranks 1, 3: bad; rank 4: worse");
        assertThat(Coordination.combine(new String[] {"13\tonly"})).isEqualTo("13\tonly");
    }
}
