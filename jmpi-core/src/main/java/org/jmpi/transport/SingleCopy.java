package org.jmpi.transport;

import java.lang.foreign.MemorySegment;

/**
 * Optional capability of a {@link Transport}: this process may read a peer's memory directly (on Linux,
 * {@code process_vm_readv}), so that a large message moves with one copy, from the sender's buffer straight into the
 * receiver's, instead of two copies through a shared buffer.
 *
 * <p>Protocol use (the point-to-point layer's business): a sender whose buffer is native memory names its address
 * in the rendezvous request; the receiver reads it with {@link #read} into its own native buffer and tells the sender
 * it is done. For long messages the two processes may split the copy: the receiver reads the first half while the
 * sender writes the second half into the receiver's buffer with {@link #write}. If {@link #read} returns {@code false} the receiver falls back to the ordinary rendezvous (clear to
 * send, data frames), so a kernel that forbids the call (ptrace restrictions, seccomp in containers) costs one failed
 * attempt per peer and nothing else.
 *
 * <p>Threading: any thread may call any method.
 */
public interface SingleCopy {
    /**
     * Whether {@link #read} may work for {@code peer}: false once it has failed for that peer, or when the transport
     * to that peer cannot do it at all. A sender asks this before it offers its buffer's address.
     */
    boolean canReadFrom(int peer);

    /**
     * Copies {@code into.byteSize()} bytes from address {@code remoteAddress} in the process of {@code peer} into
     * {@code into} (native memory of this process).
     *
     * @return true when every byte was copied; false when the kernel refused (then {@link #canReadFrom} answers false
     *     for this peer from now on, and nothing was promised about {@code into}'s content)
     */
    boolean read(int peer, long remoteAddress, MemorySegment into);

    /**
     * Copies {@code from} (native memory of this process) to address {@code remoteAddress} in the process of
     * {@code peer} ({@code process_vm_writev}).
     *
     * @return true when every byte was copied; false when the kernel refused (then {@link #canReadFrom} answers false
     *     for this peer from now on)
     */
    boolean write(int peer, MemorySegment from, long remoteAddress);

    /**
     * Messages to or from {@code peer} of at least this many bytes may be copied by both processes at once, each one
     * half ({@link #read} by the receiver, {@link #write} by the sender); -1: never.
     */
    long splitMin(int peer);
}
