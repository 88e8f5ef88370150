/**
 * MPI dynamic process management: ports and connect/accept ({@link org.jmpi.dpm.PortConnection}), the name service
 * client ({@link org.jmpi.dpm.NameServiceClient}), spawn ({@link org.jmpi.dpm.Spawner}) and the table of processes of
 * other jobs this rank is connected to ({@link org.jmpi.dpm.ProcessTable}). {@link org.jmpi.dpm.DynamicProcesses} is
 * the entry point package {@code mpi} calls.
 *
 * <p>Processes of other jobs get peer indices from the world size up (world ranks keep theirs), so communicators,
 * the point-to-point engine and the transports address them like world ranks; the TCP transport reaches them with
 * the card and link token agreed at connect time (see docs/architecture.md, "Dynamic processes"). In threads mode the
 * children of a spawn are a threads-mode job of the same JVM ({@link org.jmpi.dpm.ThreadsSpawner}) and messages go
 * from engine to engine in the JVM ({@link org.jmpi.dpm.Links}).
 *
 * <p>May import: the JDK, {@code org.jmpi.runtime}, {@code org.jmpi.comm}, {@code org.jmpi.bootstrap},
 * {@code org.jmpi.transport} (the TCP transport's dynamic peers), {@code org.jmpi.pt2pt}, {@code org.jmpi.shared}
 * (threads mode: starting the children's job, reaching other jobs' endpoints).
 */
package org.jmpi.dpm;
