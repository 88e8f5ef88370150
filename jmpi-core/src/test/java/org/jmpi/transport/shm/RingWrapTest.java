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
 * Where records go in the ring. A stream the consumer reads as it comes (each record read before the next is
 * written, as in every request-and-answer pattern) goes back to the data area's start after 64 KiB, when the ring is
 * empty and 16 records as large as the lap's largest fit before where it is, so that it keeps to the pages it has
 * touched; a 64 KiB ring's laps are the whole data area, and so are those of chunks of 64 KiB and of a stream that
 * mixes them with small records; a burst the consumer does not read yet fills the whole ring. Every record arrives
 * once, in order.
 */
class RingWrapTest {
    private static final long EARLY = 64 << 10;

    @Test
    void aStreamReadAsItComesOfA64KiBRingWrapsAtTheRingsEnd() {
        long record = ShmLayout.shortRecordBytes(8);
        List<Long> offsets = readAsItComes(64 << 10, 8, 6000);
        for (int i = 0; i < offsets.size(); i++) {
            assertThat(offsets.get(i)).as("record %d", i + 1).isEqualTo(i * record % (64 << 10));
        }
    }

    @Test
    void aStreamReadAsItComesKeepsToTheFirst64KiBOfALargeRing() {
        long record = ShmLayout.shortRecordBytes(8);
        List<Long> offsets = readAsItComes(1 << 20, 8, 6000);
        for (int i = 0; i < offsets.size(); i++) {
            assertThat(offsets.get(i)).as("record %d", i + 1).isEqualTo(i * record % EARLY);
        }
    }

    @Test
    void largerRecordsReadAsTheyComeGoBackAfter16OfThem() {
        long record = ShmLayout.shortRecordBytes(8 << 10);
        List<Long> offsets = readAsItComes(1 << 20, 8 << 10, 2000);
        // looked at every 64 KiB: back at the first look that finds 16 records and a line before the tail
        assertThat(offsets).allSatisfy(off -> assertThat(off).isLessThan(16 * record + ShmLayout.ALIGN + EARLY));
        assertThat(offsets.stream().filter(off -> off == 0).count()).as("laps").isGreaterThan(2000 / 25);
    }

    @Test
    void aLapWithLargeRecordsGoesOnAfterSmallOnes() {
        long data = 1 << 20;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ring = arena.allocate(ShmLayout.ringBytes(data), 64);
            OutboundRing out = new OutboundRing(1, ring, data, arena.allocate(64, 64));
            InboundRing in = new InboundRing(0, ring, data, (peer, address, into, bytes) -> false);
            Frames large = new Frames(64 << 10);
            Frames small = new Frames(8);
            int last = 0;
            long end = 0; // where the last record ended
            for (int i = 1; i <= 200; i++) {
                Frames f = i % 2 == 0 ? large : small;
                f.last = last; // one sequence across both
                assertThat(send(out, f.header(i))).isTrue();
                assertThat(in.poll(f, 8)).isBetween(1, 2);
                last = f.last;
                long record = ShmLayout.shortRecordBytes(f.payload);
                long off = (ring.get(ValueLayout.JAVA_LONG, ShmLayout.RING_HEAD) - record) & (data - 1);
                boolean wrapped = off == 0 && i > 1;
                assertThat(wrapped ? end + record > data : off == end).as("record %d at %d after %d", i, off, end)
                        .isTrue();
                end = off + record;
            }
        }
    }

    @Test
    void chunksOf64KiBGoAroundTheWholeRing() {
        long record = ShmLayout.shortRecordBytes(64 << 10);
        List<Long> offsets = readAsItComes(1 << 20, 64 << 10, 100);
        for (int i = 0; i < offsets.size(); i++) {
            assertThat(offsets.get(i)).as("record %d", i + 1).isEqualTo(i * record % ((1 << 20) / record * record));
        }
    }

    @Test
    void aBurstFillsTheWholeRing() {
        long data = 1 << 20;
        long record = ShmLayout.shortRecordBytes(8);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ring = arena.allocate(ShmLayout.ringBytes(data), 64);
            OutboundRing out = new OutboundRing(1, ring, data, arena.allocate(64, 64));
            InboundRing in = new InboundRing(0, ring, data, (peer, address, into, bytes) -> false);
            Frames frames = new Frames();
            int sent = 0;
            for (int lap = 0; lap < 3; lap++) {
                int burst = (int) ((data - ShmLayout.ALIGN) / record); // as many as fit at once
                for (int k = 0; k < burst; k++) {
                    assertThat(send(out, frames.header(++sent))).as("record %d fits", sent).isTrue();
                }
                long before = frames.received;
                while (in.poll(frames, 64) > 0) {
                    // read the burst
                }
                assertThat(frames.received - before).isEqualTo(burst);
            }
            assertThat(frames.last).isEqualTo(sent);
        }
    }

    /** Writes {@code count} frames of {@code payload} bytes, reading each before the next; their records' offsets. */
    private static List<Long> readAsItComes(long data, int payload, int count) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ring = arena.allocate(ShmLayout.ringBytes(data), 64);
            OutboundRing out = new OutboundRing(1, ring, data, arena.allocate(64, 64));
            InboundRing in = new InboundRing(0, ring, data, (peer, address, into, bytes) -> false);
            Frames frames = new Frames(payload);
            List<Long> offsets = new ArrayList<>();
            for (int i = 1; i <= count; i++) {
                assertThat(send(out, frames.header(i))).as("record %d fits", i).isTrue();
                assertThat(in.poll(frames, 8)).as("records read: the frame, after a WRAP when one came first")
                        .isBetween(1, 2);
                assertThat(frames.last).as("the record read").isEqualTo(i);
                long head = ring.get(ValueLayout.JAVA_LONG, ShmLayout.RING_HEAD);
                offsets.add((head - ShmLayout.shortRecordBytes(payload)) & (data - 1));
            }
            return offsets;
        }
    }

    private static boolean send(OutboundRing out, MemorySegment header) {
        out.lock.lock();
        try {
            return out.sendLocked(header, Frames.PAYLOAD.asSlice(0, FrameLayout.payloadLength(header)), null);
        } finally {
            out.lock.unlock();
        }
    }

    /** Headers of frames whose payload's first int is minus their tag, and the sink that checks them. */
    private static final class Frames implements FrameSink {
        static final MemorySegment PAYLOAD = MemorySegment.ofArray(new byte[64 << 10]);
        final MemorySegment header = MemorySegment.ofArray(new byte[FrameLayout.HEADER_BYTES]);
        final int payload;
        int last;
        long received;

        Frames() {
            this(8);
        }

        Frames(int payload) {
            this.payload = payload;
        }

        MemorySegment header(int tag) {
            FrameLayout.putInt(header, FrameLayout.PAYLOAD, payload);
            FrameLayout.putLong(header, FrameLayout.TOTAL, payload);
            FrameLayout.putInt(header, FrameLayout.TAG, tag);
            PAYLOAD.set(ValueLayout.JAVA_INT_UNALIGNED, 0, -tag);
            return header;
        }

        @Override
        public void onFrame(int peer, MemorySegment h, MemorySegment p) {
            int tag = FrameLayout.getInt(h, FrameLayout.TAG);
            assertThat(tag).as("the next record in order").isEqualTo(last + 1);
            assertThat(p.get(ValueLayout.JAVA_INT_UNALIGNED, 0)).isEqualTo(-tag);
            last = tag;
            received++;
        }

        @Override
        public void onPeerFailure(int peer, Throwable cause) {
            throw new AssertionError(cause);
        }
    }
}
