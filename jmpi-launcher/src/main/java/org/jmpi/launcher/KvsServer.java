package org.jmpi.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.time.Duration;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jmpi.launcher.pmi.PmiServer;

/**
 * {@code jmpirun --kvs-server}: the rendezvous for ranks started by a launcher that gives them no PMI (Open MPI's
 * {@code mpirun}, {@code srun --mpi=none}): a {@link PmiServer} whose job size comes from the first rank, and which
 * admits only connections that carry the job secret.
 *
 * <p>With a command ({@code jmpirun --kvs-server -- mpirun -x JMPI_KVS -x JMPI_SECRET -n 4 java ...}) it runs the
 * command with {@code JMPI_KVS=host:port} and {@code JMPI_SECRET} in its environment, and exits with its exit code
 * (or the code of a rank's {@code abort}, after killing the command; or 255 on timeout). Without one it prints the
 * two variables and serves until interrupted.
 *
 * <p>Threading: the server's threads report aborts through an atomic reference and a latch; the calling thread
 * waits for the command.
 */
final class KvsServer {
    private final PrintStream out;
    private final PrintStream err;
    private final String listen;
    private final Duration timeout;

    KvsServer(PrintStream out, PrintStream err, String listen, Duration timeout) {
        this.out = out;
        this.err = err;
        this.listen = listen;
        this.timeout = timeout;
    }

    int run(List<String> command) throws IOException, InterruptedException {
        byte[] bits = org.jmpi.bootstrap.Secrets.randomBytes(16);
        String secret = HexFormat.of().formatHex(bits);
        InetAddress bind = bindAddress(listen);
        AtomicReference<int[]> abort = new AtomicReference<>();
        CountDownLatch aborted = new CountDownLatch(1);
        PmiServer server = PmiServer.options(0, "jmpi_kvs_" + ProcessHandle.current().pid())
                .dynamicSize()
                .secret(secret)
                .bind(bind)
                .listener(new PmiServer.Listener() {
                    @Override
                    public void aborted(int rank, int exitCode, String message) {
                        err.println("jmpirun: rank " + rank + " called abort with exit code " + exitCode
                                + (message.isEmpty() ? "" : ": " + message));
                        abort.compareAndSet(null, new int[] {rank, exitCode});
                        aborted.countDown();
                    }

                    @Override
                    public void protocolError(int rank, String message) {
                        err.println("jmpirun: rendezvous: rank " + rank + ": " + message);
                    }

                    @Override
                    public void refused(String remote, String reason) {
                        err.println("jmpirun: rendezvous: refused a connection from " + remote + ": " + reason);
                    }
                })
                .build();
        server.start();
        try {
            String host = bind.isAnyLocalAddress() ? publicAddress() : bind.getHostAddress();
            String kvs = (host.contains(":") ? "[" + host + "]" : host) + ":" + server.port();
            if (command.isEmpty()) {
                out.println("JMPI_KVS=" + kvs);
                out.println("JMPI_SECRET=" + secret);
                out.flush();
                aborted.await();
                return abort.get()[1];
            }
            ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
            pb.environment().put("JMPI_KVS", kvs);
            pb.environment().put("JMPI_SECRET", secret);
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                err.println("jmpirun: cannot run " + command.get(0) + ": " + e.getMessage());
                return 127;
            }
            Thread watcher = Thread.ofVirtual().start(() -> {
                try {
                    aborted.await();
                    stop(p);
                } catch (InterruptedException e) {
                    // the command ended first
                }
            });
            boolean done = timeout == null ? waitFor(p) : p.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
            watcher.interrupt();
            if (!done) {
                err.println("jmpirun: the job did not finish within " + timeout.toSeconds() + " s (timeout)");
                stop(p);
                return LaunchResult.TIMEOUT_EXIT_CODE;
            }
            int[] a = abort.get();
            return a != null ? a[1] : p.exitValue();
        } finally {
            server.close();
        }
    }

    private static boolean waitFor(Process p) throws InterruptedException {
        p.waitFor();
        return true;
    }

    /** SIGTERM to the command and its descendants, SIGKILL 2 s later. */
    private static void stop(Process p) throws InterruptedException {
        List<ProcessHandle> all = p.descendants().toList();
        all.forEach(ProcessHandle::destroy);
        p.destroy();
        if (!p.waitFor(2, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            all.forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /** Loopback by default; {@code *} for every interface; an interface name; or an address or host name. */
    static InetAddress bindAddress(String spec) throws IOException {
        if (spec == null || spec.isBlank()) {
            return InetAddress.getLoopbackAddress();
        }
        String s = spec.trim();
        if (s.equals("*")) {
            return InetAddress.getByName("0.0.0.0");
        }
        NetworkInterface nif = NetworkInterface.getByName(s);
        if (nif != null) {
            for (Enumeration<InetAddress> e = nif.getInetAddresses(); e.hasMoreElements(); ) {
                InetAddress a = e.nextElement();
                if (a instanceof Inet4Address) {
                    return a;
                }
            }
            throw new IOException("network interface " + s + " has no IPv4 address");
        }
        return InetAddress.getByName(s);
    }

    private static String publicAddress() throws IOException {
        for (Enumeration<NetworkInterface> e = NetworkInterface.getNetworkInterfaces(); e.hasMoreElements(); ) {
            NetworkInterface nif = e.nextElement();
            if (!nif.isUp() || nif.isLoopback()) {
                continue;
            }
            for (Enumeration<InetAddress> a = nif.getInetAddresses(); a.hasMoreElements(); ) {
                InetAddress address = a.nextElement();
                if (address instanceof Inet4Address) {
                    return address.getHostAddress();
                }
            }
        }
        return InetAddress.getLocalHost().getHostAddress();
    }
}
