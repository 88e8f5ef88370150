package org.jmpi.transport.tcp;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.jmpi.transport.FrameSink;

/**
 * One rank in a test: a {@link TcpTransport} polled by its own thread, with a replaceable frame handler. Errors
 * thrown by handlers are collected, not lost.
 */
final class Node implements FrameSink, AutoCloseable {
    interface Handler {
        void onFrame(Node self, int peer, MemorySegment header, MemorySegment payload);
    }

    record Failure(int peer, Throwable cause) {}

    final int rank;
    final TcpTransport transport;
    final List<Failure> failures = new CopyOnWriteArrayList<>();
    final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    volatile Handler handler = (self, peer, header, payload) -> {
        throw new AssertionError("rank " + self.rank + ": unexpected frame from " + peer);
    };
    /** Where payloads may be read straight to ({@link FrameSink#placement}); by default nowhere. */
    volatile java.util.function.BiFunction<Integer, MemorySegment, MemorySegment> placer = (peer, header) -> null;
    /** Frames whose payload was placed ({@link FrameSink#onPlaced}). */
    volatile Handler placedHandler = (self, peer, header, payload) -> {
        throw new AssertionError("rank " + self.rank + ": unexpected placed frame from " + peer);
    };
    /** Takes frames handed over as values ({@link FrameSink#onShort}); by default none: all come to the handler. */
    interface ShortHandler {
        boolean onShort(Node self, int peer, int kind, int context, int source, int tag, byte[] payload);
    }

    volatile ShortHandler shortHandler;
    private final Thread poller;
    private volatile boolean stop;

    Node(int rank, int size, String jobId, Map<String, String> space, TcpConfig config) {
        this.rank = rank;
        this.transport = TcpTransport.open(new InMemoryBootstrap(rank, size, jobId, space), this, config);
        this.poller = Thread.ofPlatform().name("poll-rank-" + rank).daemon().unstarted(this::pollLoop);
    }

    Node start() {
        poller.start();
        return this;
    }

    private void pollLoop() {
        try {
            while (!stop) {
                if (!transport.poll()) {
                    transport.await(TimeUnit.MILLISECONDS.toNanos(50));
                }
            }
        } catch (Throwable t) {
            errors.add(t);
        }
    }

    @Override
    public void onFrame(int peer, MemorySegment header, MemorySegment payload) {
        try {
            handler.onFrame(this, peer, header, payload);
        } catch (Throwable t) {
            errors.add(t);
        }
    }

    @Override
    public boolean onShort(int peer, int kind, int context, int source, int tag, MemorySegment memory, long offset,
            int length) {
        ShortHandler h = shortHandler;
        if (h == null) {
            return false;
        }
        try {
            return h.onShort(this, peer, kind, context, source, tag,
                    memory.asSlice(offset, length).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        } catch (Throwable t) {
            errors.add(t);
            return true;
        }
    }

    @Override
    public MemorySegment placement(int peer, MemorySegment header) {
        return placer.apply(peer, header);
    }

    @Override
    public void onPlaced(int peer, MemorySegment header) {
        try {
            placedHandler.onFrame(this, peer, header, null);
        } catch (Throwable t) {
            errors.add(t);
        }
    }

    @Override
    public void onPeerFailure(int peer, Throwable cause) {
        failures.add(new Failure(peer, cause));
        synchronized (this) {
            notifyAll();
        }
    }

    /** Waits until at least {@code count} failures were reported (the test's @Timeout bounds the wait). */
    synchronized void awaitFailures(int count) throws InterruptedException {
        while (failures.size() < count) {
            wait();
        }
    }

    /** Waits a little for a failure report (returns at once when there is one); callers loop on a condition. */
    synchronized void awaitFailuresOrIdle() throws InterruptedException {
        if (failures.isEmpty()) {
            wait(20);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        transport.wakeup();
        if (poller.isAlive()) {
            poller.join();
        }
        transport.close();
    }
}
