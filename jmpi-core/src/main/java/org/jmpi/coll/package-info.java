/**
 * Collective operations: one class per algorithm (its Javadoc gives the idea, the cost in the usual
 * {@code alpha} (latency), {@code beta} (time per byte) and {@code gamma} (reduction time per byte) terms, and its
 * restrictions), the selection policy ({@link org.jmpi.coll.Tuning}, parameters in {@link org.jmpi.coll.CollConfig}),
 * and the {@link org.jmpi.coll.Schedule} that runs every collective, blocking or not, as rounds of point-to-point
 * messages and local steps driven by completion callbacks.
 *
 * <p>Algorithms see a communicator as an {@link org.jmpi.runtime.Communicator} and move data through the internal
 * point-to-point engine ({@link org.jmpi.pt2pt.Engine}) on the communicator's collective context; they never touch
 * a transport. User data arrives as packed message data ({@link org.jmpi.datatype.MessageData}); reductions work on
 * Java arrays through {@link org.jmpi.op.Reduction}.
 *
 * <p>May import: the JDK, {@code org.jmpi.runtime}, {@code org.jmpi.pt2pt}, {@code org.jmpi.datatype},
 * {@code org.jmpi.op}, {@code org.jmpi.shared} (the job-abort error, array segments).
 */
package org.jmpi.coll;
