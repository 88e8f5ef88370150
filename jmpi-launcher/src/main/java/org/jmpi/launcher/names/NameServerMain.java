package org.jmpi.launcher.names;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * {@code jmpi-nameserver [--listen ADDRESS|*] [--port N] [--uri-file FILE]}: runs a {@link NameServer} until it is
 * interrupted (SIGINT, SIGTERM). Prints {@code JMPI_NAMESERVER=host:port:token} on standard output (and writes the
 * address to FILE): give that variable to the jobs that share names, e.g.
 * {@code export JMPI_NAMESERVER=...; jmpirun -n 2 ...}, or {@code jmpirun --nameserver ADDRESS}. Listens on loopback
 * unless {@code --listen} says otherwise ({@code *}: every interface, for jobs on several hosts).
 *
 * <p>Threading: the main thread waits; the server runs on its own threads.
 */
public final class NameServerMain {
    private NameServerMain() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        String listen = "127.0.0.1";
        int port = 0;
        Path uriFile = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if ((a.equals("--listen") || a.equals("--port") || a.equals("--uri-file")) && i + 1 >= args.length) {
                usage("missing value after " + a);
            }
            switch (a) {
                case "--listen" -> listen = args[++i];
                case "--port" -> {
                    try {
                        port = Integer.parseInt(args[++i]);
                    } catch (NumberFormatException e) {
                        usage("--port " + args[i] + " is not a number");
                    }
                }
                case "--uri-file" -> uriFile = Path.of(args[++i]);
                case "-h", "--help" -> {
                    System.out.println("usage: jmpi-nameserver [--listen ADDRESS|*] [--port N] [--uri-file FILE]");
                    return;
                }
                default -> usage("unknown argument " + a);
            }
        }
        NameServer ns = NameServer.start(listen.equals("*") ? null : InetAddress.getByName(listen), port);
        String address = ns.address();
        if (uriFile != null) {
            Files.writeString(uriFile, address + "\n");
        }
        System.out.println("JMPI_NAMESERVER=" + address);
        System.out.flush();
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            ns.close();
            done.countDown();
        }));
        done.await();
    }

    private static void usage(String message) {
        System.err.println("jmpi-nameserver: " + message);
        System.err.println("usage: jmpi-nameserver [--listen ADDRESS|*] [--port N] [--uri-file FILE]");
        System.exit(2);
    }
}
