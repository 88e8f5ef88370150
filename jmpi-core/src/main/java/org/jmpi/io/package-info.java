/**
 * MPI-IO: files opened collectively by the processes of a communicator, read and written through file views, as
 * ROMIO and OMPIO do it. {@link org.jmpi.io.OpenFile} is one rank's side of an open file; package {@code mpi}'s
 * {@code File} is a thin facade over it. Views ({@link org.jmpi.io.View}) are compiled from the datatype plans of
 * {@link org.jmpi.datatype}: a byte range of the view maps to file runs through the same plan walk that packs
 * messages. Independent noncontiguous access uses data sieving ({@link org.jmpi.io.Sieve}); collective access uses
 * two-phase I/O with aggregators ({@link org.jmpi.io.TwoPhase}); the shared file pointer lives in a locked side
 * file ({@link org.jmpi.io.SharedPointer}) so that every process on every host sees the same one; byte-range locks
 * ({@link org.jmpi.io.RangeLock}) combine an in-JVM lock with an operating-system lock. docs/io.md is the user's
 * guide (hints, consistency, atomic mode).
 *
 * <p>May import: the JDK, {@code org.jmpi.runtime}, {@code org.jmpi.pt2pt}, {@code org.jmpi.coll},
 * {@code org.jmpi.datatype}, {@code org.jmpi.shared} (the JVM-wide lock table).
 */
package org.jmpi.io;
