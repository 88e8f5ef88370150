/**
 * PMI clients: how a rank learns its rank, size and peers when a process manager started it.
 *
 * <p>{@link org.jmpi.bootstrap.pmi.Pmi1Bootstrap} speaks the PMI-1 "simple" text wire ({@code cmd=name key=value
 * ...}, one request and one reply per line, in lock-step) to jmpirun and Hydra's {@code -pmi-port} over TCP
 * ({@code PMI_PORT}/{@code PMI_ID}), to Hydra and Slurm's {@code --mpi=pmi2} plugin over an inherited socket
 * ({@code PMI_FD}, read and written through {@code java.lang.foreign} calls to libc), and to jmpirun's rendezvous
 * server ({@code JMPI_KVS}); it also opens jmpirun's failure-notice channel.
 * {@link org.jmpi.bootstrap.pmi.Pmi2Bootstrap} speaks PMI-2 (6-character length framing, {@code ;}-separated
 * fields) on {@code PMI_FD}, Slurm's native wire. {@link org.jmpi.bootstrap.pmi.Pmi1Message} and
 * {@link org.jmpi.bootstrap.pmi.Pmi2Message} are the codecs; the first is shared with the launcher's server.
 *
 * <p>May import: {@code java.*} and {@code org.jmpi.bootstrap}. No third-party code, no other jmpi package.
 */
package org.jmpi.bootstrap.pmi;
