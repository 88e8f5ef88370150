package org.jmpi.transport.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.jmpi.shared.SmallPayload;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.FrameSink;
import org.jmpi.transport.Lane;
import org.junit.jupiter.api.Test;

/**
 * Frames through one ring, producer to consumer, in this thread: a frame without send and receive ids whose total is
 * its payload travels as a SHORT record (one cache line up to 32 payload bytes), any other with its whole header; the
 * consumer hands over the same header and payload either way.
 */
class ShortRecordTest {
    private static final long DATA = ShmConfig.MIN_RING;

    private record Got(byte[] header, byte[] payload) {}

    private static MemorySegment header(int payload, int kind, long total, long sendId, long recvId) {
        MemorySegment h = MemorySegment.ofArray(new byte[FrameLayout.HEADER_BYTES]);
        FrameLayout.putInt(h, FrameLayout.PAYLOAD, payload);
        FrameLayout.putInt(h, FrameLayout.KIND, kind);
        FrameLayout.putInt(h, FrameLayout.CONTEXT, 7);
        FrameLayout.putInt(h, FrameLayout.SOURCE, -3);
        FrameLayout.putInt(h, FrameLayout.TAG, Integer.MAX_VALUE);
        FrameLayout.putInt(h, FrameLayout.FLAGS, 0x55);
        FrameLayout.putLong(h, FrameLayout.TOTAL, total);
        FrameLayout.putLong(h, FrameLayout.SEND_ID, sendId);
        FrameLayout.putLong(h, FrameLayout.RECV_ID, recvId);
        return h;
    }

