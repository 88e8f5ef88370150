package org.jmpi.transport.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.HeaderCopies;
import org.jmpi.shared.FastCopy;
import org.jmpi.shared.LightLock;
import org.jmpi.shared.SmallPayload;

/**
 * The producer end of this rank's ring in a peer's segment: writes frames as records ({@link ShmLayout}), queues
 * those that do not fit yet and writes them, in order, as the peer makes room.
 *
 * <p>Threading: every method runs under {@link #lock} (any thread may send), except {@link #hasPending()} (a volatile
 * hint). {@code tail} and {@code headCache} are this process's private copies.
 * The record body is written with plain stores, the next record's marker is zeroed, and then the record's marker is
 * stored with release semantics, which pairs with the consumer's acquire load of it ({@link InboundRing}). The
 * consumer's {@code head} is read with acquire semantics, pairing with its release store, so that the space it frees
 * is no longer read when we overwrite it.
 */
final class OutboundRing {
    /**
     * A frame that did not fit yet: its header (copied), its payload (by reference) and how far it got. Reused once
     * written (under the lock), so that a sender that keeps the ring full allocates nothing per frame.
     */
    private static final class Pending {
        MemorySegment header;
        MemorySegment payload;
        Runnable onWritten;
        /** Payload bytes already written (long frames are written piece by piece). */
        long written;
        boolean started;
    }

    /** Most written {@link Pending}s kept for reuse. */
    private static final int SPARE_PENDING = 256;

    final int peer;
    /** The peer's doorbell (a futex word in its segment). */
    final MemorySegment doorbell;
    /**
     * Held while writing (briefly, never while calling out or waiting): a {@link LightLock}, whose taking and giving
     * back C1 compiles inline (a compare-and-set, a release store), where a {@code ReentrantLock}'s are calls.
     */
    final LightLock lock = new LightLock();
    private final MemorySegment ring;
    private final MemorySegment data;
    /** Word views of {@link #data}, of {@link #ring} and of {@link #doorbell} (see {@link ShmLayout#words}). */
    private final java.nio.LongBuffer dataWords;
    private final java.nio.LongBuffer envelopeWords;
    private final java.nio.LongBuffer ringWords;
    final java.nio.LongBuffer doorbellWords;
    private final long size;
    private final long mask;
    /** Largest record: half the data area. */
    private final long maxRecord;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    /** Written {@link Pending}s for reuse (under the lock). */
    private final ArrayDeque<Pending> spare = new ArrayDeque<>();
    private volatile boolean hasPending;
    private long tail;
    private long headCache;
    /** Tickets of the ADDRESS records written so far (the last one's; written under the lock). */
    private volatile long tickets;
    /** The last ticket a sender has seen read ({@link #wasRead}). */
    private volatile long seen;
    private static final int LINE_SHIFT = 6; // 64-byte lines (ShmLayout.ALIGN)
    /**
     * Every so many bytes of records the producer looks whether the consumer has read everything, and if so goes
     * back to the data area's start under a WRAP ({@link #earlyWrap}): a ring whose traffic comes and goes (every
     * request-and-answer pattern, the halo exchanges) then reuses its first 64 KiB (or 16 records and more) lap
     * after lap, pages already mapped and in the cache, and touches the rest only when it fills. A ring's untouched
     * page costs its first write and its first read a page fault each, and with a fresh 1 MiB ring every fourth round
     * trip of 1 KiB took 30-50 us instead of 1-2 for the first 950 of a program (a rank's page faults on shared
     * memory: 8-14 us each on this kind of virtual machine, 2026-12-01).
     */
    private static final long EARLY_WRAP = 64 << 10;
    /** The position past which a record asks for an early wrap ({@link #reserve}). */
    private long earlyWrapAt;
    /** The largest record reserved since the last WRAP ({@link #earlyWrap}). */
    private long lapLargest;
    /** log2 of the data area's size: a position's lap is {@code position >>> lapShift}. */
    private final int lapShift;
    /**
     * A bit per line of the data area: set where a record started in the lap the tail is in or, for lines the tail
     * has not reached in this lap, in the lap before; such a line's first word holds that record's marker, which
     * the consumer does not take for a record of a later lap.
     */
    private final long[] starts;
    /** Header copies of the queued frames (native, reused once a frame is written; under the lock). */
    private final HeaderCopies headers = new HeaderCopies();

