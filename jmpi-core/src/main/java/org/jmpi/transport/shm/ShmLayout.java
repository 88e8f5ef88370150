package org.jmpi.transport.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import org.jmpi.shared.FastCopy;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.Lane;

/**
 * The bytes of a shared-memory segment. Every offset the transport uses is defined here; no other class computes one.
 * All integers are in the machine's native order (both ends are on one host).
 *
 * <p>Each rank owns one segment, the file {@code <dir>/jmpi-<job id>-<world rank>} (mode 0600), created at start-up.
 * It holds one inbound ring per other rank of the host, in the order of the senders' <em>local index</em> (their
 * position among the host's ranks in world-rank order), the owner left out ({@link #slot}). A sender maps the
 * receiver's segment on its first frame to it and is the only producer of its ring there; the owner is the only
 * consumer of all of them.
 *
 * <pre>
 * segment:
 *  0                 4096                4096 + R            4096 + 2R
 *  +-----------------+-------------------+-------------------+----
 *  | segment header  | ring of slot 0    | ring of slot 1    | ...   (R = RING_HEADER_BYTES + ring data bytes)
 *  +-----------------+-------------------+-------------------+----
 *
 * segment header (one page):
 *  0       8       12      16              24      28      32              40              48              64
 *  +-------+-------+-------+---------------+-------+-------+---------------+---------------+---------------+
 *  | magic |version| owner | owner pid     | rings |  -    | ring data     | owner's map   | probe token   |
 *  | (u64) | (u32) | rank  | (u64)         | (u32) |       | bytes (u64)   | address (u64) | (2 x u64)     |
 *  +-------+-------+-------+---------------+-------+-------+---------------+---------------+---------------+
 *  64              72      76      80              88
 *  +---------------+-------+-------+---------------+
 *  | owner start   |peers  |  -    | owner pid     |
 *  | (u64, ms)     |mapped |       | namespace(u64)|
 *  +---------------+-------+-------+---------------+
 *  128: doorbell (u32, a futex word alone on its cache line): 0 owner awake, 1 owner may be asleep; the 4 bytes
 *  after it stay zero (senders read it as a u64)
 *
 *  owner start: the owner process's start time (epoch ms, as ProcessHandle reports it); with the owner pid and the
 *  inode of its pid namespace it tells a later job whether the owner still runs (a stale file is removed).
 *  peers mapped: incremented (atomically) by every rank that maps the segment; the one that brings it to rings - 1
 *  (every other rank of the host) removes the file: from then on nothing is left in the directory.
 *
 * ring (one per sender):
 *  0                         128                       256
 *  +-------------------------+-------------------------+-------------------------------------------+
 *  | producer line:          | consumer line:          | data: records, 64-byte aligned,           |
 *  |  0 attached pid (u64)   |  0 head (u64, absolute  |       ring data bytes (a power of two)    |
 *  |                         |    bytes consumed)      |                                           |
 *  |                         |  8 producer waiting(u32,|                                           |
 *  |                         |    read as u64: 12-15 0)|                                           |
 *  |                         | 16 read (u64, ticket of |                                           |
 *  |                         |    the last ADDRESS     |                                           |
 *  |                         |    record read)         |                                           |
 *  +-------------------------+-------------------------+-------------------------------------------+
 *
 * record (never wraps around the end of the data area; 64-byte aligned; at most half the data area):
 *  0       8                                        56
 *  +-------+----------------------------------------+--------------------------+-----------+
 *  |marker | frame header (FrameLayout, 48 bytes)   | payload                  | padding   |  FRAME, FIRST
 *  +-------+----------------------------------------+--------------------------+-----------+
 *  |marker | header's first 24 bytes | payload                                 | padding   |  SHORT
 *  +-------+-------------------------+-----------------------------------------+-----------+
 *  |marker | header's first 24 bytes | address (u64) | ticket (u64) | padding (64 bytes in all) |  ADDRESS
 *  +-------+-------------------------+---------------+--------------+---------------------------+
 *  |marker | piece of a long payload                                         | padding   |  MORE
 *  +-------+--------------------------------------------------------------------------------+
 *  |marker | (nothing: the rest of the data area is skipped; the next record is at offset 0) |  WRAP
 *  +-------+--------------------------------------------------------------------------------+
 *  marker (u64) = lap tag &lt;&lt; 40 | type &lt;&lt; 32 | record length in bytes (incl. marker and padding)
 *  lap tag (24 bits) = (absolute position / data bytes) mod 2^23, plus 2^23 (never 0)
 * </pre>
 *
 * <p>A WRAP is written where the next record does not fit before the data area's end, or earlier, when the ring is
 * empty and the producer goes back to the start to stay on the pages it has used ({@code OutboundRing#EARLY_WRAP}).
 *
 * <p><b>Short headers.</b> A frame whose header has no send and receive ids and whose total is its payload (an eager
 * message, most control frames) travels as a SHORT record: the header's first 24 bytes (payload length, kind,
 * context, source, tag, flags); the consumer restores the rest. Up to 32 payload bytes then share the record's first
 * cache line with the marker (8 with the whole header), so a message of 9 to 32 bytes takes one line instead of two.
 *
 * <p><b>Address records.</b> A blocking send of a large message in native memory may leave its payload where it is:
 * an ADDRESS record carries a SHORT record's header words (the payload length is the message's), the payload's
 * address in the producer's process and a ticket (1, 2, 3, ... per ring). The consumer copies the payload straight
 * out of the producer's memory ({@code process_vm_readv}) into the receive buffer, or into a buffer of its own when
 * no receive takes it yet, stores the ticket in the ring's {@code read} word (release) before it publishes the new
 * head, and wakes the producer if it asked; the producer's send returns once {@code read} has reached its ticket.
 *
 * <p><b>Publication.</b> The producer writes a record's body, then makes sure that the word where the <em>next</em>
 * record will start cannot be taken for a record of the next record's lap, then stores the marker with release
 * semantics. The consumer loads the marker at its head with acquire semantics: a marker with the lap tag of its head
 * means the body is complete; anything else (zero, a marker of the previous lap) means nothing is there yet. The word
 * at the next record's start holds either a marker the producer wrote there one lap before (a record started there:
 * its tag is the previous lap's, and the producer remembers such places in a bitmap of the last lap's record starts)
 * or something else (payload of a longer record, an untouched line under a WRAP): only then is it zeroed. So a stream
 * of records of one size, where every place is a record start lap after lap, stores to no line but the records' own,
 * and the line the waiting consumer polls is written once per record, not twice. A message of up to 32 payload
 * bytes is one 64-byte record: one cache line. (Version 3 zeroed the next marker word for every record.)
 *
 * <p><b>Space.</b> Positions are absolute byte counts that never wrap (2^63 bytes are not reached). The producer may
 * write while {@code tail + needed + 64 <= head + data bytes} (the extra line is the zeroed next marker); it reads the
 * consumer's {@code head} only when its cached copy says the ring is full. A producer that finds no room sets
 * {@code producer waiting} before it sleeps; the consumer, after it publishes a new head, clears it and rings the
 * producer's doorbell.
 *
 * <p><b>Frames larger than a record.</b> A frame whose payload does not fit in half the data area travels as a FIRST
 * record (header and the first {@code length - 56} payload bytes, no padding) and MORE records (the rest, each piece
 * {@code min(remaining, length - 8)} bytes); the consumer reassembles them. The point-to-point layer normally keeps
 * its frames small enough for one record (see {@link ShmConfig}).
 */
