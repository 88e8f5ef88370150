/**
 * Point-to-point messaging: matching (posted and unexpected queues), the eager and rendezvous protocols, and the
 * in-JVM delivery used in threads mode and for self-sends. This is the only place that knows tags, contexts and
 * ordering; transports below it move bytes only.
 *
 * <p>May import: the JDK, {@code org.jmpi.runtime} (requests, progress, error classes), {@code org.jmpi.datatype},
 * {@code org.jmpi.transport}, {@code org.jmpi.shared}.
 */
package org.jmpi.pt2pt;
