package org.jmpi.dl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReducerOptionsTest {

    @Test
    void defaults() {
        ReducerOptions o = ReducerOptions.defaults();
        assertThat(o.fusionBytes()).isEqualTo(64L << 20);
        assertThat(o.cycleTime()).isEqualTo(Duration.ofNanos(25_000));
        assertThat(o.compression()).isEqualTo(Compression.NONE);
        assertThat(o.algorithm()).isEqualTo(Algorithm.AUTO);
        assertThat(o.stallWarning()).isEqualTo(Duration.ofSeconds(60));
        assertThat(o.stallShutdown()).isZero();
        assertThat(o.timeline()).isNull();
    }

    @Test
    void theEnvironmentOverridesEveryOption() {
        ReducerOptions o = ReducerOptions.builder().environment(Map.of("JMPI_DL_FUSION_THRESHOLD", "16m",
                "JMPI_DL_CYCLE_TIME", "2.5", "JMPI_DL_COMPRESSION", "bf16", "JMPI_DL_ERROR_FEEDBACK", "off",
                "JMPI_DL_ALGORITHM", "Ordered", "JMPI_DL_RANKS_PER_HOST", "2", "JMPI_DL_STALL_WARNING", "5",
                "JMPI_DL_STALL_SHUTDOWN", "0.5", "JMPI_DL_TIMELINE", "/tmp/t.json")).build();
        assertThat(o.fusionBytes()).isEqualTo(16L << 20);
        assertThat(o.cycleTime()).isEqualTo(Duration.ofMillis(2).plusNanos(500_000));
        assertThat(o.compression()).isEqualTo(Compression.BF16);
        assertThat(o.errorFeedback()).isFalse();
        assertThat(o.algorithm()).isEqualTo(Algorithm.ORDERED);
        assertThat(o.ranksPerHost()).isEqualTo(2);
        assertThat(o.stallWarning()).isEqualTo(Duration.ofSeconds(5));
        assertThat(o.stallShutdown()).isEqualTo(Duration.ofMillis(500));
        assertThat(o.timeline()).isEqualTo(Path.of("/tmp/t.json"));
    }

    @Test
    void badValuesNameTheirVariable() {
        assertThatThrownBy(() -> ReducerOptions.builder().environment(Map.of("JMPI_DL_FUSION_THRESHOLD", "lots")))
                .hasMessageContaining("JMPI_DL_FUSION_THRESHOLD=lots").hasMessageContaining("not a number");
        assertThatThrownBy(() -> ReducerOptions.builder().environment(Map.of("JMPI_DL_FUSION_THRESHOLD", "2g")))
                .hasMessageContaining("JMPI_DL_FUSION_THRESHOLD=2g");
        assertThatThrownBy(() -> ReducerOptions.builder().environment(Map.of("JMPI_DL_CYCLE_TIME", "0")))
                .hasMessageContaining("JMPI_DL_CYCLE_TIME=0").hasMessageContaining("cycleTime");
        assertThatThrownBy(() -> ReducerOptions.builder().environment(Map.of("JMPI_DL_CYCLE_TIME", "NaN")))
                .hasMessageContaining("JMPI_DL_CYCLE_TIME=NaN");
        assertThatThrownBy(() -> ReducerOptions.builder().environment(Map.of("JMPI_DL_COMPRESSION", "fp8")))
                .hasMessageContaining("JMPI_DL_COMPRESSION=fp8");
        assertThatThrownBy(() -> ReducerOptions.builder().environment(Map.of("JMPI_DL_ERROR_FEEDBACK", "maybe")))
                .hasMessageContaining("JMPI_DL_ERROR_FEEDBACK=maybe");
        assertThatThrownBy(() -> ReducerOptions.builder().environment(Map.of("JMPI_DL_RANKS_PER_HOST", "-1")))
                .hasMessageContaining("JMPI_DL_RANKS_PER_HOST=-1");
        assertThatThrownBy(() -> ReducerOptions.builder().environment(Map.of("JMPI_DL_STALL_WARNING", "-3")))
                .hasMessageContaining("JMPI_DL_STALL_WARNING=-3");
        assertThatThrownBy(() -> ReducerOptions.builder().fusionBytes(-1)).isInstanceOf(
                IllegalArgumentException.class);
    }
}
