/**
 * The transport SPI: {@link org.jmpi.transport.Transport} moves frames (a fixed header described by
 * {@link org.jmpi.transport.FrameLayout}, plus a payload) between ranks and hands arriving frames to a
 * {@link org.jmpi.transport.FrameSink}. Transports know nothing of MPI semantics.
 *
 * <p>May import: the JDK and {@code org.jmpi.bootstrap} (to publish and find business cards).
 */
package org.jmpi.transport;
