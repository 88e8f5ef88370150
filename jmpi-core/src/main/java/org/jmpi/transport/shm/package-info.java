/**
 * The shared-memory transport: frames between the JVM processes of one host through single-producer single-consumer
 * rings in memory-mapped files under {@code /dev/shm}, waiting on futex doorbells, and a single-copy path
 * ({@code process_vm_readv}) for large messages between native buffers.
 *
 * <p>Entry points: {@link org.jmpi.transport.shm.ShmTransport#open} and {@link org.jmpi.transport.shm.ShmConfig}. The
 * segment and ring layout lives in {@code ShmLayout}; the system calls in {@code LinuxCalls}.
 *
 * <p>May import: {@code java.base}, {@code org.jmpi.transport} (the SPI it implements) and {@code org.jmpi.bootstrap}
 * (business cards, the job id). Nothing above the transport layer.
 */
package org.jmpi.transport.shm;
