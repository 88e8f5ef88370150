package org.jmpi.transport.shm;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.FrameSink;

/**
 * Fuzz target: the shared-memory ring reader ({@link InboundRing}) over ring contents written by a producer that
 * breaks every rule (another process of the job, buggy or hostile). The input is the data area of a 16 KiB ring
 * (repeated to fill it) and a start offset. Polling must hand over only frames that lie inside their records, or
 * report the peer failed; never throw, read outside the ring, or allocate what a length field asks for beyond the
 * limit.
 */
class ShmRingFuzzTest {
    private static final long DATA = ShmConfig.MIN_RING;

    @FuzzTest(maxDuration = "30s")
    void ringContents(byte[] data) {
        if (data.length < 2) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ring = arena.allocate(ShmLayout.ringBytes(DATA), 64);
            MemorySegment area = ring.asSlice(ShmLayout.RING_HEADER_BYTES, DATA);
            for (long off = 0; off < DATA; off += data.length - 1) {
                long n = Math.min(data.length - 1, DATA - off);
                MemorySegment.copy(MemorySegment.ofArray(data), 1, area, off, n);
            }
            long start = (data[0] & 0xff) * (long) ShmLayout.ALIGN % DATA;
            ring.set(ValueLayout.JAVA_LONG, ShmLayout.RING_HEAD, start);
            InboundRing in = new InboundRing(1, ring, DATA, (peer, address, into, bytes) -> false);
            Checker sink = new Checker();
            for (int round = 0; round < 8 && in.broken() == null; round++) {
                if (in.poll(sink, 64) == 0) {
                    break;
                }
            }
            if (in.broken() != null && sink.failures != 1) {
                throw new AssertionError("a broken ring must report its peer once, not " + sink.failures + " times");
            }
        }
    }

    /** Checks that every frame handed over is consistent with its header. */
    static final class Checker implements FrameSink {
        int failures;

        @Override
        public void onFrame(int peer, MemorySegment header, MemorySegment payload) {
            if (peer != 1 || payload.byteSize() != (FrameLayout.payloadLength(header) & 0xffff_ffffL)) {
                throw new AssertionError("frame of " + payload.byteSize() + " bytes, header says "
                        + FrameLayout.payloadLength(header));
            }
        }

        @Override
        public void onPeerFailure(int peer, Throwable cause) {
            failures++;
        }
    }
}
