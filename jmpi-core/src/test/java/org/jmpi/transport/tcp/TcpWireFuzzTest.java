package org.jmpi.transport.tcp;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jmpi.transport.FrameLayout;

/**
 * Fuzz target: the TCP transport's accepting side (hello check and frame decoder) against whatever a client sends.
 * The first byte says whether a valid hello of rank 1 comes first (then the rest fuzzes the frame decoder of an
 * admitted peer) or not (the rest is the hello). A fresh rank 0 of a 2-rank job listens; the bytes are sent, the
 * client's output is shut, and the rank must close the connection: no exception out of {@code poll}, no frame whose
 * payload disagrees with its header, no hang (the client waits at most 20 s for the close).
 */
class TcpWireFuzzTest {
    private static final byte[] SECRET = "fuzz-secret".getBytes(StandardCharsets.UTF_8);
    private static final byte[] JOB = "fuzzjob".getBytes(StandardCharsets.UTF_8);

    @FuzzTest(maxDuration = "30s")
    void bytesFromAClient(byte[] data) throws Exception {
        if (data.length == 0) {
            return;
        }
        Map<String, String> space = new ConcurrentHashMap<>();
        TcpConfig config = TcpConfig.defaults().withSecret(new String(SECRET, StandardCharsets.UTF_8));
        try (Node server = new Node(0, 2, new String(JOB, StandardCharsets.UTF_8), space, config).start()) {
            server.handler = (self, peer, header, payload) -> {
                if (payload.byteSize() != FrameLayout.payloadLength(header)) {
                    throw new AssertionError("payload of " + payload.byteSize() + " bytes, header says "
                            + FrameLayout.payloadLength(header));
                }
            };
            InetSocketAddress at = TcpTransport.parseCard(server.transport.businessCard());
            try (SocketChannel ch = SocketChannel.open(at)) {
                ch.setOption(StandardSocketOptions.SO_LINGER, 0);
                if ((data[0] & 1) != 0) {
                    ch.write(ByteBuffer.wrap(TcpLayout.encodeHello(1, JOB, SECRET)));
                }
                ByteBuffer b = ByteBuffer.wrap(data, 1, data.length - 1);
                while (b.hasRemaining()) {
                    if (ch.write(b) < 0) {
                        break;
                    }
                }
                ch.shutdownOutput();
                ch.socket().setSoTimeout(20_000);
                var in = ch.socket().getInputStream();
                try {
                    while (in.read() >= 0) {
                        // the acceptor sends nothing; wait for its close
                    }
                } catch (java.net.SocketTimeoutException hang) {
                    throw new AssertionError("the rank kept a connection open after its client closed");
                } catch (IOException reset) {
                    // closed at once: fine
                }
            } catch (IOException writeRefused) {
                // the rank closed the connection while we wrote: fine
            }
            if (!server.errors.isEmpty()) {
                AssertionError e = new AssertionError("poll or a frame handler failed", server.errors.peek());
                throw e;
            }
        }
    }
}
