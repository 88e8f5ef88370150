/**
 * Communicator machinery below package {@code mpi}: context-id agreement ({@link org.jmpi.comm.ContextIds}), the
 * small collectives communicator creation needs ({@link org.jmpi.comm.GroupCollectives}), the non-blocking agreement
 * behind MPI_Comm_idup ({@link org.jmpi.comm.AsyncContextAgreement}), the rank computations of split
 * ({@link org.jmpi.comm.SplitPlan}), the construction of intercommunicators ({@link org.jmpi.comm.Intercomms}) and the
 * chains of schedules their collectives run as ({@link org.jmpi.comm.ScheduleChain}).
 *
 * <p>May import: the JDK, {@code org.jmpi.runtime}, {@code org.jmpi.pt2pt}, {@code org.jmpi.datatype},
 * {@code org.jmpi.op}, {@code org.jmpi.coll}.
 */
package org.jmpi.comm;