final class ShmLayout {
    private ShmLayout() {}

    static final long MAGIC = 0x314d_4853_4950_4d4aL; // "JMPISHM1" in little-endian byte order
    static final int VERSION = 6; // 6: ADDRESS records; 5: a ring per other rank of the host

    static final long SEGMENT_HEADER_BYTES = 4096;
    static final long MAGIC_OFFSET = 0;
    static final long VERSION_OFFSET = 8;
    static final long OWNER_RANK = 12;
    static final long OWNER_PID = 16;
    static final long RING_COUNT = 24;
    static final long RING_DATA_BYTES = 32;
    static final long OWNER_MAP_ADDRESS = 40;
    static final long PROBE_TOKEN = 48;
    static final long PROBE_TOKEN_BYTES = 16;
    static final long OWNER_START = 64;
    static final long PEERS_MAPPED = 72;
    static final long OWNER_PID_NAMESPACE = 80;
    static final long DOORBELL = 128;

    static final long RING_HEADER_BYTES = 256;
    static final long RING_ATTACHED_PID = 0;
    static final long RING_HEAD = 128;
    static final long RING_PRODUCER_WAITING = 136;
    /** The ticket of the last ADDRESS record whose payload the consumer has read (u64, release store). */
    static final long RING_READ = 144;

