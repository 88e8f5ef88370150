package org.jmpi.transport.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.FrameSink;
import org.junit.jupiter.api.Test;

/**
 * A stream of small records goes around the ring lap after lap, each lap the whole data area (a ring's first laps
 * ended early until 2026-11-28, a device for the C2 compiler, which no longer compiles the message path); every
 * record arrives once, in order.
 */
class RingWrapTest {
    private static final long DATA = 64 << 10;

    @Test
    void aStreamOfSmallRecordsWrapsAtTheRingsEnd() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ring = arena.allocate(ShmLayout.ringBytes(DATA), 64);
            OutboundRing out = new OutboundRing(1, ring, DATA, arena.allocate(64, 64));
            InboundRing in = new InboundRing(0, ring, DATA, (peer, address, into, bytes) -> false);
            MemorySegment header = MemorySegment.ofArray(new byte[FrameLayout.HEADER_BYTES]);
            MemorySegment payload = MemorySegment.ofArray(new byte[8]);
            FrameLayout.putInt(header, FrameLayout.PAYLOAD, 8);
            FrameLayout.putLong(header, FrameLayout.TOTAL, 8);
            long record = ShmLayout.shortRecordBytes(8);
            List<Integer> lapStarts = new ArrayList<>(); // 1-based numbers of the records that began a lap
            int[] last = {-1};
            for (int i = 1; i <= 6000; i++) {
                FrameLayout.putInt(header, FrameLayout.TAG, i);
                payload.set(ValueLayout.JAVA_INT_UNALIGNED, 0, -i);
                out.lock.lock();
                try {
                    assertThat(out.sendLocked(header, payload, null)).as("record %d fits", i).isTrue();
                } finally {
                    out.lock.unlock();
                }
                assertThat(in.poll(new FrameSink() {
                    @Override
                    public void onFrame(int peer, MemorySegment h, MemorySegment p) {
                        last[0] = FrameLayout.getInt(h, FrameLayout.TAG);
                        assertThat(p.get(ValueLayout.JAVA_INT_UNALIGNED, 0)).isEqualTo(-last[0]);
                    }

                    @Override
                    public void onPeerFailure(int peer, Throwable cause) {
                        throw new AssertionError(cause);
                    }
                }, 8)).as("records read: the frame, after a WRAP when one ended the lap").isBetween(1, 2);
                assertThat(last[0]).as("the record read").isEqualTo(i);
                long head = ring.get(ValueLayout.JAVA_LONG, ShmLayout.RING_HEAD);
                if ((head - record) % DATA == 0) {
                    lapStarts.add(i);
                }
            }
            long lines = DATA / record;
            // every lap the whole 64 KiB
            List<Integer> expected = new ArrayList<>();
            for (int start = 1; start <= 6000; start += (int) lines) {
                expected.add(start);
            }
            assertThat(DATA % record).as("records fill a lap exactly").isZero();
            assertThat(lapStarts).containsExactlyElementsOf(expected);
        }
    }
}
