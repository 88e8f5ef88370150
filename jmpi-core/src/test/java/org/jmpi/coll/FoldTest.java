package org.jmpi.coll;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link Fold#highestOneBit}, which the collectives use instead of {@link Integer#highestOneBit}, against the JDK's,
 * and the fold it gives for communicator sizes that are and are not powers of two.
 */
class FoldTest {
    @Test
    void everySizeUpToAFewThousandAndTheEdges() {
        for (int p = 0; p <= 5000; p++) {
            assertThat(Fold.highestOneBit(p)).as("p = %d", p).isEqualTo(Integer.highestOneBit(p));
        }
        for (int p : new int[] {Integer.MAX_VALUE, Integer.MAX_VALUE - 1, 1 << 30, (1 << 30) + 1, (1 << 30) - 1}) {
            assertThat(Fold.highestOneBit(p)).as("p = %d", p).isEqualTo(Integer.highestOneBit(p));
        }
    }

    @Property(tries = 2000)
    void agreesWithTheJdk(@ForAll @IntRange(min = 0) int p) {
        assertThat(Fold.highestOneBit(p)).isEqualTo(Integer.highestOneBit(p));
    }

    @Test
    void foldsSixRanksOntoFour() {
        Fold f = new Fold(6);
        assertThat(f.pof2).isEqualTo(4);
        assertThat(f.rem).isEqualTo(2);
        // ranks 0 and 2 hand their data to 1 and 3 and sit out; 1, 3, 4, 5 are new ranks 0-3
        assertThat(new int[] {f.newRank(0), f.newRank(1), f.newRank(2), f.newRank(3), f.newRank(4), f.newRank(5)})
                .containsExactly(-1, 0, -1, 1, 2, 3);
        assertThat(new int[] {f.oldRank(0), f.oldRank(1), f.oldRank(2), f.oldRank(3)}).containsExactly(1, 3, 4, 5);
    }
}