    private static MemorySegment payload(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 + 1);
        }
        return MemorySegment.ofArray(b);
    }

    /** Writes one frame, reads it back; returns the record's length (the head's advance). */
    private static long roundTrip(MemorySegment header, MemorySegment payload, List<Got> got) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ring = arena.allocate(ShmLayout.ringBytes(DATA), 64);
            MemorySegment bell = arena.allocate(64, 64);
            OutboundRing out = new OutboundRing(1, ring, DATA, bell);
            out.lock.lock();
            try {
                assertThat(out.sendLocked(header, payload, null)).isTrue();
            } finally {
                out.lock.unlock();
            }
            InboundRing in = new InboundRing(0, ring, DATA, (peer, address, into, bytes) -> false);
            assertThat(in.poll(new FrameSink() {
                @Override
                public void onFrame(int peer, MemorySegment h, MemorySegment p) {
                    got.add(new Got(h.toArray(ValueLayout.JAVA_BYTE), p.toArray(ValueLayout.JAVA_BYTE)));
                }

                @Override
                public void onPeerFailure(int peer, Throwable cause) {
                    throw new AssertionError(cause);
                }
            }, 8)).isEqualTo(1);
            return ring.get(ValueLayout.JAVA_LONG, ShmLayout.RING_HEAD);
        }
    }

    @Test
    void eagerFramesUpTo32BytesTakeOneCacheLine() {
        for (int n : new int[] {0, 1, 8, 9, 31, 32, 33, 96, 97, 1000}) {
            List<Got> got = new ArrayList<>();
            MemorySegment h = header(n, 1, n, 0, 0);
            long record = roundTrip(h, payload(n), got);
            assertThat(record).as("record of a %d-byte eager frame", n).isEqualTo(ShmLayout.align(32 + n));
            assertThat(got).hasSize(1);
            assertThat(got.get(0).header()).isEqualTo(h.toArray(ValueLayout.JAVA_BYTE));
            assertThat(got.get(0).payload()).isEqualTo(payload(n).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void framesWithIdsOrAnotherTotalKeepTheirWholeHeader() {
        MemorySegment[] headers = {header(16, 2, 16, 5, 0), header(16, 2, 16, 0, 9), header(16, 2, 1 << 20, 0, 0),
            header(16, 2, -1L, 0, 0)};
        for (MemorySegment h : headers) {
            List<Got> got = new ArrayList<>();
            long record = roundTrip(h, payload(16), got);
            assertThat(record).isEqualTo(ShmLayout.align(ShmLayout.PAYLOAD_OFFSET + 16));
            assertThat(got.get(0).header()).isEqualTo(h.toArray(ValueLayout.JAVA_BYTE));
            assertThat(got.get(0).payload()).isEqualTo(payload(16).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    /**
     * The lane's take ({@link InboundRing#takeShort}): a record of the kind asked for, or of that kind with
     * {@link Lane#ANSWERED}, and this envelope, is taken, the latter's length answered with
     * {@link Lane#TAKEN_ANSWERED}; another kind or envelope stays for the poll.
     */
    @Test
    void theLaneTakesItsKindWithOrWithoutTheAnsweredBit() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ring = arena.allocate(ShmLayout.ringBytes(DATA), 64);
            OutboundRing out = new OutboundRing(1, ring, DATA, arena.allocate(64, 64));
            InboundRing in = new InboundRing(0, ring, DATA, (peer, address, into, bytes) -> false);
            MemorySegment into = arena.allocate(64);
            long kind = ShmLayout.envelopeWord(0, 1);
            long source = ShmLayout.envelopeWord(7, 3);
            long tag = ShmLayout.envelopeWord(11, 0);
            int[][] sent = {{1, 5}, {1 | Lane.ANSWERED, 6}, {2 | Lane.ANSWERED, 7}};
            out.lock.lock();
            try {
                for (int[] k : sent) {
                    assertThat(out.writeShortLocked(ShmLayout.envelopeWord(k[1], k[0]), source, tag, payload(k[1]),
                            0, k[1], null)).isTrue();
                }
            } finally {
                out.lock.unlock();
            }
            assertThat(in.takeShort(kind, source, ShmLayout.envelopeWord(12, 0), into, 0, 64, null))
                    .isEqualTo(Lane.OTHER);
            assertThat(in.takeShort(kind, source, tag, into, 0, 64, null)).isEqualTo(5);
            assertThat(in.takeShort(kind, source, tag, into, 0, 64, null)).isEqualTo(6 | Lane.TAKEN_ANSWERED);
            assertThat(into.asSlice(0, 6).toArray(ValueLayout.JAVA_BYTE))
                    .isEqualTo(payload(6).toArray(ValueLayout.JAVA_BYTE));
            assertThat(in.takeShort(kind, source, tag, into, 0, 64, null)).as("another kind").isEqualTo(Lane.OTHER);
        }
    }

    /**
     * Payloads of 0-64 bytes go through the lane a word at a time when both ends have a {@link SmallPayload} (a
     * byte[] at an offset, native memory) and byte by byte otherwise, in any mix: the bytes arrive as sent, and a
     * receive writes no byte past the payload, nor before its start in the array.
     */
    @Test
    void smallPayloadsArriveByteForByteWhicheverWayEachEndCopies() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ring = arena.allocate(ShmLayout.ringBytes(DATA), 64);
            OutboundRing out = new OutboundRing(1, ring, DATA, arena.allocate(64, 64));
            InboundRing in = new InboundRing(0, ring, DATA, (peer, address, into, bytes) -> false);
            long source = ShmLayout.envelopeWord(7, 3);
            for (int n = 0; n <= SmallPayload.MAX_BYTES; n++) {
                for (int mode = 0; mode < 9; mode++) {
                    long kind = ShmLayout.envelopeWord(n, 1);
                    long tag = ShmLayout.envelopeWord(n * 9 + mode, 0);
                    // sender: a byte[] at offset 3, native memory, or no SmallPayload; the same for the receiver
                    byte[] sentArray = new byte[n + 6];
                    MemorySegment sent = mode % 3 == 1 ? arena.allocate(Math.max(n, 1)).asSlice(0, n)
                            : MemorySegment.ofArray(sentArray).asSlice(3, n);
                    for (int i = 0; i < n; i++) {
                        sent.set(ValueLayout.JAVA_BYTE, i, (byte) (0x80 + i * 13 + mode));
                    }
                    byte[] intoArray = new byte[n + 6];
                    java.util.Arrays.fill(intoArray, (byte) 0x5a);
                    MemorySegment intoWhole = mode / 3 == 1 ? arena.allocate(n + 6) : MemorySegment.ofArray(intoArray);
                    intoWhole.fill((byte) 0x5a);
                    MemorySegment into = intoWhole.asSlice(3, n);
                    SmallPayload from = mode % 3 == 2 ? null : SmallPayload.of(sent);
                    SmallPayload to = mode / 3 == 2 ? null : SmallPayload.of(into);
                    // native memory has one for whole words only
                    assertThat(from != null).isEqualTo(mode % 3 == 0 || mode % 3 == 1 && n % 8 == 0);
                    assertThat(to != null).isEqualTo(mode / 3 == 0 || mode / 3 == 1 && n % 8 == 0);
                    out.lock.lock();
                    try {
                        assertThat(out.writeShortLocked(kind, source, tag, sent, 0, n, from)).isTrue();
                    } finally {
                        out.lock.unlock();
                    }
                    assertThat(in.takeShort(kind, source, tag, into, 0, n, to)).as("n %d mode %d", n, mode)
                            .isEqualTo(n);
                    assertThat(into.toArray(ValueLayout.JAVA_BYTE)).as("n %d mode %d", n, mode)
                            .isEqualTo(sent.toArray(ValueLayout.JAVA_BYTE));
                    for (long i : new long[] {0, 1, 2, n + 3, n + 4, n + 5}) {
                        assertThat(intoWhole.get(ValueLayout.JAVA_BYTE, i)).as("guard byte %d, n %d mode %d", i, n,
                                mode).isEqualTo((byte) 0x5a);
                    }
                }
            }
        }
    }

    /**
     * The lane takes its records across the WRAPs before them: a ring read as it is written goes back to its start
     * every 64 KiB (1 MiB ring) or at its end (the smallest ring), and no take answers {@link Lane#OTHER} for it.
     */
    @Test
    void theLaneTakesItsRecordsAcrossWraps() {
        for (long data : new long[] {DATA, 1 << 20}) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment ring = arena.allocate(ShmLayout.ringBytes(data), 64);
                OutboundRing out = new OutboundRing(1, ring, data, arena.allocate(64, 64));
                InboundRing in = new InboundRing(0, ring, data, (peer, address, into, bytes) -> false);
                MemorySegment into = arena.allocate(1024);
                long kind = ShmLayout.envelopeWord(1000, 1);
                long source = ShmLayout.envelopeWord(7, 3);
                long wraps = 0;
                for (int i = 0; i < 300; i++) {
                    long tag = ShmLayout.envelopeWord(i, 0);
                    out.lock.lock();
                    try {
                        assertThat(out.writeShortLocked(kind, source, tag, payload(1000), 0, 1000, null)).isTrue();
                    } finally {
                        out.lock.unlock();
                    }
                    long before = ring.get(ValueLayout.JAVA_LONG, ShmLayout.RING_HEAD);
                    assertThat(in.takeShort(kind, source, tag, into, 0, 1024, null)).as("take %d", i).isEqualTo(1000);
                    long advance = ring.get(ValueLayout.JAVA_LONG, ShmLayout.RING_HEAD) - before;
                    wraps += advance > ShmLayout.shortRecordBytes(1000) ? 1 : 0;
                }
                assertThat(wraps).as("takes after a WRAP").isGreaterThan(data > DATA ? 3 : 10);
            }
        }
    }

    /**
     * ADDRESS records: the payload stays in the producer's memory and the consumer's reader copies it. The lane's take
     * reads it straight into the receive buffer; the poll reads it into a buffer of its own and hands the frame over
     * as a SHORT record's; either way the ticket is published and the producer sees its message read. A receive
     * buffer on the heap is not the lane's (the poll's then); a read the kernel refuses breaks the ring and reports
     * the peer failed (the sender's buffer is not there to read); a record of another length is refused as broken.
     */
    @Test
    @SuppressWarnings("restricted") // the reader stands for process_vm_readv: it copies from an address
    void addressRecordsAreReadOutOfTheProducersMemory() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ring = arena.allocate(ShmLayout.ringBytes(DATA), 64);
            OutboundRing out = new OutboundRing(1, ring, DATA, arena.allocate(64, 64));
            boolean[] refuse = {false};
            InboundRing in = new InboundRing(0, ring, DATA, (peer, address, into, bytes) -> {
                if (refuse[0]) {
                    return false;
                }
                MemorySegment.copy(MemorySegment.ofAddress(address).reinterpret(bytes), 0,
                        MemorySegment.ofAddress(into).reinterpret(bytes), 0, bytes);
                return true;
            });
            int n = 5000;
            MemorySegment message = arena.allocate(n);
            message.copyFrom(payload(n));
            long source = ShmLayout.envelopeWord(7, 3);
            long tag = ShmLayout.envelopeWord(11, 0);
            long[] tickets = new long[3];
            out.lock.lock();
            try {
                for (int i = 0; i < tickets.length; i++) {
                    tickets[i] = out.writeAddressLocked(ShmLayout.envelopeWord(n, 1), source, tag, message.address());
                }
            } finally {
                out.lock.unlock();
            }
            assertThat(tickets).containsExactly(1, 2, 3);
            assertThat(ring.get(ValueLayout.JAVA_LONG, ShmLayout.RING_HEAD)).isZero();
            assertThat(out.wasRead(1)).isFalse();

            MemorySegment into = arena.allocate(n);
            long kind = ShmLayout.envelopeWord(0, 1);
            assertThat(in.takeShort(kind, source, tag, into, 0, n - 1, null)).as("too small").isEqualTo(Lane.OTHER);
            assertThat(in.takeShort(kind, source, tag, MemorySegment.ofArray(new byte[n]), 0, n, null))
                    .as("on the heap").isEqualTo(Lane.OTHER);
            assertThat(in.takeShort(kind, source, tag, into, 0, n, null)).isEqualTo(n);
            assertThat(into.toArray(ValueLayout.JAVA_BYTE)).isEqualTo(payload(n).toArray(ValueLayout.JAVA_BYTE));
            assertThat(out.wasRead(1)).isTrue();
            assertThat(out.wasRead(2)).isFalse();
            assertThat(ring.get(ValueLayout.JAVA_LONG, ShmLayout.RING_HEAD)).isEqualTo(ShmLayout.ADDRESS_RECORD_BYTES);

            List<Got> got = new ArrayList<>();
            List<Throwable> failed = new ArrayList<>();
            FrameSink sink = new FrameSink() {
                @Override
                public void onFrame(int peer, MemorySegment h, MemorySegment p) {
                    got.add(new Got(h.toArray(ValueLayout.JAVA_BYTE), p.toArray(ValueLayout.JAVA_BYTE)));
                }

                @Override
                public void onPeerFailure(int peer, Throwable cause) {
                    failed.add(cause);
                }
            };
            assertThat(in.poll(sink, 1)).isEqualTo(1);
            assertThat(got).hasSize(1);
            assertThat(got.get(0).payload()).isEqualTo(payload(n).toArray(ValueLayout.JAVA_BYTE));
            MemorySegment h = MemorySegment.ofArray(got.get(0).header());
            assertThat(FrameLayout.payloadLength(h)).isEqualTo(n);
            assertThat(FrameLayout.getInt(h, FrameLayout.TAG)).isEqualTo(11);
            assertThat(FrameLayout.getLong(h, FrameLayout.TOTAL)).isEqualTo(n);
            assertThat(out.wasRead(2)).isTrue();

            refuse[0] = true;
            assertThat(in.takeShort(kind, source, tag, into, 0, n, null)).isEqualTo(Lane.OTHER);
            assertThat(in.poll(sink, 1)).isZero();
            assertThat(failed).hasSize(1);
            assertThat(failed.get(0)).hasMessageContaining("could not be read");
            assertThat(in.broken()).isNotNull();
            assertThat(out.wasRead(3)).isFalse();

            // another length than one cache line: broken
            MemorySegment ring2 = arena.allocate(ShmLayout.ringBytes(DATA), 64);
            OutboundRing out2 = new OutboundRing(1, ring2, DATA, arena.allocate(64, 64));
            out2.lock.lock();
            try {
                assertThat(out2.writeAddressLocked(ShmLayout.envelopeWord(n, 1), source, tag, message.address()))
                        .isEqualTo(1);
            } finally {
                out2.lock.unlock();
            }
            long marker = ring2.get(ValueLayout.JAVA_LONG, ShmLayout.RING_HEADER_BYTES);
            ring2.set(ValueLayout.JAVA_LONG, ShmLayout.RING_HEADER_BYTES, marker + ShmLayout.ALIGN);
            InboundRing in2 = new InboundRing(0, ring2, DATA, (peer, address, into2, bytes) -> true);
            failed.clear();
            assertThat(in2.poll(sink, 1)).isZero();
            assertThat(in2.broken()).contains("address record of 128 bytes");
        }
    }
}
