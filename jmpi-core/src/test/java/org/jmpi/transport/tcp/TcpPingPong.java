package org.jmpi.transport.tcp;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.FrameSink;

/**
 * Rough ping-pong latency of small frames between two TCP transports in one JVM, each busy-polled by its own thread.
 * A measuring program, not a test: run its main (arguments: payload bytes, round trips).
 *
 * <pre>
 * java -cp jmpi-core/target/classes:jmpi-core/target/test-classes org.jmpi.transport.tcp.TcpPingPong 8 200000
 * </pre>
 */
public final class TcpPingPong {
    private TcpPingPong() {}

    public static void main(String[] args) throws Exception {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        Map<String, String> space = new ConcurrentHashMap<>();
        MemorySegment payload = MemorySegment.ofArray(new byte[size]);
        MemorySegment header = MemorySegment.ofArray(new byte[FrameLayout.HEADER_BYTES]);
        FrameLayout.putInt(header, FrameLayout.PAYLOAD, size);

        int[] arrived = new int[1]; // ponger side: written by the ping thread's poll only
        TcpTransport[] t = new TcpTransport[2];
        FrameSink pinger = new FrameSink() {
            @Override
            public void onFrame(int peer, MemorySegment h, MemorySegment p) {
                arrived[0]++;
            }

            @Override
            public void onPeerFailure(int peer, Throwable cause) {
                throw new IllegalStateException(cause);
            }
        };
        MemorySegment echoPayload = MemorySegment.ofArray(new byte[size]);
        FrameSink echo = new FrameSink() {
            @Override
            public void onFrame(int peer, MemorySegment h, MemorySegment p) {
                MemorySegment.copy(p, 0, echoPayload, 0, p.byteSize()); // the view is valid only during this call
                t[1].send(peer, h, echoPayload, null);
            }

            @Override
            public void onPeerFailure(int peer, Throwable cause) {}
        };
        t[0] = TcpTransport.open(new InMemoryBootstrap(0, 2, "pingpong", space), pinger, TcpConfig.defaults());
        t[1] = TcpTransport.open(new InMemoryBootstrap(1, 2, "pingpong", space), echo, TcpConfig.defaults());
        Thread ponger = Thread.ofPlatform().daemon().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                t[1].poll();
            }
        });
        for (int rep = 0; rep < 5; rep++) {
            arrived[0] = 0;
            long start = System.nanoTime();
            for (int i = 0; i < rounds; i++) {
                t[0].send(1, header, payload, null);
                while (arrived[0] == i) {
                    t[0].poll();
                }
            }
            long ns = System.nanoTime() - start;
            System.out.printf("%d B frames: %.2f us one way (%d round trips, %.1f ms)%n", size,
                    ns / 1e3 / rounds / 2, rounds, ns / 1e6);
        }
        ponger.interrupt();
        ponger.join();
        t[0].close();
        t[1].close();
    }
}
