package org.jmpi.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.util.Map;
import org.jmpi.launcher.names.NameServer;

/**
 * What jmpirun does for MPI dynamic processes (kept out of {@link JmpiRun} so the command stays about launching):
 *
 * <ul>
 *   <li>the name service: {@code --nameserver ADDRESS}, else an inherited {@code JMPI_NAMESERVER}, else a
 *       {@link NameServer} of this jmpirun on loopback, which lives as long as the job; its address goes to every
 *       rank in {@code JMPI_NAMESERVER} (in a {@code --threads} job: the system property {@code jmpi.nameserver});</li>
 *   <li>a jmpirun started by a spawning rank ({@code JMPI_SPAWN_WATCH_STDIN=1}) watches its standard input, a pipe
 *       from that rank: its end means the rank died, and the children's job is ended as on SIGTERM.</li>
 * </ul>
 *
 * <p>Threading: the watch runs on a daemon thread of its own; everything else in the caller's thread.
 */
final class DynamicProcessSupport {
    private DynamicProcessSupport() {}

    /** Sets {@code JMPI_NAMESERVER} for the ranks; returns the server started for them, or null. */
    static AutoCloseable nameService(Launcher.Builder b, Map<String, String> env, String flag) throws IOException {
        if (flag != null && !flag.isBlank()) {
            b.env("JMPI_NAMESERVER", flag.trim());
            return null;
        }
        String inherited = env.get("JMPI_NAMESERVER");
        if (inherited != null && !inherited.isBlank()) {
            b.env("JMPI_NAMESERVER", inherited.trim());
            return null;
        }
        NameServer ns = NameServer.start(InetAddress.getLoopbackAddress(), 0);
        b.env("JMPI_NAMESERVER", ns.address());
        return ns;
    }

    /**
     * The name service of a {@code --threads} job: as {@link #nameService}, but the ranks are threads of this JVM, so
     * the address goes to them as the system property {@code jmpi.nameserver} (cleared again on close, with the
     * server this returns when it started one).
     */
    static AutoCloseable threadsNameService(Map<String, String> env, String flag) throws IOException {
        String given = flag != null && !flag.isBlank() ? flag.trim() : env.get("JMPI_NAMESERVER");
        if (given != null && !given.isBlank()) {
            System.setProperty("jmpi.nameserver", given.trim());
            return () -> System.clearProperty("jmpi.nameserver");
        }
        NameServer ns = NameServer.start(InetAddress.getLoopbackAddress(), 0);
        System.setProperty("jmpi.nameserver", ns.address());
        return () -> {
            System.clearProperty("jmpi.nameserver");
            ns.close();
        };
    }

    /** Under a spawning rank: ends {@code job} when that rank's pipe to our standard input ends. */
    static void watchSpawningParent(Map<String, String> env, Launcher.Job job) {
        if (!"1".equals(env.get("JMPI_SPAWN_WATCH_STDIN"))) {
            return;
        }
        Thread.ofPlatform().daemon().name("jmpi-spawn-parent-watch").start(() -> {
            InputStream in = System.in;
            byte[] buf = new byte[256];
            try {
                while (in.read(buf) >= 0) {
                    // the parent writes nothing; only the end matters
                }
            } catch (IOException e) {
                // the same: the parent is gone
            }
            job.kill();
        });
    }
}
