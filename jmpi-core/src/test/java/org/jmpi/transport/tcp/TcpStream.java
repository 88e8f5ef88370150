package org.jmpi.transport.tcp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.FrameSink;

/**
 * Rough one-way streaming rate of frames between two TCP transports in one JVM. A measuring program, not a test.
 * Arguments: frame payload bytes, frames, "heap" or "native" payloads, then optional system properties are honoured
 * through {@link TcpConfig#fromEnvironment()} (e.g. -Djmpi.tcp.socket.send.buffer=0).
 */
public final class TcpStream {
    private TcpStream() {}

    public static void main(String[] args) throws Exception {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
        int frames = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        boolean heap = args.length > 2 && args[2].equals("heap");
        TcpConfig config = TcpConfig.fromEnvironment();
        Map<String, String> space = new ConcurrentHashMap<>();
        MemorySegment payload = heap ? MemorySegment.ofArray(new long[size / 8]) : Arena.global().allocate(size);
        MemorySegment header = MemorySegment.ofArray(new byte[FrameLayout.HEADER_BYTES]);
        FrameLayout.putInt(header, FrameLayout.PAYLOAD, (int) payload.byteSize());
        AtomicLong arrived = new AtomicLong();
        AtomicLong written = new AtomicLong();
        Runnable onWritten = written::incrementAndGet;
        FrameSink counter = new FrameSink() {
            @Override
            public void onFrame(int peer, MemorySegment h, MemorySegment p) {
                arrived.incrementAndGet();
            }

            @Override
            public void onPeerFailure(int peer, Throwable cause) {}
        };
        TcpTransport sender = TcpTransport.open(new InMemoryBootstrap(0, 2, "stream", space), counter, config);
        TcpTransport receiver = TcpTransport.open(new InMemoryBootstrap(1, 2, "stream", space), counter, config);
        Thread rx = Thread.ofPlatform().daemon().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                receiver.poll();
            }
        });
        for (int rep = 0; rep < 4; rep++) {
            long base = arrived.get();
            long start = System.nanoTime();
            for (int i = 0; i < frames; i++) {
                while (written.get() < (long) rep * frames + i - 8) { // at most 8 frames in flight
                    sender.poll();
                }
                sender.send(1, header, payload, onWritten);
            }
            while (arrived.get() < base + frames) {
                sender.poll();
                Thread.onSpinWait();
            }
            long ns = System.nanoTime() - start;
            System.out.printf("%s %d B frames: %.2f GB/s, %.2f M frames/s%n", heap ? "heap" : "native",
                    payload.byteSize(), (double) frames * payload.byteSize() / ns, frames * 1e3 / ns);
        }
        rx.interrupt();
        rx.join();
        sender.close();
        receiver.close();
    }
}
