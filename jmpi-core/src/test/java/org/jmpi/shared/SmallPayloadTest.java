package org.jmpi.shared;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link SmallPayload}: which memory has one, and that its word-at-a-time copies move exactly the payload's bytes, in
 * order, between every pair of kinds and through a ring's words, touching nothing before or after it.
 */
class SmallPayloadTest {
    /** A payload (a slice 8 bytes into {@code whole}, which is 16 bytes longer: guard bytes around it). */
    private record Payload(MemorySegment whole, MemorySegment slice) {
        static Payload of(MemorySegment whole, int n) {
            return new Payload(whole, whole.asSlice(8, n));
        }
    }

    /** A payload of {@code n} bytes of each kind. */
    private static List<Payload> payloads(Arena arena, int n) {
        List<Payload> all = new ArrayList<>();
        all.add(Payload.of(MemorySegment.ofArray(new byte[n + 16]), n));
        all.add(Payload.of(MemorySegment.ofArray(new double[n / 8 + 2]), n));
        all.add(Payload.of(MemorySegment.ofArray(new long[n / 8 + 2]), n));
        all.add(Payload.of(MemorySegment.ofArray(new int[n / 4 + 4]), n));
        all.add(Payload.of(arena.allocate(n + 16, 8), n));
        all.add(Payload.of(MemorySegment.ofArray(new float[n / 4 + 4]), n));
        return all;
    }

    private static void fill(Payload p, int seed) {
        p.whole().fill((byte) 0x5a);
        for (long i = 0; i < p.slice().byteSize(); i++) {
            p.slice().set(ValueLayout.JAVA_BYTE, i, (byte) (seed + 37 * i));
        }
    }

    private static void assertCopied(Payload from, Payload to, int n, String what) {
        assertThat(to.slice().toArray(ValueLayout.JAVA_BYTE)).as(what)
                .isEqualTo(from.slice().toArray(ValueLayout.JAVA_BYTE));
        for (long i = 0; i < to.whole().byteSize(); i++) {
            if (i < 8 || i >= 8 + n) {
                assertThat(to.whole().get(ValueLayout.JAVA_BYTE, i)).as("%s: byte %d outside", what, i)
                        .isEqualTo((byte) 0x5a);
            }
        }
    }

    @Test
    void everyPairOfKindsCopiesExactlyThePayload() {
        try (Arena arena = Arena.ofConfined()) {
            for (int n = 0; n <= SmallPayload.MAX_BYTES; n += 4) {
                List<Payload> from = payloads(arena, n);
                List<Payload> to = payloads(arena, n);
                for (int a = 0; a < from.size(); a++) {
                    for (int b = 0; b < to.size(); b++) {
                        SmallPayload f = SmallPayload.of(from.get(a).slice());
                        SmallPayload t = SmallPayload.of(to.get(b).slice());
                        String what = "n " + n + " from " + a + " to " + b;
                        boolean wholeLongs = n % 8 == 0;
                        // double[], long[] and native memory: whole words only; int[] and float[] whole elements
                        // (n is a multiple of 4 here), byte[] any length
                        assertThat(f != null).as(what).isEqualTo(wholeLongs || a == 0 || a == 3 || a == 5);
                        assertThat(t != null).as(what).isEqualTo(wholeLongs || b == 0 || b == 3 || b == 5);
                        if (f == null || t == null) {
                            continue;
                        }
                        assertThat(f.fits(n) && t.fits(n)).as(what).isTrue();
                        fill(from.get(a), a * 5 + b);
                        fill(to.get(b), 0);
                        SmallPayload.copy(f, t, n);
                        assertCopied(from.get(a), to.get(b), n, what + " (copy)");
                        fill(to.get(b), 0);
                        LongBuffer words = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder()).asLongBuffer();
                        f.toWords(n, words, 1);
                        t.fromWords(words, 1, n);
                        assertCopied(from.get(a), to.get(b), n, what + " (words)");
                        if (n % 8 != 0) {
                            assertThat(words.get(1 + n / 8) >>> (8 * (n % 8))).as(what + ": the last word's rest")
                                    .isZero();
                        }
                    }
                }
            }
        }
    }

    @Test
    void bytesTakeAnyLength() {
        for (int n = 0; n <= SmallPayload.MAX_BYTES; n++) {
            Payload from = Payload.of(MemorySegment.ofArray(new byte[n + 16]), n);
            Payload to = Payload.of(MemorySegment.ofArray(new byte[n + 16]), n);
            fill(from, n);
            fill(to, 0);
            SmallPayload.copy(SmallPayload.of(from.slice()), SmallPayload.of(to.slice()), n);
            assertCopied(from, to, n, "n " + n);
        }
    }

    @Test
    void otherMemoryHasNone() {
        assertThat(SmallPayload.of(MemorySegment.ofArray(new byte[SmallPayload.MAX_BYTES + 1]))).as("too long")
                .isNull();
        assertThat(SmallPayload.of(MemorySegment.ofArray(new short[2]))).as("short[]").isNull();
        assertThat(SmallPayload.of(MemorySegment.ofArray(new float[3]).asSlice(0, 6))).as("part of a float")
                .isNull();
        assertThat(SmallPayload.of(MemorySegment.ofArray(new double[3]).asSlice(4, 8))).as("inside a double")
                .isNull();
        assertThat(SmallPayload.of(MemorySegment.ofArray(new int[3]).asSlice(0, 6))).as("part of an int").isNull();
        assertThat(SmallPayload.of(MemorySegment.ofArray(new byte[8]).asReadOnly())).as("read-only").isNull();
        try (Arena arena = Arena.ofConfined()) {
            assertThat(SmallPayload.of(arena.allocate(12))).as("native, not whole words").isNull();
            assertThat(SmallPayload.of(arena.allocate(16))).as("native, whole words").isNotNull();
        }
        assertThat(SmallPayload.of(MemorySegment.ofArray(new double[2])).fits(4)).as("half a double").isFalse();
        assertThat(SmallPayload.of(MemorySegment.ofArray(new int[2])).fits(4)).isTrue();
        assertThat(SmallPayload.of(MemorySegment.ofArray(new float[2])).fits(4)).isTrue();
        assertThat(SmallPayload.of(MemorySegment.ofArray(new float[2])).fits(6)).isFalse();
    }
}
