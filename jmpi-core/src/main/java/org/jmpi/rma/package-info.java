/**
 * One-sided communication (MPI windows): the runtime side of {@code mpi.Win}. A {@link org.jmpi.rma.Window} holds a
 * rank's exposed memory, the sizes and displacement units of every rank, the origin's epoch state and the target's
 * request server. Every operation travels as an active message through the point-to-point {@link
 * org.jmpi.pt2pt.Engine} on the private context of the window's own communicator (a duplicate of the user's), and
 * is served at the target by completion callbacks of a posted receive: in threads mode in the origin's own thread, so
 * the origin works on the target's memory itself; between processes in whichever thread drives the target's
 * transports, which while a window may be a passive target includes the {@link org.jmpi.rma.PassiveProgress} thread.
 * Wire layout: {@link org.jmpi.rma.RmaHeaderLayout}. Public extension: {@link org.jmpi.rma.Windows}.
 *
 * <p>May import: the JDK, {@code org.jmpi.runtime}, {@code org.jmpi.pt2pt}, {@code org.jmpi.datatype},
 * {@code org.jmpi.op}, {@code org.jmpi.coll} (barrier and allgather on the window's communicator),
 * {@code org.jmpi.bootstrap} (which ranks share a host). Never package {@code mpi}, never a transport.
 */
package org.jmpi.rma;