    static final int ALIGN = 64;
    static final long MARKER_BYTES = 8;
    /** Where a FRAME or FIRST record's payload starts. */
    static final long PAYLOAD_OFFSET = MARKER_BYTES + FrameLayout.HEADER_BYTES;

    static final int TYPE_FRAME = 1;
    static final int TYPE_WRAP = 2;
    static final int TYPE_FIRST = 3;
    static final int TYPE_MORE = 4;
    static final int TYPE_SHORT = 5;
    static final int TYPE_ADDRESS = 6;

    /** Header bytes a SHORT record carries, and where its payload starts. */
    static final int SHORT_HEADER_BYTES = FrameLayout.SHORT_HEADER_BYTES;
    static final long SHORT_PAYLOAD_OFFSET = MARKER_BYTES + SHORT_HEADER_BYTES;

    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    /**
     * A SHORT record's header words as {@link Lane} writes and reads them: the frame header's first 24 bytes
     * (little-endian fields, {@link FrameLayout}) as three aligned little-endian longs: payload length | kind &lt;&lt; 32,
     * context | source &lt;&lt; 32, tag | flags &lt;&lt; 32.
     */
    static final ValueLayout.OfLong ENVELOPE = ValueLayout.JAVA_LONG.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    /** Two ints of a header as one of {@link #ENVELOPE}'s words. */
    static long envelopeWord(int low, int high) {
        return low & 0xffff_ffffL | (long) high << 32;
    }
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    /** Coordinates (MemorySegment, long offset); aligned accesses only. */
    static final VarHandle LONG_HANDLE = LONG.varHandle();
    static final VarHandle INT_HANDLE = INT.varHandle();

    /** Bytes of one ring: header plus data. */
    static long ringBytes(long dataBytes) {
        return RING_HEADER_BYTES + dataBytes;
    }

    /** Size of a segment with {@code rings} rings of {@code dataBytes} each. */
    static long segmentBytes(int rings, long dataBytes) {
        return SEGMENT_HEADER_BYTES + rings * ringBytes(dataBytes);
    }

    /**
     * The ring of a segment owned by the host's rank of local index {@code owner} into which the rank of local index
     * {@code sender} writes: a segment has one ring per other rank of the host, in local order.
     */
    static int slot(int sender, int owner) {
        return sender < owner ? sender : sender - 1;
    }

    /** The rings of a segment on a host of {@code localRanks} ranks (one per other rank; one at least). */
    static int rings(int localRanks) {
        return Math.max(1, localRanks - 1);
    }

    /** Offset of ring {@code index} in a segment. */
    static long ringOffset(int index, long dataBytes) {
        return SEGMENT_HEADER_BYTES + index * ringBytes(dataBytes);
    }

    /** Record bytes for a frame with this payload length (FRAME type), 64-byte aligned. */
    static long frameRecordBytes(long payload) {
        return align(PAYLOAD_OFFSET + payload);
    }

