package org.jmpi.transport.select;

import java.io.UncheckedIOException;
import org.jmpi.bootstrap.Bootstrap;
import org.jmpi.transport.FrameSink;
import org.jmpi.transport.Transport;
import org.jmpi.transport.shm.ShmConfig;
import org.jmpi.transport.shm.ShmTransport;
import org.jmpi.transport.tcp.TcpConfig;
import org.jmpi.transport.tcp.TcpTransport;

/**
 * Opens the transports of a rank in processes mode and combines them (see {@link SelectingTransport}). Called once,
 * before the runtime's start-up fence: each transport publishes its business card here and reads its peers' cards
 * later, on first contact.
 *
 * <p>Threading: stateless.
 */
public final class Transports {
    private Transports() {}

    /**
     * Opens shared memory (when another rank of the job is on this host and TCP is not forced) and TCP, with the
     * parameters of the environment.
     *
     * @throws UncheckedIOException when TCP cannot listen, or when {@code jmpi.transport=shm} and shared memory cannot
     *     be set up
     * @throws IllegalArgumentException when a parameter is malformed
     */
    public static Transport open(Bootstrap bootstrap, FrameSink sink) {
        return open(bootstrap, sink, TransportChoice.fromEnvironment(), ShmConfig.fromEnvironment(),
                TcpConfig.fromEnvironment());
    }

    /** The same with explicit parameters. */
    public static Transport open(Bootstrap bootstrap, FrameSink sink, TransportChoice choice, ShmConfig shmConfig,
            TcpConfig tcpConfig) {
        int size = bootstrap.size();
        int rank = bootstrap.rank();
        int[] local = new int[size];
        int n = 0;
        for (int p = 0; p < size; p++) {
            if (p == rank || bootstrap.isLocal(p)) {
                local[n++] = p;
            }
        }
        int[] localRanks = java.util.Arrays.copyOf(local, n);
        boolean anyRemote = n < size;
        ShmTransport shm = null;
        if (choice.mode() != TransportChoice.Mode.TCP && n > 1) {
            try {
                shm = ShmTransport.open(bootstrap, sink, shmConfig, localRanks);
            } catch (UncheckedIOException e) {
                if (choice.mode() == TransportChoice.Mode.SHM) {
                    throw e;
                }
                System.err.println("jmpi: rank " + rank + ": no shared memory (" + e.getMessage()
                        + "); using TCP to the ranks of this host");
            }
        }
        TcpTransport tcp;
        try {
            tcp = TcpTransport.open(bootstrap, sink, tcpConfig);
        } catch (RuntimeException e) {
            if (shm != null) {
                shm.close();
            }
            throw e;
        }
        return new SelectingTransport(bootstrap, shm, tcp, choice, anyRemote);
    }
}
