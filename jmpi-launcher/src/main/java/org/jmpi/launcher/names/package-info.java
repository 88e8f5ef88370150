/**
 * The name service of MPI_Publish_name / MPI_Lookup_name: {@link org.jmpi.launcher.names.NameServer}, run inside
 * jmpirun for its ranks or standalone as {@code bin/jmpi-nameserver} ({@link org.jmpi.launcher.names.NameServerMain})
 * for jobs that share names; the client is {@code org.jmpi.dpm.NameServiceClient}.
 *
 * <p>May import: the JDK, {@code org.jmpi.runtime} (error classes), picocli (the command line).
 */
package org.jmpi.launcher.names;