    /** Where an ADDRESS record's payload address and its ticket are. */
    static final long ADDRESS_AT = SHORT_PAYLOAD_OFFSET;
    static final long TICKET_AT = ADDRESS_AT + 8;
    /** Bytes of an ADDRESS record: one cache line. */
    static final long ADDRESS_RECORD_BYTES = ALIGN;

    /**
     * The largest payload an ADDRESS record may name on a ring of {@code ringDataBytes}: four times the ring. The
     * payload stays in the producer's memory, so the ring's size does not bound it; this bound is the consumer's check
     * of a record's length (a message it reads before its receive is posted goes through a buffer of that size) and
     * the producer's limit. The sender bounds it further: above the lane's short payloads only an exchange's message
     * goes by address, up to a quarter of the flow window ({@code Engine.sendNowDeferred}; 1 MiB by default).
     */
    static long addressPayloadMax(long ringDataBytes) {
        return Math.min(4 * ringDataBytes, Integer.MAX_VALUE - ALIGN);
    }

    /** Record bytes for a SHORT record with this payload length, 64-byte aligned. */
    static long shortRecordBytes(long payload) {
        return align(SHORT_PAYLOAD_OFFSET + payload);
    }

    static long align(long n) {
        return (n + ALIGN - 1) & -ALIGN;
    }

    /**
     * The lap tag of a record at absolute position {@code position} in a data area of {@code 1 << shift} bytes: the
     * lap's low 23 bits with bit 23 set, so that no tag is 0 and a zeroed marker word never matches one.
     */
    static long lapTag(long position, int shift) {
        return (position >>> shift) & 0x7f_ffffL | 0x80_0000L;
    }

    static long marker(int type, long length, long lapTag) {
        return lapTag << 40 | (long) type << 32 | length;
    }

    /** Whether {@code marker} is a record's of the lap whose tag is {@code lapTag} (else nothing is there yet). */
    static boolean isOfLap(long marker, long lapTag) {
        return marker >>> 40 == lapTag;
    }

    static int markerType(long marker) {
        return (int) (marker >>> 32) & 0xff;
    }

    static long markerLength(long marker) {
        return marker & 0xffff_ffffL;
    }

    /**
     * Copies a 48-byte frame header with one bulk copy: before C2 has compiled the path, much cheaper than six
     * single-word accesses through var handles on each side (see {@link #words}). Through {@link FastCopy}, whose
     * small copies every payload already takes: the JDK's plain {@code MemorySegment.copy} is a method of its own that
     * the JIT would compile (tier 3, 36 KB of code, milliseconds) only once frames start to flow, in the middle of a
     * program's loop (2026-11-28: the first credit frames of a cold 64 KiB ping-pong, a 5-6 ms stall).
     */
    static void copyHeaderIn(MemorySegment header, MemorySegment ring, long offset) {
        copyIn(header, ring, offset, FrameLayout.HEADER_BYTES);
    }

    private static void copyIn(MemorySegment header, MemorySegment ring, long offset, int bytes) {
        FastCopy.copy(header, 0, ring, offset, bytes);
    }

    private static void copyOut(MemorySegment ring, long offset, MemorySegment header, int bytes) {
        FastCopy.copy(ring, offset, header, 0, bytes);
    }

    static void copyShortHeaderIn(MemorySegment header, MemorySegment ring, long offset) {
        copyIn(header, ring, offset, SHORT_HEADER_BYTES);
    }

    /** The reverse of {@link #copyShortHeaderIn}, restoring the rest: total = payload length, no ids. */
    static void copyShortHeaderOut(MemorySegment ring, long offset, MemorySegment header) {
        copyOut(ring, offset, header, SHORT_HEADER_BYTES);
        FrameLayout.restoreShort(header);
    }

    /** The reverse of {@link #copyHeaderIn}: from the ring into {@code header}. */
    static void copyHeaderOut(MemorySegment ring, long offset, MemorySegment header) {
        copyOut(ring, offset, header, FrameLayout.HEADER_BYTES);
    }

