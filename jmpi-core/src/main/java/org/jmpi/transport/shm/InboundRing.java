package org.jmpi.transport.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.jmpi.shared.FastCopy;
import org.jmpi.shared.SmallPayload;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.FrameSink;
import org.jmpi.transport.Lane;

/**
 * The consumer end of one peer's ring in this rank's segment: reads records ({@link ShmLayout}) and hands the frames
 * to the sink, in place (the payload is a slice of the ring, valid during the call).
 *
 * <p><b>Untrusted input.</b> The producer is another process. Every record is checked before it is used (size,
 * alignment, type, the frame inside it); one that no correct producer writes ends the reading of this ring, and the
 * peer is reported failed to the sink, instead of an exception in the caller or a read outside the ring.
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
    /** Word views of {@link #data} and of {@link #ring} (see {@link ShmLayout#words}). */
    private final java.nio.LongBuffer dataWords;
    private final java.nio.LongBuffer envelopeWords;
    private final java.nio.LongBuffer ringWords;
    private final long mask;
    /** log2 of the data area's size (a position's lap is {@code position >>> lapShift}). */
    private final int lapShift;
    private final MemorySegment header;
    private long head;
    /** A long frame being reassembled from FIRST and MORE records (grown as they come), or null. */
    private byte[] assembly;
    private long assembled;
    private long assemblyTotal;
    /** Set when the producer broke the layout; the ring is not read any more. */
    private String broken;
    /** Reads the payloads of ADDRESS records out of the producer's memory. */
    private final Reader reader;
    /** Where {@link #poll} puts an ADDRESS record's payload (native, grown as needed), or null. */
    private MemorySegment scratch;

    /** Copies {@code bytes} bytes at {@code address} in {@code peer}'s process to {@code into} in this one. */
    @FunctionalInterface
    interface Reader {
        /** False when it could not (nothing promised about the bytes at {@code into}). */
        boolean read(int peer, long address, long into, long bytes);
    }

    InboundRing(int peer, MemorySegment ring, long dataBytes, Reader reader) {
        this.peer = peer;
        this.reader = reader;
        this.ring = ring;
        this.data = ring.asSlice(ShmLayout.RING_HEADER_BYTES, dataBytes);
        this.dataWords = ShmLayout.words(data);
        this.envelopeWords = ShmLayout.envelopeWords(data);
        this.ringWords = ShmLayout.words(ring.asSlice(0, ShmLayout.RING_HEADER_BYTES));
        this.mask = dataBytes - 1;
        this.lapShift = Long.numberOfTrailingZeros(dataBytes);
        this.header = Arena.ofAuto().allocate(FrameLayout.HEADER_BYTES, 8);
        this.head = ShmLayout.getAcquire(ring, ShmLayout.RING_HEAD);
    }

    /** Whether a record is waiting (one acquire load). */
    boolean ready() {
        long marker = ShmLayout.getAcquire(dataWords, (int) (head & mask));
        return ShmLayout.isOfLap(marker, ShmLayout.lapTag(head, lapShift));
    }

    /** Whether the record at the head is a SHORT one: a control frame or a small message, cheap to hand over. */
    boolean shortAtHead() {
        long marker = ShmLayout.getAcquire(dataWords, (int) (head & mask));
        return ShmLayout.isOfLap(marker, ShmLayout.lapTag(head, lapShift))
                && ShmLayout.markerType(marker) == ShmLayout.TYPE_SHORT;
    }

    /**
     * Hands up to {@code budget} frames to the sink.
     *
     * @return the number of records consumed, wraps included (0: nothing was there)
     */
    int poll(FrameSink sink, int budget) {
        if (broken != null) {
            return 0;
        }
        int records = 0;
        while (records < budget) {
            long off = head & mask;
            long marker = ShmLayout.getAcquire(dataWords, (int) off);
            if (!ShmLayout.isOfLap(marker, ShmLayout.lapTag(head, lapShift))) {
                break; // zero or the previous lap's record: nothing here yet
            }
            long length = ShmLayout.markerLength(marker);
            int type = ShmLayout.markerType(marker);
            String bad = checkRecord(type, off, length);
            if (bad != null) {
                return fail(sink, records, bad + " (marker 0x" + Long.toHexString(marker) + " at " + off + ")");
            }
            switch (type) {
                case ShmLayout.TYPE_FRAME, ShmLayout.TYPE_SHORT -> {
                    boolean isShort = type == ShmLayout.TYPE_SHORT;
                    long at = isShort ? ShmLayout.SHORT_PAYLOAD_OFFSET : ShmLayout.PAYLOAD_OFFSET;
                    long first = 0; // a SHORT record's first header word: its payload length and kind
                    int payload;
                    if (isShort) {
                        first = envelopeWords.get(((int) off + 8) >>> 3);
                        payload = (int) first;
                    } else {
                        ShmLayout.copyHeaderOut(data, off + ShmLayout.MARKER_BYTES, header);
                        payload = FrameLayout.payloadLength(header);
                    }
                    if (payload < 0 || at + (long) payload > length) {
                        return fail(sink, records, "a frame of " + payload + " payload bytes in a record of "
                                + length);
                    }
                    consume(length); // before the sink sees it: the sink may send, and sending may poll
                    if (!isShort || !shortTaken(sink, (int) off, first, payload)) {
                        if (isShort) {
                            ShmLayout.copyShortHeaderOut(data, off + ShmLayout.MARKER_BYTES, header);
                        }
                        sink.onFrame(peer, header, data, off + at, payload);
                    }
                    publishHead();
                    records++;
                    if (sink.takeCompletion()) {
                        return records; // a receive completed: let its waiter see it before reading on
                    }
                }
                case ShmLayout.TYPE_WRAP -> {
                    consume(length);
                    publishHead();
                    records++; // counts against the budget too: a ring of nothing but wraps must not spin here
                }
                case ShmLayout.TYPE_ADDRESS -> {
                    String badRead = handAddressed(sink, (int) off, length);
                    if (badRead != null) {
                        return fail(sink, records, badRead);
                    }
                    records++;
                    if (sink.takeCompletion()) {
                        return records;
                    }
                }
                case ShmLayout.TYPE_FIRST, ShmLayout.TYPE_MORE -> {
                    String badPiece = assemble(sink, type == ShmLayout.TYPE_FIRST, off, length);
                    if (badPiece != null) {
                        return fail(sink, records, badPiece);
                    }
                    records++;
                }
                default -> throw new AssertionError(type); // checkRecord admits the six types only
            }
        }
        return records;
    }

    /**
     * A long frame's first piece or a further one ({@link #poll}), out of line: C1 (which compiles jmpi's runtime)
     * inlines whatever it can bind, rare paths too, and the copies here inline the memory segments' checks, some 50
     * of the JDK's methods each; inside {@code poll} they were compiled again with every program's first messages.
     * Consumes the record, and hands the frame to the sink once it is whole; answers what is wrong with a first
     * piece (the record then stays), else null.
     */
    private String assemble(FrameSink sink, boolean first, long off, long length) {
        if (first) {
            FastCopy.copy(data, off + ShmLayout.MARKER_BYTES, header, 0, FrameLayout.HEADER_BYTES);
            long total = FrameLayout.payloadLength(header) & 0xffff_ffffL;
            long piece = length - ShmLayout.PAYLOAD_OFFSET;
            if (total <= piece || total > MAX_ASSEMBLED_BYTES) {
                return "a long frame of " + total + " bytes starting with " + piece;
            }
            assemblyTotal = total;
            // grown as the pieces come, so a length field alone cannot make this rank allocate
            assembly = new byte[(int) Math.min(total, Math.max(piece, FIRST_ALLOCATION))];
            FastCopy.copy(data, off + ShmLayout.PAYLOAD_OFFSET, MemorySegment.ofArray(assembly), 0, piece);
            assembled = piece;
            consume(length);
            publishHead();
            return null;
        }
        long piece = Math.min(assemblyTotal - assembled, length - ShmLayout.MARKER_BYTES);
        if (assembled + piece > assembly.length) {
            assembly = Arrays.copyOf(assembly, (int) Math.min(assemblyTotal,
                    Math.max(assembled + piece, 2L * assembly.length)));
        }
        FastCopy.copy(data, off + ShmLayout.MARKER_BYTES, MemorySegment.ofArray(assembly), assembled, piece);
        assembled += piece;
        consume(length);
        publishHead();
        if (assembled == assemblyTotal) {
            MemorySegment whole = MemorySegment.ofArray(assembly);
            assembly = null;
            sink.onFrame(peer, header, whole);
        }
        return null;
    }

    /**
     * An ADDRESS record at {@code off} ({@link #poll}), out of line as {@link #assemble}: its payload read out of the
     * producer's memory into {@link #scratch}, the record consumed and its ticket published, then the frame handed to
     * the sink. Answers what is wrong (the record then stays), else null.
     */
    private String handAddressed(FrameSink sink, int off, long length) {
        long first = envelopeWords.get((off + 8) >>> 3);
        int payload = (int) first;
        if (payload < 0 || payload > ShmLayout.addressPayloadMax(mask + 1)) {
            return "an address record of " + payload + " payload bytes";
        }
        long address = envelopeWords.get((off + (int) ShmLayout.ADDRESS_AT) >>> 3);
        if (scratch == null || scratch.byteSize() < payload + ShmLayout.ALIGN) {
            scratch = Arena.ofAuto().allocate(Math.max(payload + ShmLayout.ALIGN, 64 << 10), ShmLayout.ALIGN);
        }
        // a destination 1-31 bytes after the source (modulo 4 KiB) makes the kernel's copy slow: move it by a line
        long shift = ShmTransport.slowDistance(scratch.address(), address, payload) ? ShmLayout.ALIGN : 0;
        MemorySegment into = scratch.asSlice(shift, payload);
        if (!reader.read(peer, address, into.address(), payload)) {
            return "the payload of a message could not be read from its sender's memory (process_vm_readv refused)";
        }
        ShmLayout.copyShortHeaderOut(data, off + ShmLayout.MARKER_BYTES, header);
        consume(length);
        publishRead(off);
        sink.onFrame(peer, header, into, 0, payload);
        publishHead();
        return null;
    }

    /**
     * {@link #takeShort} of an ADDRESS record at {@code off} whose envelope is the one asked for (its marker's
     * {@code length}, its first header word {@code first}): the payload read out of the producer's memory straight
     * into {@code into} when that is native memory the kernel's copy may write; else {@link Lane#OTHER}.
     */
    private long takeAddressed(int off, long length, long first, MemorySegment into, long offset) {
        long payload = first & 0xffff_ffffL;
        if (length != ShmLayout.ADDRESS_RECORD_BYTES || !into.isNative()
                || !reader.read(peer, envelopeWords.get((off + (int) ShmLayout.ADDRESS_AT) >>> 3),
                        into.address() + offset, payload)) {
            return Lane.OTHER;
        }
        consume(length);
        publishRead(off);
        publishHead();
        return payload | first & Lane.TAKEN_ANSWERED;
    }

    /** Tells the producer that the payload of the ADDRESS record at {@code off} has been read (release store). */
    private void publishRead(int off) {
        ShmLayout.setRelease(ringWords, (int) ShmLayout.RING_READ,
                envelopeWords.get((off + (int) ShmLayout.TICKET_AT) >>> 3));
    }

    /**
     * The lane's receive ({@link ShmTransport#takeShort}): if the record at the head is a SHORT one whose header's
     * first three words are {@code kindWord} (its payload length and the kind's {@link Lane#ANSWERED} bit aside),
     * {@code sourceWord} and {@code tagWord}, with at most {@code capacity} payload bytes, copies the payload into
     * {@code into} at {@code offset}, consumes the record and answers the payload's length (with
     * {@link Lane#TAKEN_ANSWERED} when the kind had {@link Lane#ANSWERED}); else {@link Lane#NOTHING} (no record yet)
     * or {@link Lane#OTHER} (the record stays for {@link #poll}, which checks it as it checks any). A WRAP at the head
     * is consumed first ({@link #skipWrap}): an empty ring's producer writes one every 64 KiB of records.
     */
    long takeShort(long kindWord, long sourceWord, long tagWord, MemorySegment into, long offset, long capacity,
            SmallPayload small) {
        int off = (int) (head & mask);
        long marker = ShmLayout.getAcquire(dataWords, off);
        if (!ShmLayout.isOfLap(marker, ShmLayout.lapTag(head, lapShift))) {
            return Lane.NOTHING;
        }
        long length = ShmLayout.markerLength(marker);
        int type = ShmLayout.markerType(marker);
        if (type == ShmLayout.TYPE_WRAP) {
            return skipWrap(off, length) ? takeShort(kindWord, sourceWord, tagWord, into, offset, capacity, small)
                    : Lane.OTHER;
        }
        long first = envelopeWords.get((off + 8) >>> 3);
        long payload = first & 0xffff_ffffL;
        if (broken != null || assembly != null || ((first ^ kindWord) & ~Lane.TAKEN_ANSWERED) >>> 32 != 0
                || payload > capacity || envelopeWords.get((off + 16) >>> 3) != sourceWord
                || envelopeWords.get((off + 24) >>> 3) != tagWord) {
            return Lane.OTHER;
        }
        if (type == ShmLayout.TYPE_ADDRESS) {
            return takeAddressed(off, length, first, into, offset);
        }
        if (type != ShmLayout.TYPE_SHORT || length != ShmLayout.shortRecordBytes(payload) || !inBounds(off, length)
                || !copyable(into, small, payload)) {
            return Lane.OTHER;
        }
        copyOut(off + (int) ShmLayout.SHORT_PAYLOAD_OFFSET, into, offset, (int) payload, small);
        consume(length);
        publishHead();
        return payload | first & Lane.TAKEN_ANSWERED;
    }

    /** Whether a record of {@code length} bytes at {@code off} is at most half the data area and ends inside it. */
    private boolean inBounds(int off, long length) {
        return length <= (mask + 1) >>> 1 && off + length <= mask + 1;
    }

    /**
     * Whether {@link #copyOut} can take {@code payload} bytes: there is a segment to copy into, or (a small array's view
     * gives none, {@code Lane#copiesSmall}) {@code small} takes whole elements of that length; else the message goes
     * the usual way. (Without a segment the capacity is at most {@link SmallPayload#MAX_BYTES}, so an ADDRESS record,
     * of at least 4 KiB, never gets this far.)
     */
    private static boolean copyable(MemorySegment into, SmallPayload small, long payload) {
        return into != null || small.fits((int) payload);
    }

    /**
     * {@link #takeShort}'s copy of the {@code payload} bytes at {@code at} in the data area: into {@code into} at
     * {@code offset}, or word by word through {@code small} ({@link SmallPayload}) when there is one.
     */
    private void copyOut(int at, MemorySegment into, long offset, int payload, SmallPayload small) {
        if (small != null && offset == 0 && small.fits(payload)) {
            small.fromWords(dataWords, at >>> 3, payload);
        } else if (payload > 0) {
            FastCopy.copy(data, at, into, offset, payload);
        }
    }

    /**
     * For the lane ({@link #takeShort}): consumes the WRAP record at {@code off} if it is one a producer writes, so
     * that the lane looks at the data area's start next; false (nothing consumed) if it is not, for {@link #poll} to
     * report. Within what C1 inlines (35 bytes of bytecode), with {@link #skipped}, so that it is compiled with
     * {@link #takeShort} (see {@code OutboundRing.earlyWrap}).
     */
    private boolean skipWrap(int off, long length) {
        return off != 0 && off + length == mask + 1 && skipped(length);
    }

    /** {@link #skipWrap}'s consumption of the WRAP record of {@code length} bytes, unless the ring is in disorder. */
    private boolean skipped(long length) {
        if (broken != null || assembly != null) {
            return false;
        }
        consume(length);
        publishHead();
        return true;
    }

    /**
     * A SHORT record at {@code off} (consumed, its payload length checked; {@code first} its first header word)
     * handed to {@link FrameSink#onShort} from its header words, without a header copied out; false when the sink
     * wants the header.
     */
    private boolean shortTaken(FrameSink sink, int off, long first, int payload) {
        long second = envelopeWords.get((off + 16) >>> 3);
        return sink.onShort(peer, (int) (first >>> 32), (int) second, (int) (second >>> 32),
                (int) envelopeWords.get((off + 24) >>> 3), data, off + ShmLayout.SHORT_PAYLOAD_OFFSET, payload);
    }

    /** Longest frame a FIRST record may announce. */
    static final long MAX_ASSEMBLED_BYTES = (1L << 30) - 64;
    /** What a FIRST record allocates at most before its MORE records arrive. */
    static final int FIRST_ALLOCATION = 256 << 10;

    /**
     * Null when a record of {@code type} and {@code length} at {@code off} can be what a correct producer writes:
     * a whole number of cache lines, at most half the data area (a WRAP: exactly the rest of it), never past its end,
     * a MORE only inside a long frame and a FIRST or FRAME only outside one (a producer writes a long frame's
     * records before anything that follows it). Else what is wrong.
     */
    private String checkRecord(int type, long off, long length) {
        long size = mask + 1;
        if (length < ShmLayout.ALIGN || (length & (ShmLayout.ALIGN - 1)) != 0 || off + length > size) {
            return "a record of " + length + " bytes";
        }
        return switch (type) {
            case ShmLayout.TYPE_WRAP -> off > 0 && off + length == size ? null
                    : "a wrap record that does not end the data area after a record";
            case ShmLayout.TYPE_FRAME, ShmLayout.TYPE_SHORT -> assembly != null ? "a frame inside a long frame"
                    : length <= size >>> 1 ? null : "a record longer than half the ring";
            case ShmLayout.TYPE_ADDRESS -> assembly != null ? "an address record inside a long frame"
                    : length == ShmLayout.ADDRESS_RECORD_BYTES ? null : "an address record of " + length + " bytes";
            case ShmLayout.TYPE_FIRST -> assembly != null ? "a long frame inside another"
                    : length <= size >>> 1 ? null : "a record longer than half the ring";
            case ShmLayout.TYPE_MORE -> assembly == null ? "a continuation record without a first one"
                    : length <= size >>> 1 ? null : "a record longer than half the ring";
            default -> "an unknown record type " + type;
        };
    }

    /** Stops reading this ring for good and reports the peer as failed; returns {@code records}. */
    private int fail(FrameSink sink, int records, String what) {
        broken = "shm ring from rank " + peer + ": " + what;
        assembly = null;
        sink.onPeerFailure(peer, new java.io.IOException(broken));
        return records;
    }

    /** Why this ring is no longer read (its producer wrote something no correct producer writes), or null. */
    String broken() {
        return broken;
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
        ShmLayout.setRelease(ringWords, (int) ShmLayout.RING_HEAD, head);
    }

    /** Whether the producer asked to be woken when room appears; clears the request. */
    boolean takeProducerWaiting() {
        return ringWords.get((int) ShmLayout.RING_PRODUCER_WAITING >>> 3) != 0
                && ShmLayout.casInt(ring, ShmLayout.RING_PRODUCER_WAITING, 1, 0);
    }
}
