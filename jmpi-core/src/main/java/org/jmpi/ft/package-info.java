/**
 * Fault tolerance for MPI programs, above package {@code mpi}.
 *
 * <p><b>Coordinated checkpoint/restart.</b> {@link org.jmpi.ft.Checkpoint}: every rank of a communicator registers
 * its state (primitive arrays, {@code ByteBuffer}s, {@code Serializable} objects) and calls a collective
 * {@link org.jmpi.ft.Checkpoint#checkpoint()} at a consistent point; the library writes every rank's part and a
 * manifest atomically (temporary files, fsync, rename), keeps the last K complete generations, and on restart
 * ({@link org.jmpi.ft.Checkpoint#restore()}) hands every rank its state back. {@link org.jmpi.ft.StoredCheckpoint}
 * reads any rank's part of a stored generation, for programs that re-partition their data after a restart with
 * another number of ranks. {@code jmpirun -ckpoint-prefix DIR --restart-on-failure K} relaunches a failed job from the
 * newest complete generation. The on-disk format is {@link org.jmpi.ft.CheckpointLayout}'s. User guide:
 * docs/fault-tolerance.md.
 *
 * <p><b>User-level failure mitigation (ULFM).</b> {@link org.jmpi.ft.Ulfm}: revoke, agree, shrink, and the failed
 * processes of a communicator, for programs that carry on after a failure under {@code jmpirun
 * --continue-on-failure}. Its machinery lives below the API (org.jmpi.runtime.Failures and Revocation,
 * org.jmpi.comm.FaultTolerance, jmpirun's AgreementCoordinator); it reaches communicators through
 * org.jmpi.runtime.FacadeAccess.
 *
 * <p>May import: the JDK, package {@code mpi} (its public API, as any program uses it), and
 * {@code org.jmpi.runtime.MpiError}/{@code ErrorClass} only to give an {@code MPIException} its error class; the
 * checkpoint classes nothing more (LayeringTest checks it), {@code Ulfm} also org.jmpi.comm.FaultTolerance and the
 * runtime's Communicator and FacadeAccess. Nothing under {@code org.jmpi} calls into this package.
 */
package org.jmpi.ft;
