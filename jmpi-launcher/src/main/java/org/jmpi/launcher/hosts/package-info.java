/**
 * Hosts and placement for jmpirun: hostfiles in Open MPI's and Hydra's formats, Slurm node lists, where the host list
 * comes from (flags, then the variables mpi-operator, Intel MPI, Open MPI, Volcano, Slurm and PBS set), and which
 * rank runs where. Everything that cannot be parsed is a {@link org.jmpi.launcher.hosts.HostListException}.
 *
 * <p>May import: {@code java.*}, {@code org.jmpi.launcher.HostSpec}, {@code org.jmpi.bootstrap.ProcessMapping}.
 */
package org.jmpi.launcher.hosts;
