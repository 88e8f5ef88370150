package org.jmpi.dl;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.FloatRange;
import org.junit.jupiter.api.Test;

/** The 16-bit encodings: rounding error bounds, round trips, special values. */
class CompressionTest {

    @Property
    void fp16RoundsToNearestWithinHalfAnUlp(@ForAll @FloatRange(min = -60000f, max = 60000f) float f) {
        float back = Compression.FP16.decode(Compression.FP16.encode(f));
        if (Math.abs(f) >= 0x1p-14f) { // normal range: relative error at most 2^-11
            assertThat((double) Math.abs(back - f)).isLessThanOrEqualTo(Math.abs(f) * 0x1p-11);
        } else { // subnormal: absolute error at most half the smallest subnormal step
            assertThat((double) Math.abs(back - f)).isLessThanOrEqualTo(0x1p-25);
        }
    }

    @Property
    void bf16RoundsToNearestWithinHalfAnUlp(@ForAll float f) {
        if (Float.isNaN(f) || Float.isInfinite(f) || Math.abs(f) > 3.38e38f || Math.abs(f) < Float.MIN_NORMAL) {
            return;
        }
        float back = Compression.BF16.decode(Compression.BF16.encode(f));
        assertThat((double) Math.abs(back - f)).isLessThanOrEqualTo(Math.abs(f) * 0x1p-8);
    }

    @Property
    void representableValuesSurviveExactly(@ForAll short bits) {
        for (Compression c : new Compression[] {Compression.FP16, Compression.BF16}) {
            float f = c.decode(bits);
            if (!Float.isNaN(f)) {
                assertThat(c.decode(c.encode(f))).isEqualTo(f);
            }
        }
    }

    @Test
    void specialValuesPassThrough() {
        for (Compression c : new Compression[] {Compression.FP16, Compression.BF16}) {
            assertThat(c.decode(c.encode(Float.NaN))).isNaN();
            assertThat(c.decode(c.encode(Float.POSITIVE_INFINITY))).isEqualTo(Float.POSITIVE_INFINITY);
            assertThat(c.decode(c.encode(Float.NEGATIVE_INFINITY))).isEqualTo(Float.NEGATIVE_INFINITY);
            assertThat(Float.floatToRawIntBits(c.decode(c.encode(-0f)))).isEqualTo(Float.floatToRawIntBits(-0f));
        }
        assertThat(Compression.FP16.decode(Compression.FP16.encode(1e6f))).as("beyond fp16's range")
                .isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(Compression.BF16.decode(Compression.BF16.encode(1e38f))).isCloseTo(1e38f,
                org.assertj.core.data.Percentage.withPercentage(0.5));
        // ties go to even: 1 + 2^-8 lies halfway between two bf16 values, 1 and 1 + 2^-7
        assertThat(Compression.BF16.decode(Compression.BF16.encode(1 + 0x1p-8f))).isEqualTo(1f);
        assertThat(Compression.BF16.decode(Compression.BF16.encode(1 + 3 * 0x1p-8f))).isEqualTo(1 + 0x1p-6f);
    }
}
