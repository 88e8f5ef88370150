package org.jmpi.transport.select;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jmpi.bootstrap.Bootstrap;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.FrameSink;
import org.jmpi.transport.Transport;
import org.jmpi.transport.shm.ShmConfig;
import org.jmpi.transport.tcp.TcpConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Routes per peer: shared memory on the same "host", TCP across hosts, TCP everywhere when forced. */
@Timeout(value = 60, unit = SECONDS)
class SelectingTransportTest {
    /** Ranks of one job in this JVM; {@code host[r]} says which pretend host rank r is on. */
    record HostsBootstrap(int rank, int size, String jobId, Map<String, String> space, int[] host)
            implements Bootstrap {
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
            throw new IllegalStateException(message);
        }

        @Override
        public void finalizeJob() {}

        @Override
        public boolean isLocal(int peer) {
            return host[peer] == host[rank];
        }

        @Override
        public void close() {}
    }

    /** A rank: its transport, polled by a thread, counting frames from each peer. */
    static final class Rank implements FrameSink, AutoCloseable {
        final SelectingTransport transport;
        final CountDownLatch frames;
        final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        private final Thread poller;
        private volatile boolean stop;

        Rank(Bootstrap b, TransportChoice choice, int expected) {
            this.frames = new CountDownLatch(expected);
            this.transport = (SelectingTransport) Transports.open(b, this, choice, ShmConfig.defaults(),
                    TcpConfig.defaults());
            this.poller = Thread.ofPlatform().daemon().start(() -> {
                while (!stop) {
                    if (!transport.poll()) {
                        transport.await(TimeUnit.MILLISECONDS.toNanos(20));
                    }
                }
            });
        }

        @Override
        public void onFrame(int peer, MemorySegment header, MemorySegment payload) {
            if (FrameLayout.getInt(header, FrameLayout.SOURCE) != peer || payload.byteSize() != 5) {
                problems.add("bad frame from " + peer);
            }
            frames.countDown();
        }

        @Override
        public void onPeerFailure(int peer, Throwable cause) {
            problems.add("rank " + peer + " failed: " + cause);
        }

        @Override
        public void close() throws InterruptedException {
            stop = true;
            transport.wakeup();
            poller.join();
            transport.close();
        }
    }

    private static List<Rank> start(int[] host, TransportChoice choice) {
        Map<String, String> space = new ConcurrentHashMap<>();
        String job = "sel_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
        List<Rank> ranks = new ArrayList<>();
        for (int r = 0; r < host.length; r++) {
            ranks.add(new Rank(new HostsBootstrap(r, host.length, job, space, host), choice, host.length - 1));
        }
        return ranks;
    }

    private static void exchange(List<Rank> ranks) throws InterruptedException {
        for (int from = 0; from < ranks.size(); from++) {
            for (int to = 0; to < ranks.size(); to++) {
                if (from != to) {
                    MemorySegment h = MemorySegment.ofArray(new byte[FrameLayout.HEADER_BYTES]);
                    FrameLayout.putInt(h, FrameLayout.PAYLOAD, 5);
                    FrameLayout.putInt(h, FrameLayout.SOURCE, from);
                    ranks.get(from).transport.send(to, h, MemorySegment.ofArray(new byte[5]), null);
                }
            }
        }
        for (Rank r : ranks) {
            assertThat(r.frames.await(30, SECONDS)).isTrue();
            assertThat(r.problems).isEmpty();
        }
    }

    @Test
    void sharedMemoryOnTheSameHostTcpAcrossHosts() throws Exception {
        List<Rank> ranks = start(new int[] {0, 0, 1}, new TransportChoice(TransportChoice.Mode.AUTO, false));
        try {
            exchange(ranks);
            Transport t0 = ranks.get(0).transport;
            assertThat(ranks.get(0).transport.transportOf(1)).isEqualTo("shm");
            assertThat(ranks.get(0).transport.transportOf(2)).isEqualTo("tcp");
            assertThat(ranks.get(2).transport.shm()).as("alone on its host: no segment").isNull();
            assertThat(ranks.get(2).transport.transportOf(0)).isEqualTo("tcp");
            assertThat(t0.name()).isEqualTo("shm+tcp");
            assertThat(ranks.get(0).transport.describeRoutes()).contains("shm -> 1").contains("tcp -> 2")
                    .contains("self -> 0");
            // each peer's eager limit and data frames are its transport's; TCP's data is not split for pipelining
            assertThat(ranks.get(0).transport.eagerLimit(1)).isEqualTo(ShmConfig.defaults().eagerLimit());
            assertThat(ranks.get(0).transport.eagerLimit(2)).isEqualTo(TcpConfig.defaults().eagerLimit());
            assertThat(ranks.get(0).transport.chunkBytes(2)).isEqualTo(TcpConfig.defaults().chunkBytes());
            assertThat(ranks.get(0).transport.splitsData(1)).isTrue();
            assertThat(ranks.get(0).transport.splitsData(2)).isFalse();
            assertThat(ranks.get(0).transport.canReadFrom(2)).isFalse();
        } finally {
            for (Rank r : ranks) {
                r.close();
            }
        }
    }

    @Test
    void aLocalPeerOverTcpIsHeardAndTcpIsThenPolledOnEveryPass() throws Exception {
        // rank 0 has shared memory and only local peers, so it looks at TCP rarely; rank 1 (TCP forced, as a peer that
        // could not map segments) talks to it over TCP all the same
        Map<String, String> space = new ConcurrentHashMap<>();
        String job = "sel_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
        int[] host = {0, 0};
        int frames = 50;
        Rank r0 = new Rank(new HostsBootstrap(0, 2, job, space, host), new TransportChoice(TransportChoice.Mode.AUTO,
                false), frames);
        Rank r1 = new Rank(new HostsBootstrap(1, 2, job, space, host), new TransportChoice(TransportChoice.Mode.TCP,
                false), 1);
        try {
            assertThat(r0.transport.shm()).isNotNull();
            assertThat(r0.transport.pollsTcpOnEveryPass()).as("only local peers").isFalse();
            for (int i = 0; i < frames; i++) {
                MemorySegment h = MemorySegment.ofArray(new byte[FrameLayout.HEADER_BYTES]);
                FrameLayout.putInt(h, FrameLayout.PAYLOAD, 5);
                FrameLayout.putInt(h, FrameLayout.SOURCE, 1);
                r1.transport.send(0, h, MemorySegment.ofArray(new byte[5]), null);
            }
            assertThat(r0.frames.await(30, SECONDS)).as("every frame over TCP arrives").isTrue();
            assertThat(r0.problems).isEmpty();
            assertThat(r0.transport.pollsTcpOnEveryPass()).as("a peer talks over TCP").isTrue();
            assertThat(r0.transport.transportOf(1)).isEqualTo("tcp");
            MemorySegment h = MemorySegment.ofArray(new byte[FrameLayout.HEADER_BYTES]);
            FrameLayout.putInt(h, FrameLayout.PAYLOAD, 5);
            FrameLayout.putInt(h, FrameLayout.SOURCE, 0);
            r0.transport.send(1, h, MemorySegment.ofArray(new byte[5]), null);
            assertThat(r1.frames.await(30, SECONDS)).isTrue();
            assertThat(r1.problems).isEmpty();
        } finally {
            r0.close();
            r1.close();
        }
    }

    /**
     * What a waiting thread spins on: with only local peers (TCP quiet) the shared-memory look, false once every frame
     * was taken; once TCP is polled on every pass (other jobs expected) always true. With a peer on another host,
     * always true.
     */
    @Test
    void aQuietTcpLeavesTheLookToSharedMemory() throws Exception {
        List<Rank> local = start(new int[] {0, 0}, new TransportChoice(TransportChoice.Mode.AUTO, false));
        try {
            exchange(local);
            SelectingTransport t0 = local.get(0).transport;
            assertThat(t0.pollsTcpOnEveryPass()).isFalse();
            long deadline = System.nanoTime() + SECONDS.toNanos(20);
            while (t0.mayHaveWork()) { // the poller thread takes what is left
                assertThat(System.nanoTime()).as("nothing left to poll").isLessThan(deadline);
                Thread.onSpinWait();
            }
            t0.expectOtherJobs();
            assertThat(t0.mayHaveWork()).as("TCP polled on every pass").isTrue();
        } finally {
            for (Rank r : local) {
                r.close();
            }
        }
        List<Rank> mixed = start(new int[] {0, 0, 1}, new TransportChoice(TransportChoice.Mode.AUTO, false));
        try {
            exchange(mixed);
            assertThat(mixed.get(0).transport.mayHaveWork()).as("a peer on another host").isTrue();
        } finally {
            for (Rank r : mixed) {
                r.close();
            }
        }
    }

    @Test
    void tcpEverywhereWhenForced() throws Exception {
        List<Rank> ranks = start(new int[] {0, 0, 0}, new TransportChoice(TransportChoice.Mode.TCP, false));
        try {
            exchange(ranks);
            for (Rank r : ranks) {
                assertThat(r.transport.shm()).isNull();
            }
            assertThat(ranks.get(1).transport.transportOf(0)).isEqualTo("tcp");
            assertThat(ranks.get(1).transport.chunkBytes(0)).isEqualTo(TcpConfig.defaults().chunkBytes());
        } finally {
            for (Rank r : ranks) {
                r.close();
            }
        }
    }

    @Test
    void choiceIsReadFromPropertiesAndEnvironment() {
        assertThat(TransportChoice.from(k -> null, k -> null)).isEqualTo(
                new TransportChoice(TransportChoice.Mode.AUTO, false));
        assertThat(TransportChoice.from(k -> k.equals("jmpi.transport") ? "TCP" : null, k -> null).mode())
                .isEqualTo(TransportChoice.Mode.TCP);
        assertThat(TransportChoice.from(k -> null, k -> k.equals("JMPI_TRANSPORT") ? "shm" : null).mode())
                .isEqualTo(TransportChoice.Mode.SHM);
        assertThat(TransportChoice.from(k -> null, k -> k.equals("JMPI_VERBOSE") ? "1" : null).verbose()).isTrue();
        assertThat(TransportChoice.from(k -> k.equals("jmpi.verbose") ? "false" : null, k -> null).verbose())
                .isFalse();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TransportChoice.from(
                k -> k.equals("jmpi.transport") ? "carrier-pigeon" : null, k -> null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jmpi.transport");
    }
}
