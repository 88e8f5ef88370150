package org.jmpi.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link FastCopy} copies exactly what {@link MemorySegment#copy} copies, with the same checks, on every route. */
class FastCopyTest {
    private static final long NATIVE_MIN = FastCopy.DEFAULT_NATIVE_MIN;
    private static final int BIG = (int) NATIVE_MIN * 3 + 13;

    @BeforeAll
    static void link() {
        FastCopy.setNativeMin(NATIVE_MIN);
        assertThat(FastCopy.link()).as("memmove links (the tests run with native access)").isTrue();
        assertThat(FastCopy.nativeMin()).isEqualTo(NATIVE_MIN);
    }

    @AfterAll
    static void defaults() {
        FastCopy.setNativeMin(FastCopy.DEFAULT_NATIVE_MIN);
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void heapToNativeToHeapAtOddOffsets() {
        byte[] src = random(BIG + 100, 1);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mid = arena.allocate(BIG + 200, 64);
            FastCopy.copy(MemorySegment.ofArray(src), 7, mid, 56, BIG);
            byte[] dst = new byte[BIG + 100];
            FastCopy.copy(mid, 56, MemorySegment.ofArray(dst), 3, BIG);
            for (int i = 0; i < BIG; i++) {
                assertThat(dst[3 + i]).isEqualTo(src[7 + i]);
            }
            // nothing outside the range is written
            assertThat(dst[0]).isZero();
            assertThat(dst[1]).isZero();
            assertThat(dst[2]).isZero();
            assertThat(dst[3 + BIG]).isZero();
        }
    }

    @Test
    void arraysOfOtherPrimitivesAreRawMemory() {
        double[] src = new double[BIG / 8 + 10];
        for (int i = 0; i < src.length; i++) {
            src[i] = i * 1.5 - 7;
        }
        long[] dst = new long[src.length];
        FastCopy.copy(MemorySegment.ofArray(src), 8, MemorySegment.ofArray(dst), 8, (src.length - 2) * 8L);
        assertThat(dst[0]).isZero();
        assertThat(dst[src.length - 1]).isZero();
        for (int i = 1; i < src.length - 1; i++) {
            assertThat(Double.longBitsToDouble(dst[i])).isEqualTo(src[i]);
        }
    }

    /** Fresh segments of every kind FastCopy tells apart for small copies, each 96 bytes of the same pattern. */
    private static java.util.List<MemorySegment> everyKind(Arena arena, long seed) {
        byte[] pattern = random(96, seed);
        java.util.List<MemorySegment> all = new java.util.ArrayList<>(java.util.List.of(
                arena.allocate(96, 8),
                MemorySegment.ofArray(new byte[96]),
                MemorySegment.ofArray(new char[48]),
                MemorySegment.ofArray(new short[48]),
                MemorySegment.ofArray(new int[24]),
                MemorySegment.ofArray(new long[12]),
                MemorySegment.ofArray(new float[24]),
                MemorySegment.ofArray(new double[12]),
                MemorySegment.ofBuffer(java.nio.ByteBuffer.allocateDirect(96)),
                MemorySegment.ofArray(new byte[200]).asSlice(50, 96)));
        for (MemorySegment m : all) {
            MemorySegment.copy(MemorySegment.ofArray(pattern), 0, m, 0, 96);
        }
        return all;
    }

    @Test
    void smallCopiesBetweenEveryKindOfSegmentMatchTheJdk() {
        // small copies pick a route by the classes of both segments: every pair, several lengths and offsets
        try (Arena arena = Arena.ofConfined()) {
            int kinds = everyKind(arena, 0).size();
            for (int i = 0; i < kinds; i++) {
                for (int j = 0; j < kinds; j++) {
                    int[][] cases = {{0, 0, 96}, {1, 7, 8}, {5, 64, 32}, {3, 2, 17}, {0, 95, 1}, {9, 9, 0}};
                    for (int[] c : cases) {
                        MemorySegment src = everyKind(arena, 10 + i).get(i);
                        MemorySegment ours = everyKind(arena, 20 + j).get(j);
                        MemorySegment jdks = everyKind(arena, 20 + j).get(j);
                        FastCopy.copy(src, c[0], ours, c[1], c[2]);
                        MemorySegment.copy(src, c[0], jdks, c[1], c[2]);
                        assertThat(ours.toArray(ValueLayout.JAVA_BYTE))
                                .as("kind %d to kind %d, %d bytes from %d to %d", i, j, c[2], c[0], c[1])
                                .isEqualTo(jdks.toArray(ValueLayout.JAVA_BYTE));
                    }
                    MemorySegment src = everyKind(arena, 30).get(i);
                    MemorySegment dst = everyKind(arena, 31).get(j);
                    byte[] before = dst.toArray(ValueLayout.JAVA_BYTE);
                    assertThatThrownBy(() -> FastCopy.copy(src, 90, dst, 0, 8))
                            .isInstanceOf(IndexOutOfBoundsException.class);
                    assertThatThrownBy(() -> FastCopy.copy(src, 0, dst, 89, 8))
                            .isInstanceOf(IndexOutOfBoundsException.class);
                    assertThatThrownBy(() -> FastCopy.copy(src, 0, dst.asReadOnly(), 0, 8))
                            .isInstanceOf(IllegalArgumentException.class);
                    assertThat(dst.toArray(ValueLayout.JAVA_BYTE)).as("nothing written").isEqualTo(before);
                }
            }
        }
    }

    @Test
    void copiesAtShortDistancesModulo4KiBAreExact() {
        // destinations 1-63 bytes after the source modulo 4 KiB take the JDK's copy instead of memmove (slow there):
        // same bytes, between arrays, native memory and both, overlapping or not
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nat = arena.allocate(4 * BIG, 4096);
            byte[] heap = new byte[4 * BIG];
            for (int d : new int[] {1, 8, 16, 31, 48, 63, 64, 4096 + 16, 4095}) {
                for (MemorySegment area : new MemorySegment[] {nat, MemorySegment.ofArray(heap)}) {
                    byte[] data = random(BIG, d);
                    MemorySegment.copy(MemorySegment.ofArray(data), 0, area, 0, BIG);
                    FastCopy.copy(area, 0, area, d, BIG); // overlapping, destination d bytes after the source
                    assertThat(area.asSlice(d, BIG).toArray(ValueLayout.JAVA_BYTE)).as("shift by %d", d)
                            .isEqualTo(data);
                    MemorySegment.copy(MemorySegment.ofArray(data), 0, area, 0, BIG);
                    MemorySegment other = area == nat ? MemorySegment.ofArray(heap) : nat;
                    FastCopy.copy(area, 0, other, 2L * BIG + d, BIG);
                    assertThat(other.asSlice(2L * BIG + d, BIG).toArray(ValueLayout.JAVA_BYTE)).isEqualTo(data);
                }
            }
        }
    }

    @Test
    void readOnlySourcesAreCopiedOnEveryRoute() {
        // a read-only send buffer (a read-only ByteBuffer, say): large pieces go to memmove, whose address probe
        // passes the source too
        try (Arena arena = Arena.ofConfined()) {
            byte[] data = random(BIG, 9);
            MemorySegment nat = arena.allocate(BIG);
            MemorySegment.copy(MemorySegment.ofArray(data), 0, nat, 0, BIG);
            for (MemorySegment src : new MemorySegment[] {MemorySegment.ofArray(data).asReadOnly(), nat.asReadOnly()}) {
                for (int d : new int[] {0, 16, 100}) {
                    byte[] out = new byte[BIG + 128];
                    FastCopy.copy(src, 0, MemorySegment.ofArray(out), d, BIG);
                    assertThat(java.util.Arrays.copyOfRange(out, d, d + BIG)).isEqualTo(data);
                }
            }
        }
    }

    @Test
    void overlappingRangesBehaveAsMemmove() {
        byte[] a = random(BIG + 64, 2);
        byte[] b = a.clone();
        MemorySegment.copy(MemorySegment.ofArray(b), 0, MemorySegment.ofArray(b), 33, BIG);
        FastCopy.copy(MemorySegment.ofArray(a), 0, MemorySegment.ofArray(a), 33, BIG);
        assertThat(a).isEqualTo(b);
    }

    @Test
    void outOfBoundsAndReadOnlyAreRefusedAsTheJdkRefusesThem() {
        MemorySegment src = MemorySegment.ofArray(new byte[BIG]);
        MemorySegment small = MemorySegment.ofArray(new byte[BIG - 1]);
        assertThatThrownBy(() -> FastCopy.copy(src, 0, small, 0, BIG)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> FastCopy.copy(src, 1, MemorySegment.ofArray(new byte[BIG]), 0, BIG))
                .isInstanceOf(IndexOutOfBoundsException.class);
        MemorySegment readOnly = MemorySegment.ofArray(new byte[BIG]).asReadOnly();
        assertThatThrownBy(() -> FastCopy.copy(src, 0, readOnly, 0, BIG)).isInstanceOf(RuntimeException.class);
        assertThat(readOnly.get(ValueLayout.JAVA_BYTE, 0)).isZero();
    }

    @Test
    void aClosedSegmentIsRefused() {
        Arena arena = Arena.ofShared();
        MemorySegment gone = arena.allocate(BIG);
        arena.close();
        assertThatThrownBy(() -> FastCopy.copy(gone, 0, MemorySegment.ofArray(new byte[BIG]), 0, BIG))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void mappedFilesAreCopiedToo(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        byte[] src = random(BIG, 4);
        java.nio.file.Path file = dir.resolve("mapped");
        try (Arena arena = Arena.ofConfined();
                java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.READ,
                        java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(BIG);
            MemorySegment m = ch.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0, BIG, arena);
            FastCopy.copy(MemorySegment.ofArray(src), 0, m, 0, BIG);
            byte[] back = new byte[BIG];
            FastCopy.copy(m, 0, MemorySegment.ofArray(back), 0, BIG);
            assertThat(back).isEqualTo(src);
        }
    }

    @Test
    void zeroTurnsTheNativeCopyOffAndSmallValuesAreRaised() {
        try {
            FastCopy.setNativeMin(0);
            assertThat(FastCopy.nativeMin()).isEqualTo(Long.MAX_VALUE);
            byte[] src = random(BIG, 5);
            byte[] dst = new byte[BIG];
            FastCopy.copy(MemorySegment.ofArray(src), 0, MemorySegment.ofArray(dst), 0, BIG);
            assertThat(dst).isEqualTo(src);
            FastCopy.setNativeMin(1);
            assertThat(FastCopy.nativeMin()).isEqualTo(64);
        } finally {
            FastCopy.setNativeMin(NATIVE_MIN);
        }
    }

    @Test
    void smallCopiesTakeTheJdkPath() {
        byte[] src = random(100, 3);
        byte[] dst = new byte[100];
        FastCopy.copy(MemorySegment.ofArray(src), 0, MemorySegment.ofArray(dst), 0, 100);
        assertThat(dst).isEqualTo(src);
    }
}