    OutboundRing(int peer, MemorySegment ring, long dataBytes, MemorySegment doorbell) {
        this.peer = peer;
        this.doorbell = doorbell;
        this.ring = ring;
        this.data = ring.asSlice(ShmLayout.RING_HEADER_BYTES, dataBytes);
        this.dataWords = ShmLayout.words(data);
        this.envelopeWords = ShmLayout.envelopeWords(data);
        this.ringWords = ShmLayout.words(ring.asSlice(0, ShmLayout.RING_HEADER_BYTES));
        this.doorbellWords = ShmLayout.words(doorbell);
        this.size = dataBytes;
        this.mask = dataBytes - 1;
        this.maxRecord = dataBytes / 2;
        this.lapShift = Long.numberOfTrailingZeros(dataBytes);
        this.starts = new long[(int) Math.max(1, (dataBytes >>> LINE_SHIFT) / 64)];
        // The consumer starts at 0, and so does a fresh ring; a ring whose producer restarted is not supported.
        this.tail = ShmLayout.getAcquire(ring, ShmLayout.RING_HEAD);
        this.headCache = tail;
        this.earlyWrapAt = tail + EARLY_WRAP;
        ring.set(ValueLayout.JAVA_LONG, ShmLayout.RING_ATTACHED_PID, ProcessHandle.current().pid());
    }

    /** Whether frames wait for room (a hint; read without the lock). */
    boolean hasPending() {
        return hasPending;
    }

    /**
     * Writes the frame now if nothing is queued and it fits, else queues it. Caller holds {@link #lock}.
     *
     * @return true if the frame was written completely (the caller then runs {@code onWritten})
     */
    boolean sendLocked(MemorySegment header, MemorySegment payload, Runnable onWritten) {
        int length = FrameLayout.payloadLength(header);
        if (pending.isEmpty()) {
            long p = length;
            boolean shortHeader = FrameLayout.travelsShort(header);
            long record = shortHeader ? ShmLayout.shortRecordBytes(p) : ShmLayout.frameRecordBytes(p);
            if (record <= maxRecord) {
                if (reserve(record)) {
                    writeFrame(header, payload, p, record, shortHeader);
                    return true;
                }
            } else {
                Pending q = queue(header, payload, onWritten);
                if (advance(q)) {
                    pending.poll();
                    recycle(q);
                    hasPending = false;
                    return true;
                }
                return false;
            }
        }
        queue(header, payload, onWritten);
        return false;
    }

    /**
     * The lane's send ({@link ShmTransport#sendShort}): a SHORT record from the header's three words and
     * {@code length} payload bytes (from {@code small} when it is not null, see {@link SmallPayload}), if nothing is
     * queued and it fits now; else false and nothing written. Caller holds {@link #lock}.
     */
    boolean writeShortLocked(long kindWord, long sourceWord, long tagWord, MemorySegment payload, long offset,
            int length, SmallPayload small) {
        long record = ShmLayout.shortRecordBytes(length);
        if (!pending.isEmpty() || record > maxRecord || !reserve(record)) {
            return false;
        }
        long off = tail & mask;
        long at = off + ShmLayout.SHORT_PAYLOAD_OFFSET;
        if (small != null && offset == 0 && small.fits(length)) {
            small.toWords(length, dataWords, (int) at >>> 3);
        } else if (length > 0) {
            FastCopy.copy(payload, offset, data, at, length);
        }
        envelopeWords.put(((int) off + 8) >>> 3, kindWord);
        envelopeWords.put(((int) off + 16) >>> 3, sourceWord);
        envelopeWords.put(((int) off + 24) >>> 3, tagWord);
        publish(off, ShmLayout.TYPE_SHORT, record);
        return true;
    }

