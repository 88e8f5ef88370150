/**
 * PMI-1 client: how a rank learns its rank, size and peers when a process manager started it.
 *
 * <p>{@link org.jmpi.bootstrap.pmi.Pmi1Bootstrap} speaks the PMI-1 "simple" text wire ({@code cmd=name key=value
 * ...}, one request and one reply per line, in lock-step) to whichever server started this process: our
 * {@code jmpirun} and Hydra's {@code -pmi-port} mode over TCP ({@code PMI_PORT}/{@code PMI_ID}), or Hydra and
 * Slurm's {@code --mpi=pmi2} plugin over an inherited socket ({@code PMI_FD}, read and written through
 * {@code java.lang.foreign} calls to libc). {@link org.jmpi.bootstrap.pmi.Pmi1Message} is the line codec, shared
 * with the launcher's server.
 *
 * <p>May import: {@code java.*} and {@code org.jmpi.bootstrap}. No third-party code, no other jmpi package.
 */
package org.jmpi.bootstrap.pmi;
