package org.jmpi.pt2pt;

import java.lang.foreign.MemorySegment;
import org.jmpi.datatype.MessageData;
import org.jmpi.transport.ProtocolHints;
import org.jmpi.transport.SingleCopy;
import org.jmpi.transport.Transport;

/**
 * The rendezvous variant that moves a message with one copy, for transports with the {@link SingleCopy} capability
 * (shared memory between processes of one host, through {@code process_vm_readv}), and the per-peer protocol sizes of
 * transports with {@link ProtocolHints}.
 *
 * <p><b>Idea.</b> A sender whose message is one contiguous run of native memory puts the run's address into its RTS
 * ({@link Protocol#FLAG_SINGLE_COPY}, address in {@code RECV_ID}). When the receiver matches it and its own buffer is
 * one contiguous run of native memory too, it reads the bytes it wants straight from the sender's memory and answers
 * DONE, which completes the send. In every other case (heap arrays, derived datatypes with gaps, a kernel that says
 * no) the receiver answers CTS and the data travels in chunks as usual, so nothing is lost but one system call.
 *
 * <p><b>Split copy.</b> One process copies at about 15 GB/s on the project's machine, less than the memory system
 * allows, so for messages of at least the transport's {@link SingleCopy#splitMin} the receiver asks the sender
 * (SPLIT, with its own buffer's address) to write the second half into the receiver's buffer itself while the
 * receiver reads the first half; the sender answers WROTE when its half is in, the receiver DONE when it has read its
 * half, and each side completes when both halves are done. If the sender's write is refused it sends its half as
 * DATA frames instead; if the receiver's read is refused it asks for its half with a CTS for that range. A receiver
 * with a rendezvous send of its own in flight (an exchange) reads the whole message itself: the sender is busy then.
 *
 * <p><b>Cost.</b> One RTS, one read of {@code n} bytes by the receiver (a system call plus a memory-bandwidth copy),
 * one DONE: about {@code 2 alpha + syscall + n / memory bandwidth}, against {@code 3 alpha + 2 n / bandwidth} for two
 * copies (pipelined chunks overlap the two copies, so in practice somewhat less). Split: {@code 3 alpha + syscall +
 * n / (2 x memory bandwidth per core)}.
 *
 * <p><b>Restrictions.</b> Java arrays live on the heap, where the garbage collector may move them, so their addresses
 * cannot be handed to another process: programs that want the single-copy path use direct buffers. The sender's
 * buffer must not change until the send completes, which MPI requires anyway.
 *
 * <p>Threading: stateless.
 */
final class SingleCopyRendezvous {
    private SingleCopyRendezvous() {}

    /** The native address the sender may offer for {@code data} to {@code peer}, or 0 when it must not. */
    static long offer(Transport t, int peer, MessageData data) {
        if (!(t instanceof SingleCopy sc) || data.bytes() == 0) {
            return 0;
        }
        MemorySegment c = data.contiguous();
        if (c == null || !c.isNative() || c.address() == 0 || !sc.canReadFrom(peer)) {
            return 0;
        }
        return c.address();
    }

    /**
     * Receiver side: reads the first {@code wanted} bytes of the sender's buffer at {@code address} straight into
     * {@code into}. Returns false when that is not possible (the caller then answers CTS).
     */
    static boolean receive(Transport t, int peer, long address, MessageData into, long wanted) {
        if (address == 0 || wanted <= 0 || !(t instanceof SingleCopy sc)) {
            return false;
        }
        MemorySegment c = into.contiguous();
        if (c == null || !c.isNative() || c.byteSize() < wanted) {
            return false;
        }
        return sc.read(peer, address, c.asSlice(0, wanted));
    }

    /**
     * Receiver side of a split copy: the receive buffer when the first {@code wanted} bytes of a message from
     * {@code peer} should be copied by both processes (the transport allows it, the message is long enough, our
     * buffer is contiguous native memory), else null.
     */
    static MemorySegment splitTarget(Transport t, int peer, MessageData into, long wanted) {
        if (!(t instanceof SingleCopy sc)) {
            return null;
        }
        long min = sc.splitMin(peer);
        if (min < 0 || wanted < min) {
            return null;
        }
        MemorySegment c = into.contiguous();
        if (c == null || !c.isNative() || c.byteSize() < wanted || !sc.canReadFrom(peer)) {
            return null;
        }
        return c;
    }

    /** Where a split copy of {@code wanted} bytes divides: about half, at a page boundary. */
    static long splitPoint(long wanted) {
        long k = (wanted / 2) & -4096L;
        return k == 0 ? wanted / 2 : k;
    }

    /** Reads {@code into.byteSize()} bytes from the peer's memory; false when not possible. */
    static boolean read(Transport t, int peer, long address, MemorySegment into) {
        return t instanceof SingleCopy sc && sc.read(peer, address, into);
    }

    /** Writes {@code from} into the peer's memory at {@code address}; false when not possible. */
    static boolean write(Transport t, int peer, MemorySegment from, long address) {
        return t instanceof SingleCopy sc && sc.write(peer, from, address);
    }

    /** The eager limit for messages to {@code peer}: the transport's hint, else {@code configured}. */
    static long eagerLimit(Transport t, int peer, long configured) {
        if (t instanceof ProtocolHints h) {
            long v = h.eagerLimit(peer);
            return v < 0 ? configured : v;
        }
        return configured;
    }

    /** The largest message to stream to {@code peer} (see {@link ProtocolHints#streamLimit}); -1: never. */
    static long streamLimit(Transport t, int peer) {
        return t instanceof ProtocolHints h ? h.streamLimit(peer) : -1;
    }

    /** Smallest chunk {@link #pipelinedChunk} makes. */
    static final long MIN_PIPELINED_CHUNK = 16 << 10;

    /**
     * The chunk size for {@code bytes} of rendezvous data when chunks of {@code chunk} are the most: at most half the
     * data (not below {@link #MIN_PIPELINED_CHUNK}, 4 KiB aligned), so that even a message of one or two chunks
     * travels as at least two, and the receiver copies the first out while the sender copies the second in.
     */
    static long pipelinedChunk(long chunk, long bytes) {
        long half = ((bytes + 1) / 2 + 4095) & -4096L;
        return Math.min(chunk, Math.max(MIN_PIPELINED_CHUNK, half));
    }

    /**
     * The frame size for {@code bytes} of rendezvous or streamed data to {@code peer}: the transport's chunk size (else
     * {@code configured}), {@link #pipelinedChunk pipelined} unless the transport says it need not be
     * ({@link ProtocolHints#splitsData}).
     */
    static long dataChunk(Transport t, int peer, long configured, long bytes) {
        if (t instanceof ProtocolHints h) {
            long v = h.chunkBytes(peer);
            long chunk = v <= 0 ? configured : v;
            return h.splitsData(peer) ? pipelinedChunk(chunk, bytes) : chunk;
        }
        return pipelinedChunk(configured, bytes);
    }
}
