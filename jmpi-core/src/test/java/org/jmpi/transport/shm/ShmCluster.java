package org.jmpi.transport.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jmpi.bootstrap.Bootstrap;
import org.jmpi.transport.FrameSink;

/** N shared-memory ranks of one job in this JVM, each polled by its own thread, sharing an in-memory bootstrap. */
final class ShmCluster implements AutoCloseable {
    private static final AtomicInteger JOBS = new AtomicInteger();

    /** A bootstrap for ranks in one JVM: a shared map as key-value space, every rank on this host. */
    record MemoryBootstrap(int rank, int size, String jobId, Map<String, String> space) implements Bootstrap {
        @Override
        public void put(String key, String value) {
            space.put(key, value);
        }

        @Override
        public void fence() {}

        @Override
        public String get(String key) {
            return space.get(key);
        }

        @Override
        public void abort(int exitCode, String message) {
            throw new IllegalStateException("abort(" + exitCode + "): " + message);
        }

        @Override
        public void finalizeJob() {}

        @Override
        public boolean isLocal(int peer) {
            return peer >= 0 && peer < size;
        }

        @Override
        public void close() {}
    }

    /** One rank: a transport polled by its own thread (poll, else await), with a replaceable frame handler. */
    static final class Node implements FrameSink, AutoCloseable {
        interface Handler {
            void onFrame(Node self, int peer, MemorySegment header, MemorySegment payload);
        }

        record Failure(int peer, Throwable cause) {}

        final int rank;
        final ShmTransport transport;
        final List<Failure> failures = new CopyOnWriteArrayList<>();
        final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        volatile Handler handler = (self, peer, header, payload) -> {
            throw new AssertionError("rank " + self.rank + ": unexpected frame from " + peer);
        };
        volatile long awaitNanos = TimeUnit.MILLISECONDS.toNanos(50);
        private final Thread poller;
        private volatile boolean stop;

        Node(Bootstrap b, ShmConfig config, int[] local) {
            this.rank = b.rank();
            this.transport = ShmTransport.open(b, this, config, local);
            this.poller = Thread.ofPlatform().name("shm-poll-rank-" + rank).daemon().unstarted(this::pollLoop);
        }

        private void pollLoop() {
            try {
                while (!stop) {
                    if (!transport.poll()) {
                        transport.await(awaitNanos);
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
        public void onPeerFailure(int peer, Throwable cause) {
            failures.add(new Failure(peer, cause));
        }

        void stopPolling() throws InterruptedException {
            stop = true;
            transport.wakeup();
            if (poller.isAlive()) {
                poller.join();
            }
        }

        @Override
        public void close() throws InterruptedException {
            stopPolling();
            transport.close();
        }
    }

    final Map<String, String> space = new ConcurrentHashMap<>();
    final List<Node> nodes = new ArrayList<>();
    final String jobId;

    private ShmCluster(String jobId) {
        this.jobId = jobId;
    }

    static String newJobId() {
        return "test_" + ProcessHandle.current().pid() + "_" + JOBS.incrementAndGet();
    }

    /** Starts n ranks (all polling). */
    static ShmCluster start(int n, ShmConfig config) {
        ShmCluster c = new ShmCluster(newJobId());
        int[] local = new int[n];
        for (int r = 0; r < n; r++) {
            local[r] = r;
        }
        for (int r = 0; r < n; r++) {
            c.nodes.add(new Node(new MemoryBootstrap(r, n, c.jobId, c.space), config, local));
        }
        for (Node node : c.nodes) {
            node.poller.start();
        }
        return c;
    }

    static ShmCluster start(int n) {
        return start(n, ShmConfig.defaults());
    }

    Node node(int rank) {
        return nodes.get(rank);
    }

    /** Fails the test with every handler error and peer failure seen. */
    void assertHealthy() {
        for (Node n : nodes) {
            assertThat(n.errors).as("errors in rank %d", n.rank).isEmpty();
            assertThat(n.failures).as("peer failures seen by rank %d", n.rank).isEmpty();
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (Node n : nodes) {
            n.stopPolling();
        }
        for (Node n : nodes) {
            n.transport.close();
        }
    }
}
