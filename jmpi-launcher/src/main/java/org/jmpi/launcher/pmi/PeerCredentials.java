package org.jmpi.launcher.pmi;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Locale;

/**
 * Tells whether the far end of a loopback TCP connection belongs to one of a set of processes, using Linux's
 * {@code /proc}: the connection's client port leads to a socket inode in {@code /proc/net/tcp} (or {@code tcp6}),
 * and a process owns that socket when one of its {@code /proc/<pid>/fd} links reads {@code socket:[inode]}.
 *
 * <p>This is how jmpirun's PMI server admits programs that cannot present the job secret (an unmodified MPICH
 * program knows only {@code PMI_PORT} and {@code PMI_ID}): a connection is as good as the secret when the kernel says
 * it comes from a process the launcher started. It needs the same user id as those processes (to read their
 * descriptors) and answers {@code false} wherever {@code /proc} is missing.
 *
 * <p>Cost: one read of {@code /proc/net/tcp} plus one directory listing per candidate process; done once per
 * connection, never on a message path.
 *
 * <p>Threading: stateless.
 */
public final class PeerCredentials {
    private PeerCredentials() {}

    /** Whether the peer of {@code s} (a loopback connection accepted by this process) is one of {@code processes}. */
    public static boolean belongsTo(Socket s, Collection<ProcessHandle> processes) {
        if (processes == null || processes.isEmpty() || !s.getInetAddress().isLoopbackAddress()) {
            return false;
        }
        long inode = socketInode(s.getPort(), s.getLocalPort());
        if (inode <= 0) {
            return false;
        }
        String target = "socket:[" + inode + "]";
        for (ProcessHandle p : processes) {
            if (owns(p.pid(), target)) {
                return true;
            }
        }
        return false;
    }

    /** The inode of the socket whose local port is {@code clientPort} and remote port {@code serverPort}, or -1. */
    static long socketInode(int clientPort, int serverPort) {
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length < 10 || !f[1].contains(":")) {
                        continue;
                    }
                    if (port(f[1]) == clientPort && port(f[2]) == serverPort) {
                        long inode = Long.parseLong(f[9]);
                        if (inode > 0) {
                            return inode;
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                // no such table here
            }
        }
        return -1;
    }

    private static int port(String hexAddress) {
        return Integer.parseInt(hexAddress.substring(hexAddress.lastIndexOf(':') + 1).toLowerCase(Locale.ROOT), 16);
    }

    private static boolean owns(long pid, String target) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                try {
                    if (Files.readSymbolicLink(fd).toString().equals(target)) {
                        return true;
                    }
                } catch (IOException | UnsupportedOperationException e) {
                    // closed meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process is gone, or not ours to inspect
        }
        return false;
    }
}
