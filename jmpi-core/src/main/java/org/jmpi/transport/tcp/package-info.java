/**
 * The TCP transport: frames between JVM processes (normally on different hosts) over non-blocking NIO sockets, one
 * selector per rank driven by the runtime's progress thread, connections made lazily on first send.
 *
 * <p>Entry points: {@link org.jmpi.transport.tcp.TcpTransport#open} and {@link org.jmpi.transport.tcp.TcpConfig}.
 * The wire layout (hello, frames) lives in {@code TcpLayout}.
 *
 * <p>May import: {@code java.base}, {@code org.jmpi.transport} (the SPI it implements) and
 * {@code org.jmpi.bootstrap} (to publish and read business cards). Nothing above the transport layer.
 */
package org.jmpi.transport.tcp;
