/**
 * A parameter server on jmpi point-to-point messages, the alternative to all-reduce for data-parallel training.
 *
 * <p>May import: the JDK, package {@code mpi} and {@code org.jmpi.dl.nn}.
 */
package org.jmpi.dl.ps;