    /**
     * The lane's send by address ({@link ShmTransport#sendByAddress}): an ADDRESS record from the header's three
     * words, naming the payload at {@code address} in this process, if nothing is queued and it fits now. Answers its
     * ticket ({@link #wasRead}), or 0 and nothing written. Caller holds {@link #lock}.
     */
    long writeAddressLocked(long kindWord, long sourceWord, long tagWord, long address) {
        if (!pending.isEmpty() || !reserve(ShmLayout.ADDRESS_RECORD_BYTES)) {
            return 0;
        }
        int off = (int) (tail & mask);
        long ticket = ++tickets;
        envelopeWords.put((off + 8) >>> 3, kindWord);
        envelopeWords.put((off + 16) >>> 3, sourceWord);
        envelopeWords.put((off + 24) >>> 3, tagWord);
        envelopeWords.put((off + (int) ShmLayout.ADDRESS_AT) >>> 3, address);
        envelopeWords.put((off + (int) ShmLayout.TICKET_AT) >>> 3, ticket);
        publish(off, ShmLayout.TYPE_ADDRESS, ShmLayout.ADDRESS_RECORD_BYTES);
        return ticket;
    }

    /** Whether the consumer has read the payload of the ADDRESS record of {@code ticket}. Any thread, no lock. */
    boolean wasRead(long ticket) {
        if (ShmLayout.getAcquire(ringWords, (int) ShmLayout.RING_READ) < ticket) {
            return false;
        }
        if (seen < ticket) {
            seen = ticket;
        }
        return true;
    }

    /**
     * Before this process sleeps, its doorbell armed: if a sender may be waiting for the payload of the last ADDRESS
     * record to be read (no sender has seen it read, {@link #wasRead}), asks the consumer to ring our doorbell once
     * it has read it, as {@link #armSpaceWakeupLocked} asks for room, and says whether it has been read already
     * (then the caller must not sleep). Any thread, without the lock.
     */
    boolean armReadWakeup() {
        long t = tickets;
        if (t == seen) {
            return false;
        }
        ShmLayout.setIntVolatile(ring, ShmLayout.RING_PRODUCER_WAITING, 1);
        return ShmLayout.getAcquire(ringWords, (int) ShmLayout.RING_READ) >= t;
    }

    private Pending queue(MemorySegment header, MemorySegment payload, Runnable onWritten) {
        Pending q = spare.poll();
        if (q == null) {
            q = new Pending();
        }
        q.header = headers.copyOf(header);
        q.payload = payload;
        q.onWritten = onWritten;
        q.written = 0;
        q.started = false;
        pending.add(q);
        hasPending = true;
        return q;
    }

    /**
     * Writes as many queued frames as fit. Caller holds {@link #lock}; the completions of frames written completely
     * are added to {@code done}, to be run after the lock is released.
     *
     * @return true if anything was written
     */
    boolean flushLocked(ArrayDeque<Runnable> done) {
        boolean any = false;
        Pending q;
        while ((q = pending.peek()) != null) {
            long before = q.written;
            boolean started = q.started;
            boolean complete = advance(q);
            any |= complete || q.written != before || q.started != started;
            if (!complete) {
                break;
            }
            pending.poll();
            if (q.onWritten != null) {
                done.add(q.onWritten);
            }
            recycle(q);
        }
        hasPending = !pending.isEmpty();
        return any;
    }

    /** A written frame's header copy and its {@link Pending} go back for reuse; the payload is let go. */
    private void recycle(Pending q) {
        headers.giveBack(q.header);
        q.header = null;
        q.payload = null;
        q.onWritten = null;
        if (spare.size() < SPARE_PENDING) {
            spare.add(q);
        }
    }

