package org.jmpi.launcher.pmi;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Fuzz targets: jmpirun's PMI-1 server, as a host proxy runs it for the ranks of a job ({@link #jobServer}) and as
 * the rendezvous server of {@code jmpirun --kvs-server} ({@link #rendezvousServer}: job size from the first client,
 * secret required). The first input byte picks what precedes the fuzzed bytes: nothing (the fuzz is the
 * unauthenticated first line), a valid {@code initack} with the secret (the fuzz is what an admitted rank may send),
 * or that plus {@code init}. A fresh server of a 1-rank job (so a barrier completes) takes the bytes; the client shuts
 * its output and reads until the server closes. Required: the server closes within 20 s (no hang) and no thread of
 * it dies of an exception.
 */
class PmiServerFuzzTest {
    private static final String SECRET = "fuzz-secret";
    private static final List<Throwable> UNCAUGHT = new CopyOnWriteArrayList<>();

    static {
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> UNCAUGHT.add(e));
    }

    @FuzzTest(maxDuration = "30s")
    void jobServer(byte[] data) throws Exception {
        run(PmiServer.options(1, "kvs_fuzz").secret(SECRET), data, "");
    }

    @FuzzTest(maxDuration = "30s")
    void rendezvousServer(byte[] data) throws Exception {
        run(PmiServer.options(0, "kvs_fuzz").dynamicSize().secret(SECRET), data, " size=1");
    }

    private static void run(PmiServer.Options options, byte[] data, String sizeField) throws Exception {
        if (data.length == 0) {
            return;
        }
        try (PmiServer server = options.bind(InetAddress.getLoopbackAddress()).build()) {
            server.start();
            String admitted = "cmd=initack pmiid=0 jmpi_secret=" + SECRET + sizeField + "\n";
            String prefix = switch ((data[0] & 0xff) % 3) {
                case 0 -> "";
                case 1 -> admitted;
                default -> admitted + "cmd=init pmi_version=1 pmi_subversion=1\n";
            };
            exchange(server, prefix.getBytes(StandardCharsets.US_ASCII), Arrays.copyOfRange(data, 1, data.length));
            if (!UNCAUGHT.isEmpty()) {
                AssertionError e = new AssertionError("a server thread died", UNCAUGHT.get(0));
                UNCAUGHT.clear();
                throw e;
            }
        }
    }

    /** Sends {@code prefix} and {@code data}, shuts the output, reads until the server closes (20 s at most). */
    static void exchange(PmiServer server, byte[] prefix, byte[] data) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoLinger(true, 0);
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            try {
                out.write(prefix);
                out.write(data);
                out.flush();
                s.shutdownOutput();
            } catch (IOException closedEarly) {
                return; // the server refused the connection while we wrote
            }
            InputStream in = s.getInputStream();
            byte[] buf = new byte[8192];
            try {
                while (in.read(buf) >= 0) {
                    // replies
                }
            } catch (SocketTimeoutException hang) {
                throw new AssertionError("the PMI server kept the connection open after its client closed");
            } catch (IOException reset) {
                // closed by the server
            }
        }
    }
}
