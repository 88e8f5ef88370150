package org.jmpi.transport.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.FrameSink;

/**
 * The consumer end of one peer's ring in this rank's segment: reads records ({@link ShmLayout}) and hands the frames
 * to the sink, in place (the payload is a slice of the ring, valid during the call).
 *
 * <p>Threading: used only by the thread inside the transport's {@code poll} (one at a time). The marker of the record
 * at {@code head} is loaded with acquire semantics, pairing with the producer's release store; the new head is
 * stored with release semantics once the frame has been handed over, so the producer overwrites the bytes only after
 * we are done reading them.
 */
final class InboundRing {

    final int peer;
    final MemorySegment ring;
    private final MemorySegment data;
    private final long mask;
    private final MemorySegment header;
    private long head;
    /** A long frame being reassembled from FIRST and MORE records, or null. */
    private MemorySegment assembly;
    private long assembled;

    InboundRing(int peer, MemorySegment ring, long dataBytes) {
        this.peer = peer;
        this.ring = ring;
        this.data = ring.asSlice(ShmLayout.RING_HEADER_BYTES, dataBytes);
        this.mask = dataBytes - 1;
        this.header = Arena.ofAuto().allocate(FrameLayout.HEADER_BYTES, 8);
        this.head = ShmLayout.getAcquire(ring, ShmLayout.RING_HEAD);
    }

    /** Whether a record is waiting (one acquire load). */
    boolean ready() {
        return ShmLayout.getAcquire(data, head & mask) != 0;
    }

    /**
     * Hands up to {@code budget} frames to the sink.
     *
     * @return the number of records consumed (0: nothing was there)
     */
    int poll(FrameSink sink, int budget) {
        int records = 0;
        while (records < budget) {
            long off = head & mask;
            long marker = ShmLayout.getAcquire(data, off);
            if (marker == 0) {
                break;
            }
            long length = ShmLayout.markerLength(marker);
            switch (ShmLayout.markerType(marker)) {
                case ShmLayout.TYPE_FRAME -> {
                    ShmLayout.copyHeaderOut(data, off + ShmLayout.MARKER_BYTES, header);
                    int payload = FrameLayout.payloadLength(header);
                    consume(length);
                    sink.onFrame(peer, header, data, off + ShmLayout.PAYLOAD_OFFSET, payload);
                    publishHead();
                    records++;
                }
                case ShmLayout.TYPE_WRAP -> {
                    consume(length);
                    publishHead();
                }
                case ShmLayout.TYPE_FIRST -> {
                    MemorySegment.copy(data, off + ShmLayout.MARKER_BYTES, header, 0, FrameLayout.HEADER_BYTES);
                    long total = FrameLayout.payloadLength(header) & 0xffff_ffffL;
                    long piece = length - ShmLayout.PAYLOAD_OFFSET;
                    assembly = total <= Integer.MAX_VALUE - 16 ? MemorySegment.ofArray(new byte[(int) total])
                            : Arena.ofAuto().allocate(total);
                    MemorySegment.copy(data, off + ShmLayout.PAYLOAD_OFFSET, assembly, 0, piece);
                    assembled = piece;
                    consume(length);
                    publishHead();
                    records++;
                }
                case ShmLayout.TYPE_MORE -> {
                    if (assembly == null) {
                        throw new IllegalStateException("shm ring from rank " + peer + ": a continuation record"
                                + " without a first one");
                    }
                    long piece = Math.min(assembly.byteSize() - assembled, length - ShmLayout.MARKER_BYTES);
                    MemorySegment.copy(data, off + ShmLayout.MARKER_BYTES, assembly, assembled, piece);
                    assembled += piece;
                    consume(length);
                    publishHead();
                    records++;
                    if (assembled == assembly.byteSize()) {
                        MemorySegment whole = assembly;
                        assembly = null;
                        sink.onFrame(peer, header, whole);
                    }
                }
                default -> throw new IllegalStateException("shm ring from rank " + peer + ": bad record marker 0x"
                        + Long.toHexString(marker) + " at " + off);
            }
        }
        return records;
    }

    /**
     * Moves our private head past a record. A FRAME is handed over afterwards, while its bytes are still in the ring:
     * the head is published ({@link #publishHead()}) only after the sink returns, so the producer cannot overwrite
     * them; the private head moves first so that a nested poll could never hand the frame over twice.
     */
    private void consume(long length) {
        head += length;
    }

    /** Publishes the head so the producer may reuse the space (release store; a plain store on x86). */
    private void publishHead() {
        ShmLayout.setRelease(ring, ShmLayout.RING_HEAD, head);
    }

    /** Whether the producer asked to be woken when room appears; clears the request. */
    boolean takeProducerWaiting() {
        return ring.get(ValueLayout.JAVA_INT, ShmLayout.RING_PRODUCER_WAITING) != 0
                && ShmLayout.casInt(ring, ShmLayout.RING_PRODUCER_WAITING, 1, 0);
    }
}