    /**
     * A view of {@code s} as words (index = byte offset / 8), in the machine's order as everything here, for the
     * words read and written on every message: markers, envelopes, the head. A memory segment's access goes through a
     * var handle, which costs several times as much in the interpreter and in C1's code (which runs jmpi's runtime),
     * and compiles into many more methods: the cost of a program's first thousands of messages. A direct buffer's is
     * a short chain of static methods down to {@code Unsafe}'s intrinsic, and a {@code LongBuffer}'s binds
     * statically in C1 (the JVM loads one implementation of it, the native-order direct one, unless a program makes
     * another kind or the envelope's order is not the machine's): C1's code calls its {@code get} and {@code put}
     * (36 and 39 bytes, over C1's inlining limit of 35), two small JDK methods that the JIT compiles once, with C2.
     * Until 2026-12-06 a compile command had C1 inline them, and with them the JDK's chain, at each of some forty
     * places, and C1's compilations of jmpi's methods, which fall in the first iterations of a program's loop, took a
     * third longer (the conjugate gradient's: 0.057 s a rank against 0.043, 135 KB of code against 118). Cold, without
     * it (6 interleaved gated rounds): Jacobi 256^2 0.91 of the time, conjugate gradient 0.96, N-body 1.00, the 8-byte
     * ping-pong after a barrier 0.86, OMB-J 0.97-1.01. Through {@code ByteBuffer} each was a virtual call (a {@code
     * ByteBuffer}'s writes cannot bind statically: the read-only buffer overrides them). Should a program load
     * another kind of {@code LongBuffer}, C1's code that bound these calls is compiled again once. Acquire and
     * release come from fences around plain accesses ({@link #getAcquire(LongBuffer, int)}, {@link
     * #setRelease(LongBuffer, int, long)}). Rings are at most 64 MiB, so an int indexes them; every word is at a
     * multiple of 8 (records start at multiples of {@link #ALIGN}).
     */
    static LongBuffer words(MemorySegment s) {
        return s.asByteBuffer().order(ByteOrder.nativeOrder()).asLongBuffer();
    }

    /** As {@link #words}, in the envelope's order ({@link #ENVELOPE}). */
    static LongBuffer envelopeWords(MemorySegment s) {
        return s.asByteBuffer().order(ENVELOPE.order()).asLongBuffer();
    }

    /** The word at byte {@code offset} (a multiple of 8) with acquire semantics: a plain load, then a fence. */
    static long getAcquire(LongBuffer b, int offset) {
        long v = b.get(offset >>> 3);
        VarHandle.acquireFence();
        return v;
    }

    /** The word at byte {@code offset} (a multiple of 8) with release semantics: a fence, then a plain store. */
    static void setRelease(LongBuffer b, int offset, long value) {
        VarHandle.releaseFence();
        b.put(offset >>> 3, value);
    }

    static long getAcquire(MemorySegment s, long offset) {
        return (long) LONG_HANDLE.getAcquire(s, offset);
    }

    static void setRelease(MemorySegment s, long offset, long value) {
        LONG_HANDLE.setRelease(s, offset, value);
    }

    static long getVolatile(MemorySegment s, long offset) {
        return (long) LONG_HANDLE.getVolatile(s, offset);
    }

    static void setVolatile(MemorySegment s, long offset, long value) {
        LONG_HANDLE.setVolatile(s, offset, value);
    }

    static int getIntVolatile(MemorySegment s, long offset) {
        return (int) INT_HANDLE.getVolatile(s, offset);
    }

    static void setIntVolatile(MemorySegment s, long offset, int value) {
        INT_HANDLE.setVolatile(s, offset, value);
    }

    static boolean casInt(MemorySegment s, long offset, int expected, int value) {
        return INT_HANDLE.compareAndSet(s, offset, expected, value);
    }
}
