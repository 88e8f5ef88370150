/**
 * Example MPI programs: {@link org.jmpi.examples.Hello}, {@link org.jmpi.examples.Ring},
 * {@link org.jmpi.examples.PingPong}, {@link org.jmpi.examples.Pi}, and {@link org.jmpi.examples.Jacobi}, a heat
 * equation solver that survives failures through checkpoints ({@code org.jmpi.ft}).
 *
 * <p>May import: package {@code mpi} and the public extension packages of jmpi ({@code org.jmpi.ft}), as any program
 * does; nothing internal.
 */
package org.jmpi.examples;
