/**
 * The PMI-1 server of {@code jmpirun}: the "simple" text wire over TCP ({@code PMI_PORT}/{@code PMI_ID}), one per host
 * (its ranks only, fences joined across hosts by the front end) or one for a whole job (the {@code JMPI_KVS}
 * rendezvous). Connections must prove the job secret or come from a rank process ({@link
 * org.jmpi.launcher.pmi.PeerCredentials}).
 *
 * <p>May import: {@code java.*} and {@code org.jmpi.bootstrap} / {@code org.jmpi.bootstrap.pmi} (the line codec, the
 * process mapping). Nothing of the launcher above.
 */
package org.jmpi.launcher.pmi;
