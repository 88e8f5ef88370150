package org.jmpi.launcher.pmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.jmpi.bootstrap.pmi.Pmi1Bootstrap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The PMI server's listener limits: a client that sends its first line a byte at a time is cut off at the
 * authentication deadline, and a flood of silent connections only delays a real rank.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ListenerLimitsTest {
    private static final String SECRET = "limits-secret";

    @Test
    void aSlowLorisIsCutOffAtTheDeadlineNotAtEachByte() throws Exception {
        List<String> refusals = new CopyOnWriteArrayList<>();
        try (PmiServer server = PmiServer.options(1, "kvs_limits").secret(SECRET).authTimeout(Duration.ofSeconds(1))
                .listener(listener(refusals)).build();
                Socket s = new Socket(InetAddress.getLoopbackAddress(), startAndPort(server))) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            s.setSoTimeout(300);
            long t0 = System.nanoTime();
            boolean closed = false;
            for (int i = 0; i < 100 && !closed; i++) {
                try {
                    out.write('c'); // one byte every 300 ms: each read would succeed within a per-read timeout
                    out.flush();
                    closed = in.read() < 0;
                } catch (java.net.SocketTimeoutException stillOpen) {
                    // the server has not closed yet
                } catch (IOException reset) {
                    closed = true;
                }
            }
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
            assertThat(closed).as("cut off").isTrue();
            assertThat(seconds).as("seconds until cut off").isLessThan(5);
            // the server closes the connection (try-with-resources) before it reports the refusal: wait for the note
            long noteDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (refusals.stream().noneMatch(r -> r.contains("no complete initack"))
                    && System.nanoTime() < noteDeadline) {
                Thread.yield();
            }
            assertThat(refusals).anyMatch(r -> r.contains("no complete initack"));
        }
    }

    @Test
    void aFloodOfSilentConnectionsOnlyDelaysARealRank() throws Exception {
        List<Socket> flood = new ArrayList<>();
        try (PmiServer server = PmiServer.options(1, "kvs_limits").secret(SECRET).authTimeout(Duration.ofSeconds(1))
                .build()) {
            int port = startAndPort(server);
            try {
                for (int i = 0; i < 300; i++) {
                    flood.add(new Socket(InetAddress.getLoopbackAddress(), port));
                }
                Pmi1Bootstrap rank = Pmi1Bootstrap.fromEnvironment(java.util.Map.of("PMI_PORT", server.address(),
                        "PMI_ID", "0", Pmi1Bootstrap.SECRET_VARIABLE, SECRET));
                rank.put("k", "v");
                rank.fence();
                assertThat(rank.get("k")).isEqualTo("v");
                rank.finalizeJob();
                rank.close();
            } finally {
                for (Socket s : flood) {
                    s.close();
                }
            }
        }
    }

    private static int startAndPort(PmiServer server) {
        server.start();
        return server.port();
    }

    private static PmiServer.Listener listener(List<String> refusals) {
        return new PmiServer.Listener() {
            @Override
            public void aborted(int rank, int exitCode, String message) {}

            @Override
            public void protocolError(int rank, String message) {}

            @Override
            public void refused(String remote, String reason) {
                refusals.add(reason);
            }
        };
    }
}
