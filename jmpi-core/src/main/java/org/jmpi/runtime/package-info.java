/**
 * The runtime of one rank: initialisation and finalisation ({@link org.jmpi.runtime.JmpiRuntime}), the progress
 * engine and waiting policy ({@link org.jmpi.runtime.Progress}), internal requests, communicator state, error
 * classes and the unchecked {@link org.jmpi.runtime.MpiError} that carries them up to package {@code mpi}, and the
 * tuning parameters ({@link org.jmpi.runtime.Config}).
 *
 * <p>May import: the JDK, {@code org.jmpi.bootstrap}, {@code org.jmpi.pt2pt}, {@code org.jmpi.datatype},
 * {@code org.jmpi.transport}, {@code org.jmpi.shared}. Never package {@code mpi}.
 */
package org.jmpi.runtime;
