/**
 * The PMI-1 server of {@code jmpirun}: the "simple" text wire over loopback TCP ({@code PMI_PORT}/{@code PMI_ID}),
 * with a key-value space per job, a barrier over all ranks, and abort and finalize bookkeeping for the launcher.
 *
 * <p>May import: {@code java.*} and {@code org.jmpi.bootstrap.pmi} (the line codec). Nothing of the launcher above.
 */
package org.jmpi.launcher.pmi;
