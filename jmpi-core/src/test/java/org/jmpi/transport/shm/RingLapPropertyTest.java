package org.jmpi.transport.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.FrameSink;

/**
 * Frames of mixed sizes through one small ring (16 KiB), over many laps, with the consumer lagging by random amounts:
 * every frame arrives once, in order, with its header and payload. The payloads are hostile to the ring's publication
 * rule ({@link ShmLayout}, "Publication"): every 8-byte word of a payload is a marker that would be valid at a line
 * start in one of the laps around the current one, so a line whose last-lap content the producer misjudges (payload
 * taken for a record start, and not zeroed) is read as a record and the test fails.
 */
class RingLapPropertyTest {
    private static final long DATA = ShmConfig.MIN_RING;

    private record Frame(byte[] header, byte[] payload) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Frame f && Arrays.equals(header, f.header) && Arrays.equals(payload, f.payload);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(header) * 31 + Arrays.hashCode(payload);
        }

        @Override
        public String toString() {
            return "frame of " + payload.length + " bytes, tag " + FrameLayout.getInt(MemorySegment.ofArray(header),
                    FrameLayout.TAG);
        }
    }

    @Provide
    Arbitrary<List<Integer>> sizes() {
        Arbitrary<Integer> size = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, Arbitraries.integers().between(0, 40)),
                net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(41, 3000)),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(7000, 40000)));
        return size.list().ofMinSize(50).ofMaxSize(600);
    }

    @Property(tries = 60)
    void everyFrameArrivesOnceInOrderAcrossLaps(@ForAll("sizes") List<Integer> sizes, @ForAll long seed) {
        Random random = new Random(seed);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ring = arena.allocate(ShmLayout.ringBytes(DATA), 64);
            MemorySegment bell = arena.allocate(64, 64);
            OutboundRing out = new OutboundRing(1, ring, DATA, bell);
            InboundRing in = new InboundRing(0, ring, DATA, (peer, address, into, bytes) -> false);
            List<Frame> sent = new ArrayList<>();
            List<Frame> got = new ArrayList<>();
            FrameSink sink = new FrameSink() {
                @Override
                public void onFrame(int peer, MemorySegment h, MemorySegment p) {
                    got.add(new Frame(h.toArray(ValueLayout.JAVA_BYTE), p.toArray(ValueLayout.JAVA_BYTE)));
                }

                @Override
                public void onPeerFailure(int peer, Throwable cause) {
                    throw new AssertionError("after " + got.size() + " of " + sent.size() + " frames", cause);
                }
            };
            int tag = 0;
            // every size twice in a row: like frames in a stream are where the producer skips the zeroing
            for (int n : sizes) {
                for (int twice = 0; twice < 2; twice++) {
                    MemorySegment h = header(n, tag++, random.nextInt(3) == 0);
                    byte[] p = hostilePayload(n, ring.get(ValueLayout.JAVA_LONG, ShmLayout.RING_HEAD), random);
                    sent.add(new Frame(h.toArray(ValueLayout.JAVA_BYTE), p.clone()));
                    out.lock.lock();
                    try {
                        out.sendLocked(h, MemorySegment.ofArray(p), null);
                    } finally {
                        out.lock.unlock();
                    }
                    int budget = random.nextInt(4);
                    if (budget > 0) {
                        in.poll(sink, budget);
                    }
                    drainWhilePending(out, in, sink);
                }
            }
            while (in.poll(sink, 64) > 0 || out.hasPending()) {
                drainWhilePending(out, in, sink);
            }
            assertThat(got).hasSameSizeAs(sent);
            for (int i = 0; i < sent.size(); i++) {
                assertThat(got.get(i)).as("frame %d", i).isEqualTo(sent.get(i));
            }
            assertThat(in.ready()).isFalse();
        }
    }

    /** Lets the producer write what fits and the consumer read one record at a time, until nothing is queued. */
    private static void drainWhilePending(OutboundRing out, InboundRing in, FrameSink sink) {
        ArrayDeque<Runnable> done = new ArrayDeque<>();
        while (true) {
            out.lock.lock();
            try {
                out.flushLocked(done);
            } finally {
                out.lock.unlock();
            }
            if (!out.hasPending()) {
                return;
            }
            assertThat(in.poll(sink, 1)).as("a queued frame waits for a record the consumer can read").isPositive();
        }
    }

    private static MemorySegment header(int payload, int tag, boolean withIds) {
        MemorySegment h = MemorySegment.ofArray(new byte[FrameLayout.HEADER_BYTES]);
        FrameLayout.putInt(h, FrameLayout.PAYLOAD, payload);
        FrameLayout.putInt(h, FrameLayout.KIND, 1);
        FrameLayout.putInt(h, FrameLayout.CONTEXT, 3);
        FrameLayout.putInt(h, FrameLayout.SOURCE, 1);
        FrameLayout.putInt(h, FrameLayout.TAG, tag);
        FrameLayout.putLong(h, FrameLayout.TOTAL, payload);
        FrameLayout.putLong(h, FrameLayout.SEND_ID, withIds ? tag + 1 : 0);
        return h;
    }

    /**
     * A payload whose every 8-byte word (and so every word at a line start, wherever the record puts it) is a marker
     * of a plausible record (FRAME or SHORT, one line or two) for a lap from one before to two after the consumer's.
     */
    private static byte[] hostilePayload(int n, long head, Random random) {
        int shift = Long.numberOfTrailingZeros(DATA);
        long lap = Math.max(0, (head >>> shift) - 1 + random.nextInt(4));
        long marker = ShmLayout.marker(random.nextBoolean() ? ShmLayout.TYPE_FRAME : ShmLayout.TYPE_SHORT,
                64L << random.nextInt(2), ShmLayout.lapTag(lap << shift, shift));
        byte[] p = new byte[n];
        MemorySegment s = MemorySegment.ofArray(p);
        for (int i = 0; i + 8 <= n; i += 8) {
            s.set(ValueLayout.JAVA_LONG_UNALIGNED, i, marker);
        }
        return p;
    }
}
