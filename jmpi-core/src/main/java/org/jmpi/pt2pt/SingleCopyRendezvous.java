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
 * <p><b>Cost.</b> One RTS, one read of {@code n} bytes by the receiver (a system call plus a memory-bandwidth copy),
 * one DONE: about {@code 2 alpha + syscall + n / memory bandwidth}, against {@code 3 alpha + 2 n / bandwidth} for two
 * copies (pipelined chunks overlap the two copies, so in practice somewhat less).
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

    /** The eager limit for messages to {@code peer}: the transport's hint, else {@code configured}. */
    static long eagerLimit(Transport t, int peer, long configured) {
        if (t instanceof ProtocolHints h) {
            long v = h.eagerLimit(peer);
            return v < 0 ? configured : v;
        }
        return configured;
    }

    /** The data chunk size for rendezvous data to {@code peer}: the transport's hint, else {@code configured}. */
    static long chunkBytes(Transport t, int peer, long configured) {
        if (t instanceof ProtocolHints h) {
            long v = h.chunkBytes(peer);
            return v <= 0 ? configured : v;
        }
        return configured;
    }
}
