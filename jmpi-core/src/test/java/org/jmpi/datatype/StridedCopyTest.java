package org.jmpi.datatype;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** One kernel copy per pair of segment classes, and the loops over every run length and segment kind. */
class StridedCopyTest {
    @Test
    void eachPairOfSegmentClassesGetsItsOwnKernel() {
        MemorySegment doubles = MemorySegment.ofArray(new double[4]);
        MemorySegment bytes = MemorySegment.ofArray(new byte[4]);
        CopyKernel pack = StridedCopy.kernel(doubles, bytes);
        assertThat(pack.getClass().isHidden()).isTrue();
        assertThat(StridedCopy.kernel(MemorySegment.ofArray(new double[9]), MemorySegment.ofArray(new byte[1])))
                .isSameAs(pack);
        assertThat(StridedCopy.kernel(bytes, doubles)).isNotSameAs(pack);
        assertThat(StridedCopy.kernel(bytes, doubles).getClass()).isNotEqualTo(pack.getClass());
    }

    @Test
    void stridedCopiesEveryRunLengthBetweenHeapAndNativeMemory() {
        try (Arena arena = Arena.ofConfined()) {
            for (int run : new int[] {1, 2, 3, 4, 5, 7, 8, 12, 16, 24, 63, 64, 65, 100}) {
                int count = 9;
                long stride = run + 5;
                MemorySegment heap = MemorySegment.ofArray(new byte[(int) (stride * count)]);
                for (int i = 0; i < heap.byteSize(); i++) {
                    heap.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 13 + run));
                }
                MemorySegment packed = arena.allocate((long) run * count);
                StridedCopy.kernel(heap, packed).strided(heap, 0, stride, packed, 0, run, run, count);
                MemorySegment back = MemorySegment.ofArray(new byte[(int) heap.byteSize()]);
                StridedCopy.kernel(packed, back).strided(packed, 0, run, back, 0, stride, run, count);
                for (int k = 0; k < count; k++) {
                    for (int b = 0; b < run; b++) {
                        long at = k * stride + b;
                        assertThat(packed.get(ValueLayout.JAVA_BYTE, (long) k * run + b))
                                .isEqualTo(heap.get(ValueLayout.JAVA_BYTE, at));
                        assertThat(back.get(ValueLayout.JAVA_BYTE, at)).isEqualTo(heap.get(ValueLayout.JAVA_BYTE, at));
                    }
                    for (long gap = k * stride + run; gap < (k + 1) * stride; gap++) {
                        assertThat(back.get(ValueLayout.JAVA_BYTE, gap)).as("gap untouched").isZero();
                    }
                }
            }
        }
    }
}
