package org.jmpi.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** The collectives' native temporaries: the size asked for, 64-byte aligned, zeroed, native, writable. */
class NativeMemoryTest {
    @Test
    void segmentsHaveTheSizeAskedForAndAreAlignedAndZeroed() {
        for (long n : new long[] {0, 1, 7, 63, 64, 65, 4096, 65536, 100_003}) {
            for (int round = 0; round < 3; round++) { // several, so that malloc's addresses vary
                MemorySegment s = NativeMemory.allocate(n);
                assertThat(s.byteSize()).as("size of %d", n).isEqualTo(n);
                assertThat(s.isNative()).isTrue();
                assertThat(s.address() % 64).as("alignment of %d", n).isZero();
                for (long i = 0; i < n; i++) {
                    assertThat(s.get(ValueLayout.JAVA_BYTE, i)).as("byte %d of %d", i, n).isZero();
                }
                if (n > 0) {
                    s.set(ValueLayout.JAVA_BYTE, n - 1, (byte) 7);
                    assertThat(s.get(ValueLayout.JAVA_BYTE, n - 1)).isEqualTo((byte) 7);
                }
            }
        }
    }

    @Test
    void aNegativeSizeIsRefused() {
        assertThatThrownBy(() -> NativeMemory.allocate(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
