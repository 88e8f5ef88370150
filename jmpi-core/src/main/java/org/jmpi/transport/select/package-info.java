/**
 * Transport choice per peer: {@link org.jmpi.transport.select.Transports#open} opens shared memory for the ranks of
 * this host and TCP for the others (or TCP only, when {@code jmpi.transport=tcp}), and
 * {@link org.jmpi.transport.select.SelectingTransport} routes each frame to the transport chosen for its peer, polls
 * them and waits on them as one. Messages to oneself never reach a transport (the point-to-point engine delivers them).
 *
 * <p>May import: {@code java.base}, {@code org.jmpi.transport} and its implementations, {@code org.jmpi.bootstrap}.
 */
package org.jmpi.transport.select;