    /** Writes what fits of a queued frame; true when it is written completely. */
    private boolean advance(Pending q) {
        long length = FrameLayout.payloadLength(q.header);
        boolean shortHeader = FrameLayout.travelsShort(q.header);
        long record = shortHeader ? ShmLayout.shortRecordBytes(length) : ShmLayout.frameRecordBytes(length);
        if (record <= maxRecord) {
            if (!reserve(record)) {
                return false;
            }
            writeFrame(q.header, q.payload, length, record, shortHeader);
            q.started = true;
            q.written = length;
            return true;
        }
        // a long frame: FIRST (header + the first piece, no padding), then MORE pieces
        if (!q.started) {
            if (!reserve(maxRecord)) {
                return false;
            }
            long piece = maxRecord - ShmLayout.PAYLOAD_OFFSET;
            long off = tail & mask;
            FastCopy.copy(q.header, 0, data, off + ShmLayout.MARKER_BYTES, FrameLayout.HEADER_BYTES);
            FastCopy.copy(q.payload, 0, data, off + ShmLayout.PAYLOAD_OFFSET, piece);
            publish(off, ShmLayout.TYPE_FIRST, maxRecord);
            q.started = true;
            q.written = piece;
        }
        while (q.written < length) {
            long piece = Math.min(length - q.written, maxRecord - ShmLayout.MARKER_BYTES);
            long more = ShmLayout.align(ShmLayout.MARKER_BYTES + piece);
            if (!reserve(more)) {
                return false;
            }
            long off = tail & mask;
            FastCopy.copy(q.payload, q.written, data, off + ShmLayout.MARKER_BYTES, piece);
            publish(off, ShmLayout.TYPE_MORE, more);
            q.written += piece;
        }
        return true;
    }

    /**
     * Makes sure {@code record} bytes can be written contiguously at the tail, writing a WRAP record first when the
     * data area ends too soon or, past {@link #earlyWrapAt}, when {@link #earlyWrap} says so. Returns false when the
     * consumer has not freed enough yet.
     */
    private boolean reserve(long record) {
        long off = tail & mask;
        long contiguous = size - off;
        if (record > lapLargest) {
            lapLargest = record;
        }
        boolean wrap = record > contiguous;
        if (!wrap && tail + record > earlyWrapAt) {
            earlyWrapAt = tail + EARLY_WRAP; // asks again that much later, whatever the answer
            wrap = earlyWrap(off);
        }
        long needed = wrap ? contiguous + record : record;
        if (tail + needed + ShmLayout.ALIGN - headCache > size) {
            if (tail + needed + ShmLayout.ALIGN - refreshedHead() > size) {
                return false;
            }
        }
        if (wrap) {
            publish(off, ShmLayout.TYPE_WRAP, contiguous);
            earlyWrapAt = tail + EARLY_WRAP;
            lapLargest = record;
        }
        return true;
    }

    /**
     * Whether the next record goes to the data area's start now, though it would fit here: the ring is empty, and 16
     * records as large as the largest of this lap fit before {@code off}. The WRAP's bytes count as written until the
     * consumer has read it, so until then the producer has only {@code off} bytes. Judged by the asking record alone
     * (often a control frame's one line), 2-rank allreduces of 64-256 KiB waited for room after such wraps (the next
     * call's message written before the peer had read this one), and the wakes missed in those waits (see
     * {@link ShmTransport}, "Waiting") made them 1.2-2 times slower (2026-12-01). So a lap of messages of up to about
     * 3.5 KiB ends after 64 KiB, of 8 KiB after some 192 KiB (the third look), and one with chunks of 64 KiB at the
     * end of a 1 MiB ring. {@link #reserve} asks again {@link #EARLY_WRAP} bytes later whatever the answer.
     *
     * <p>This and the methods it calls stay within what C1 inlines (35 bytes of bytecode), as {@code InboundRing}'s
     * {@code skipWrap} does: a wrap comes every few hundred messages, so that as methods of their own they were
     * compiled only after a program's first tens of thousands of messages, in the foreground, a stall of both ranks
     * in the middle of a timed loop (8-byte ping-pong, 2,000 round trips that held the compilation: 0.33 us one way
     * against 0.17-0.18 around them); inlined, they are compiled with {@link #reserve}, at its first compilation.
     */
    private boolean earlyWrap(long off) {
        return off >= 16 * lapLargest + ShmLayout.ALIGN && drained();
    }

    /**
     * Whether the consumer has read everything written so far (reads its head when the cached copy says otherwise).
     */
    private boolean drained() {
        return headCache == tail || refreshedHead() == tail;
    }

    /** Reads the consumer's head into {@link #headCache}, and answers it. */
    private long refreshedHead() {
        return headCache = ShmLayout.getAcquire(ringWords, (int) ShmLayout.RING_HEAD);
    }

