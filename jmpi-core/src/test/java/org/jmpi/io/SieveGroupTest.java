package org.jmpi.io;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which runs one sieving window takes: bounded by the window's size and by the widest gap it may span. */
class SieveGroupTest {
    private static FileRuns runs(long... offsetAndLength) {
        FileRuns r = new FileRuns();
        long stream = 0;
        for (int i = 0; i < offsetAndLength.length; i += 2) {
            r.add(offsetAndLength[i], stream, offsetAndLength[i + 1]);
            stream += offsetAndLength[i + 1];
        }
        return r;
    }

    @Test
    void smallGapsShareAWindow() {
        FileRuns r = runs(0, 100, 200, 100, 400, 100, 600, 100);
        assertThat(Sieve.group(r, 0, 1 << 20, true)).isEqualTo(4);
    }

    @Test
    void aGapWiderThanTheLimitEndsTheWindow() {
        long far = 300 + Sieve.MAX_GAP + 1;
        FileRuns r = runs(0, 100, 200, 100, far, 100, far + 200, 100);
        assertThat(Sieve.group(r, 0, 1 << 20, true)).isEqualTo(2);
        assertThat(Sieve.group(r, 2, 1 << 20, true)).isEqualTo(4);
    }

    @Test
    void aGapOfExactlyTheLimitIsSpanned() {
        FileRuns r = runs(0, 100, 100 + Sieve.MAX_GAP, 100);
        assertThat(Sieve.group(r, 0, 1 << 20, true)).isEqualTo(2);
    }

    @Test
    void theWindowSizeBoundsTheSpan() {
        FileRuns r = runs(0, 100, 200, 100, 400, 100);
        assertThat(Sieve.group(r, 0, 300, true)).isEqualTo(2);
        assertThat(Sieve.group(r, 0, 1 << 20, false)).isEqualTo(1);
    }
}
