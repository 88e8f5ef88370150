package org.jmpi.transport.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.FrameSink;
import org.junit.jupiter.api.Test;

/**
 * A poll of a ring stops after a frame that completed a receive ({@link FrameSink#takeCompletion()}), so that the
 * waiting caller sees it before the ring's next line is read, and hands over the frames after it on the next poll, in
 * order and each once.
 */
class InboundRingCompletionTest {
    private static final long DATA = 16 << 10;

    /** Records the tags of the frames it gets; says "completed" after the frames whose tag is in {@code completing}. */
    static final class Sink implements FrameSink {
        final List<Integer> tags = new ArrayList<>();
        final List<Integer> completing;
        boolean completed;

        Sink(List<Integer> completing) {
            this.completing = completing;
        }

        @Override
        public void onFrame(int peer, MemorySegment header, MemorySegment payload) {
            int tag = FrameLayout.getInt(header, FrameLayout.TAG);
            tags.add(tag);
            assertThat(payload.byteSize()).isEqualTo(8);
            assertThat(payload.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 0)).isEqualTo(tag * 1000L);
            completed |= completing.contains(tag);
        }

        @Override
        public boolean takeCompletion() {
            boolean c = completed;
            completed = false;
            return c;
        }

        @Override
        public void onPeerFailure(int peer, Throwable cause) {
            throw new AssertionError("peer failure: " + cause);
        }
    }

    private static void write(OutboundRing out, int tag) {
        MemorySegment h = MemorySegment.ofArray(new byte[FrameLayout.HEADER_BYTES]);
        FrameLayout.putInt(h, FrameLayout.PAYLOAD, 8);
        FrameLayout.putInt(h, FrameLayout.TAG, tag);
        MemorySegment p = MemorySegment.ofArray(new long[] {tag * 1000L});
        out.lock.lock();
        try {
            assertThat(out.sendLocked(h, p, null)).isTrue();
        } finally {
            out.lock.unlock();
        }
    }

    /** A ring holding frames with tags 1 to 5, 8 payload bytes each, and its consumer's end. */
    private static InboundRing ringWithFiveFrames(Arena arena) {
        MemorySegment ring = arena.allocate(ShmLayout.ringBytes(DATA), 64);
        MemorySegment bell = arena.allocate(64, 64);
        OutboundRing out = new OutboundRing(1, ring, DATA, bell);
        for (int tag = 1; tag <= 5; tag++) {
            write(out, tag);
        }
        return new InboundRing(0, ring, DATA, (peer, address, into, bytes) -> false);
    }

    @Test
    void aPollStopsAfterAFrameThatCompletedAReceive() {
        try (Arena arena = Arena.ofConfined()) {
            InboundRing in = ringWithFiveFrames(arena);
            Sink sink = new Sink(List.of(2, 4));
            assertThat(in.poll(sink, 64)).isEqualTo(2);
            assertThat(sink.tags).containsExactly(1, 2);
            assertThat(in.poll(sink, 64)).isEqualTo(2);
            assertThat(sink.tags).containsExactly(1, 2, 3, 4);
            assertThat(in.poll(sink, 64)).isEqualTo(1);
            assertThat(in.poll(sink, 64)).isZero();
            assertThat(sink.tags).containsExactly(1, 2, 3, 4, 5);
        }
    }

    @Test
    void withoutCompletionsAPollReadsUpToItsBudget() {
        try (Arena arena = Arena.ofConfined()) {
            InboundRing in = ringWithFiveFrames(arena);
            Sink sink = new Sink(List.of());
            assertThat(in.poll(sink, 3)).isEqualTo(3);
            assertThat(in.poll(sink, 3)).isEqualTo(2);
            assertThat(sink.tags).containsExactly(1, 2, 3, 4, 5);
        }
    }
}