    /**
     * Writes a record's body. The payload beyond the record's first cache line goes first, and the first line (the
     * marker's: header and the payload's first bytes) last, just before the marker: the consumer polls that line
     * while it waits, so writing it early would pull it back and forth between the cores once more per record. A
     * SHORT record ({@code shortHeader}) carries the header's first 24 bytes only.
     */
    private void writeFrame(MemorySegment header, MemorySegment payload, long length, long record,
            boolean shortHeader) {
        long off = tail & mask;
        long at = shortHeader ? ShmLayout.SHORT_PAYLOAD_OFFSET : ShmLayout.PAYLOAD_OFFSET;
        long inFirstLine = Math.min(length, ShmLayout.ALIGN - at);
        if (length > inFirstLine) {
            FastCopy.copy(payload, inFirstLine, data, off + at + inFirstLine, length - inFirstLine);
        }
        if (shortHeader) {
            ShmLayout.copyShortHeaderIn(header, data, off + ShmLayout.MARKER_BYTES);
        } else {
            ShmLayout.copyHeaderIn(header, data, off + ShmLayout.MARKER_BYTES);
        }
        if (inFirstLine > 0) {
            FastCopy.copy(payload, 0, data, off + at, inFirstLine);
        }
        publish(off, shortHeader ? ShmLayout.TYPE_SHORT : ShmLayout.TYPE_FRAME, record);
    }

    /**
     * Makes the next record's marker word safe (zeroes it unless a record of the last lap started there, see
     * {@link ShmLayout}, "Publication"), notes this record's lines in {@link #starts}, then releases this record's
     * marker and moves the tail past it.
     */
    private void publish(long off, int type, long record) {
        long next = (off + record) & mask;
        int nextLine = (int) (next >>> LINE_SHIFT);
        if ((starts[nextLine >>> 6] & 1L << nextLine) == 0) {
            dataWords.put((int) next >>> 3, 0L);
        }
        noteRecord((int) (off >>> LINE_SHIFT), (int) (record >>> LINE_SHIFT));
        ShmLayout.setRelease(dataWords, (int) off, ShmLayout.marker(type, record, ShmLayout.lapTag(tail, lapShift)));
        tail += record;
    }

    /**
     * In {@link #starts}: a record starts at line {@code first} and covers {@code lines} lines (the others now hold
     * payload or, under a WRAP, whatever an older lap left). Stores only words that change: in a stream of
     * like records nothing here changes from lap to lap.
     */
    private void noteRecord(int first, int lines) {
        int w = first >>> 6;
        long bit = 1L << first;
        long word = starts[w];
        long updated = word | bit;
        if (lines > 1) {
            // clear the bits of lines first+1 .. first+lines-1 (never past the end of the data area)
            int end = first + lines; // exclusive
            int endWord = (end - 1) >>> 6;
            long fromNext = -1L << first << 1; // bits above first in word w (none when first is its bit 63)
            if (endWord == w) {
                long upTo = end % 64 == 0 ? -1L : (1L << end) - 1; // bits below end in word w
                updated &= ~(fromNext & upTo);
            } else {
                updated &= ~fromNext;
                for (int i = w + 1; i < endWord; i++) {
                    if (starts[i] != 0) {
                        starts[i] = 0;
                    }
                }
                long upTo = end % 64 == 0 ? -1L : (1L << end) - 1;
                long last = starts[endWord] & ~upTo;
                if (last != starts[endWord]) {
                    starts[endWord] = last;
                }
            }
        }
        if (updated != word) {
            starts[w] = updated;
        }
    }

    /**
     * Before this process sleeps with frames queued here: asks the consumer to ring our doorbell when it frees room,
     * then says whether room appeared meanwhile (then the caller must not sleep). Caller holds {@link #lock}.
     */
    boolean armSpaceWakeupLocked() {
        if (pending.isEmpty()) {
            return true;
        }
        ShmLayout.setIntVolatile(ring, ShmLayout.RING_PRODUCER_WAITING, 1);
        VarHandle.fullFence();
        long head = ShmLayout.getAcquire(ring, ShmLayout.RING_HEAD);
        return head != headCache;
    }
}
