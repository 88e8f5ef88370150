package org.jmpi.transport.shm;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.shm.ShmCluster.Node;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 60, unit = SECONDS)
class ShmTransportTest {
    /** Rings of 16 KiB: records of up to 8 KiB, so frames above that are split, and rings fill and wrap often. */
    static final ShmConfig SMALL = new ShmConfig("/dev/shm", 16 << 10, 16 << 20, 4 << 10, 4 << 10, true, 32 << 10,
            256 << 10, 64 << 10);

    // ------------------------------------------------------------------------------------------------- helpers

    static MemorySegment header(int payloadLength, int source, int tag, long seq) {
        MemorySegment h = MemorySegment.ofArray(new byte[FrameLayout.HEADER_BYTES]);
        setHeader(h, payloadLength, source, tag, seq);
        return h;
    }

    static void setHeader(MemorySegment h, int payloadLength, int source, int tag, long seq) {
        FrameLayout.putInt(h, FrameLayout.PAYLOAD, payloadLength);
        FrameLayout.putInt(h, FrameLayout.SOURCE, source);
        FrameLayout.putInt(h, FrameLayout.TAG, tag);
        FrameLayout.putLong(h, FrameLayout.SEND_ID, seq);
    }

    static byte pattern(int source, int tag, long seq, long i) {
        return (byte) (i * 131 + (i >>> 9) + seq * 7 + source * 13 + tag * 3);
    }

    static MemorySegment patterned(int kind, int length, int source, int tag, long seq) {
        if (length == 0) {
            return (seq & 1) == 0 ? null : MemorySegment.ofArray(new byte[0]);
        }
        MemorySegment s = switch (kind & 3) {
            case 0 -> MemorySegment.ofArray(new byte[length]);
            case 1 -> MemorySegment.ofArray(new int[(length + 3) / 4]).asSlice(0, length);
            case 2 -> MemorySegment.ofArray(new long[(length + 7) / 8]).asSlice(0, length);
            default -> Arena.ofAuto().allocate(length);
        };
        for (long i = 0; i < length; i++) {
            s.set(ValueLayout.JAVA_BYTE, i, pattern(source, tag, seq, i));
        }
        return s;
    }

    static void checkPattern(MemorySegment payload, int source, int tag, long seq) {
        long n = payload.byteSize();
        for (long i = 0; i < n; i++) {
            if (payload.get(ValueLayout.JAVA_BYTE, i) != pattern(source, tag, seq, i)) {
                throw new AssertionError("payload byte " + i + " of frame " + seq + " from rank " + source + "/"
                        + tag + " is wrong");
            }
        }
    }

    static Runnable once(CountDownLatch latch, ConcurrentLinkedQueue<Throwable> errors) {
        AtomicBoolean ran = new AtomicBoolean();
        return () -> {
            if (!ran.compareAndSet(false, true)) {
                errors.add(new AssertionError("onWritten ran twice"));
            }
            latch.countDown();
        };
    }

    interface Task {
        void run() throws Exception;
    }

    static void runConcurrently(List<Task> tasks) throws InterruptedException {
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (Task t : tasks) {
            threads.add(Thread.ofPlatform().daemon().start(() -> {
                try {
                    t.run();
                } catch (Throwable e) {
                    errors.add(e);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        if (!errors.isEmpty()) {
            AssertionError e = new AssertionError("a sender failed", errors.peek());
            errors.stream().skip(1).forEach(e::addSuppressed);
            throw e;
        }
    }

    static int randomSize(Random r) {
        int x = r.nextInt(100);
        if (x < 5) {
            return 0;
        } else if (x < 80) {
            return 1 + r.nextInt(512);
        } else if (x < 97) {
            return 513 + r.nextInt(12 << 10);
        }
        return 1 + r.nextInt(200 << 10);
    }

    static List<Path> segmentFiles(String jobId) throws IOException {
        String prefix = ShmSegment.fileName(jobId, 0);
        String stem = prefix.substring(0, prefix.length() - 1);
        try (var s = Files.list(Path.of("/dev/shm"))) {
            return s.filter(p -> p.getFileName().toString().startsWith(stem)).toList();
        }
    }

    private final List<String> jobs = new ArrayList<>();

    private ShmCluster cluster(int n, ShmConfig config) {
        ShmCluster c = ShmCluster.start(n, config);
        jobs.add(c.jobId);
        return c;
    }

    @AfterEach
    void noSegmentFileIsLeftBehind() throws IOException {
        for (String job : jobs) {
            assertThat(segmentFiles(job)).as("segment files of job %s", job).isEmpty();
        }
    }

    // --------------------------------------------------------------------------------------------------- tests

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4, 8})
    void perPairFifoUnderRandomSizesAndConcurrentSenders(int n) throws Exception {
        final int senders = 2;
        final int framesPerSender = 600 / n;
        final long seed = System.nanoTime();
        Random plan = new Random(seed);
        int[][][] dest = new int[n][senders][framesPerSender];
        int[][][] size = new int[n][senders][framesPerSender];
        int total = 0;
        for (int r = 0; r < n; r++) {
            for (int t = 0; t < senders; t++) {
                for (int i = 0; i < framesPerSender; i++) {
                    int d = plan.nextInt(n - 1);
                    dest[r][t][i] = d >= r ? d + 1 : d;
                    size[r][t][i] = i == 0 ? 300 << 10 : randomSize(plan); // one frame of many records each
                    total++;
                }
            }
        }
        CountDownLatch received = new CountDownLatch(total);
        CountDownLatch written = new CountDownLatch(total);
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        try (ShmCluster c = cluster(n, SMALL)) {
            for (Node node : c.nodes) {
                long[][] next = new long[n][senders]; // poll thread only
                node.handler = (self, peer, h, p) -> {
                    int src = FrameLayout.getInt(h, FrameLayout.SOURCE);
                    int tag = FrameLayout.getInt(h, FrameLayout.TAG);
                    long seq = FrameLayout.getLong(h, FrameLayout.SEND_ID);
                    if (src != peer || seq != next[src][tag]) {
                        throw new AssertionError("rank " + self.rank + ": from rank " + peer + "/" + tag + " got "
                                + seq + " (source field " + src + "), expected " + next[src][tag] + "; seed " + seed);
                    }
                    next[src][tag]++;
                    assertThat(p.byteSize()).isEqualTo(FrameLayout.payloadLength(h));
                    checkPattern(p, src, tag, seq);
                    received.countDown();
                };
            }
            List<Task> tasks = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                for (int t = 0; t < senders; t++) {
                    int rank = r;
                    int tag = t;
                    tasks.add(() -> {
                        long[] seqTo = new long[n];
                        MemorySegment h = header(0, 0, 0, 0); // reused: send copies it
                        ShmTransport tr = c.node(rank).transport;
                        for (int i = 0; i < framesPerSender; i++) {
                            int d = dest[rank][tag][i];
                            int len = size[rank][tag][i];
                            // per-thread sequence: tag t of rank r numbers its frames to each destination
                            long seq = seqTo[d]++;
                            MemorySegment payload = patterned(i + tag, len, rank, tag, seq);
                            setHeader(h, len, rank, tag, seq);
                            tr.send(d, h, payload, once(written, errors));
                        }
                    });
                }
            }
            runConcurrently(tasks);
            assertThat(received.await(50, SECONDS)).as("every frame arrived").isTrue();
            assertThat(written.await(10, SECONDS)).as("every onWritten ran").isTrue();
            c.assertHealthy();
            assertThat(errors).isEmpty();
        }
    }

    @Test
    void hundredThousandSmallFramesArriveAllAndInOrder() throws Exception {
        final int frames = 100_000;
        MemorySegment[] payloads = new MemorySegment[65];
        for (int len = 0; len < payloads.length; len++) {
            byte[] b = new byte[len];
            java.util.Arrays.fill(b, (byte) len);
            payloads[len] = MemorySegment.ofArray(b);
        }
        CountDownLatch received = new CountDownLatch(2 * frames);
        try (ShmCluster c = cluster(2, SMALL)) {
            for (Node node : c.nodes) {
                long[] next = new long[1];
                node.handler = (self, peer, h, p) -> {
                    long seq = FrameLayout.getLong(h, FrameLayout.SEND_ID);
                    if (seq != next[0]) {
                        throw new AssertionError("rank " + self.rank + " got frame " + seq + ", expected " + next[0]);
                    }
                    next[0]++;
                    int len = (int) (seq % payloads.length);
                    if (p.byteSize() != len || len > 0 && p.get(ValueLayout.JAVA_BYTE, len - 1) != (byte) len) {
                        throw new AssertionError("frame " + seq + " has a wrong payload");
                    }
                    received.countDown();
                };
            }
            List<Task> tasks = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                int rank = r;
                tasks.add(() -> {
                    MemorySegment h = header(0, rank, 0, 0);
                    for (int seq = 0; seq < frames; seq++) {
                        int len = seq % payloads.length;
                        setHeader(h, len, rank, 0, seq);
                        c.node(rank).transport.send(1 - rank, h, payloads[len], null);
                    }
                });
            }
            runConcurrently(tasks);
            assertThat(received.await(50, SECONDS)).isTrue();
            c.assertHealthy();
        }
    }

    @Test
    void framesQueuedForRoomAllocateNothingOnceWarm() throws Exception {
        // the receiver holds its first frame of each burst, so the sender's frames queue behind a full 16 KiB ring
        // (about 128 records of 128 bytes); a queued frame's record and header copy are reused once it is written
        final int burst = 300;
        final int bursts = 60;
        MemorySegment payload = MemorySegment.ofArray(new byte[64]);
        MemorySegment h = header(64, 0, 0, 0);
        AtomicInteger received = new AtomicInteger();
        AtomicInteger written = new AtomicInteger();
        Runnable onWritten = written::incrementAndGet;
        CountDownLatch[] hold = {new CountDownLatch(0)};
        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        try (ShmCluster c = cluster(2, SMALL)) {
            c.node(1).handler = (self, peer, hh, p) -> {
                try {
                    hold[0].await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                received.incrementAndGet();
            };
            long allocated = 0;
            for (int b = 0; b < bursts; b++) {
                hold[0] = new CountDownLatch(1);
                int writtenBefore = written.get();
                long before = mx.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < burst; i++) {
                    c.node(0).transport.send(1, h, payload, onWritten);
                }
                long after = mx.getCurrentThreadAllocatedBytes();
                assertThat(written.get() - writtenBefore).as("frames written at once in burst %d", b)
                        .isLessThan(burst);
                if (b >= bursts / 2) {
                    allocated += after - before;
                }
                hold[0].countDown();
                int expected = (b + 1) * burst;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (received.get() < expected || written.get() < expected) {
                    assertThat(System.nanoTime()).as("burst %d delivered", b).isLessThan(deadline);
                    Thread.onSpinWait();
                }
            }
            double perFrame = (double) allocated / (bursts / 2 * burst);
            assertThat(perFrame).as("bytes allocated per frame sent, half of them queued (a new record per queued"
                    + " frame made it 23)").isLessThan(2.0);
            c.assertHealthy();
        }
    }

    @Test
    void sendsFromInsideOnFrameAndOnWrittenKeepOrder() throws Exception {
        // rank 1 echoes every frame from inside onFrame and sends a marker from inside each echo's onWritten
        final int frames = 2000;
        CountDownLatch done = new CountDownLatch(2 * frames);
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        try (ShmCluster c = cluster(2, SMALL)) {
            long[] expect = new long[1];
            c.node(0).handler = (self, peer, h, p) -> {
                long seq = FrameLayout.getLong(h, FrameLayout.SEND_ID);
                if (seq != expect[0]++) {
                    errors.add(new AssertionError("rank 0 got " + seq + ", expected " + (expect[0] - 1)));
                }
                done.countDown();
            };
            long[] calls = new long[1]; // rank 1 sends only from its poll thread: numbers frames in call order
            c.node(1).handler = (self, peer, h, p) -> self.transport.send(0, header(100, 1, 0, calls[0]++),
                    MemorySegment.ofArray(new byte[100]),
                    () -> self.transport.send(0, header(0, 1, 0, calls[0]++), null, null));
            MemorySegment h = header(10, 0, 0, 0);
            for (int i = 0; i < frames; i++) {
                FrameLayout.putLong(h, FrameLayout.SEND_ID, i);
                c.node(0).transport.send(1, h, MemorySegment.ofArray(new byte[10]), null);
            }
            assertThat(done.await(30, SECONDS)).isTrue();
            assertThat(errors).isEmpty();
            c.assertHealthy();
        }
    }

    /** Sleeps in futex only, for as long as the test says: only a doorbell can end them early. */
    private static void futexSleepsOnly() {
        assumeTrue(LinuxCalls.prepare().futex, "futex is available");
        ShmTransport.futexCapNanos = TimeUnit.SECONDS.toNanos(30);
    }

    @AfterEach
    void defaultFutexCap() {
        ShmTransport.futexCapNanos = ShmTransport.FUTEX_CAP_NANOS;
    }

    /**
     * The cheap looks a waiting thread spins on ({@link ShmTransport#mayHaveWork}, {@link ShmTransport#arrived}):
     * false while nothing waits in a ring, true once a frame is in the receiver's ring and until it is polled, and a
     * poll then finds exactly what they announced.
     */
    @Test
    @Timeout(30)
    void theLooksAWaitSpinsOnSeeAFrameUntilItIsPolled() throws Exception {
        try (ShmCluster c = cluster(3, ShmConfig.defaults())) {
            Node a = c.node(0);
            Node b = c.node(1);
            for (Node n : c.nodes) {
                n.stopPolling();
            }
            AtomicInteger got = new AtomicInteger();
            b.handler = (self, peer, h, p) -> got.incrementAndGet();
            assertThat(b.transport.mayHaveWork()).isFalse();
            assertThat(b.transport.arrived(0)).isFalse();
            a.transport.send(1, header(8, 0, 0, 0), MemorySegment.ofArray(new byte[8]), null);
            long deadline = System.nanoTime() + SECONDS.toNanos(20);
            while (!b.transport.arrived(0)) { // written at once, or queued at the sender until a poll writes it
                assertThat(a.transport.mayHaveWork()).as("the sender holds the frame").isTrue();
                a.transport.poll();
                assertThat(System.nanoTime()).as("the frame reached the ring").isLessThan(deadline);
            }
            assertThat(b.transport.arrived(2)).as("nothing from rank 2").isFalse();
            assertThat(b.transport.mayHaveWork()).isTrue();
            assertThat(b.transport.poll()).isTrue();
            assertThat(got).hasValue(1);
            assertThat(b.transport.mayHaveWork()).isFalse();
            assertThat(b.transport.arrived(0)).isFalse();
            assertThat(b.transport.poll()).isFalse();
            c.assertHealthy();
        }
    }

    @Test
    void aSleepingReceiverIsWokenByTheDoorbell() throws Exception {
        futexSleepsOnly();
        try (ShmCluster c = cluster(2, ShmConfig.defaults())) {
            CountDownLatch got = new CountDownLatch(20);
            for (Node n : c.nodes) {
                n.awaitNanos = TimeUnit.SECONDS.toNanos(30); // only a doorbell can wake them in time
            }
            c.node(1).handler = (self, peer, h, p) -> got.countDown();
            long start = System.nanoTime();
            for (int i = 0; i < 20; i++) {
                Thread.sleep(5); // let rank 1 fall asleep on its doorbell between frames
                c.node(0).transport.send(1, header(8, 0, 0, i), MemorySegment.ofArray(new byte[8]), null);
            }
            assertThat(got.await(20, SECONDS)).isTrue();
            assertThat(System.nanoTime() - start).as("woken by the doorbell, not by the 30 s timeout")
                    .isLessThan(TimeUnit.SECONDS.toNanos(10));
            c.assertHealthy();
        }
    }

    /**
     * A sender checks the doorbell without a fence, so a wake can be lost when the receiver arms its doorbell in the
     * same few nanoseconds; the receiver's sleep then ends by its timeout, which is short (at most
     * {@link ShmTransport#FUTEX_CAP_NANOS}). Each frame is sent just as the receiver arms its doorbell (the narrowest
     * window) or a little later, while the receiver is asked to wait for 30 s: every frame must still arrive within a
     * second (a lost wake costs milliseconds, never the 30 s).
     */
    @Test
    void aLostWakeCostsAtMostTheSleepCap() throws Exception {
        assumeTrue(LinuxCalls.prepare().futex, "futex is available");
        final int frames = 2_000;
        try (ShmCluster c = cluster(2, ShmConfig.defaults())) {
            c.node(0).awaitNanos = 0;
            c.node(1).awaitNanos = TimeUnit.SECONDS.toNanos(30);
            java.util.concurrent.atomic.AtomicLong got = new java.util.concurrent.atomic.AtomicLong();
            c.node(1).handler = (self, peer, h, p) -> got.incrementAndGet();
            ShmTransport sender = c.node(0).transport;
            ShmTransport receiver = c.node(1).transport;
            java.util.SplittableRandom random = new java.util.SplittableRandom(42);
            long start = System.nanoTime();
            for (int i = 0; i < frames; i++) {
                long armed = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (receiver.doorbellWord() == 0) { // wait until rank 1 arms its doorbell to sleep
                    assertThat(System.nanoTime()).as("rank 1 sleeps between frames").isLessThan(armed);
                    Thread.onSpinWait();
                }
                for (int spin = random.nextInt(4) == 0 ? random.nextInt(2_000) : 0; spin > 0; spin--) {
                    Thread.onSpinWait();
                }
                sender.send(1, header(8, 0, 0, i), MemorySegment.ofArray(new byte[8]), null);
                long arrived = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
                while (got.get() <= i) {
                    assertThat(System.nanoTime()).as("frame %d reached rank 1 (not its 30 s wait)", i)
                            .isLessThan(arrived);
                    Thread.onSpinWait();
                }
            }
            assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(60));
            assertThat(got.get()).isEqualTo(frames);
            c.assertHealthy();
        }
    }

    /** A node's handler that expects frames numbered 0, 1, 2, ... in their SEND_ID field, each once. */
    private record InOrder(CountDownLatch all, ConcurrentLinkedQueue<String> problems) {
        static InOrder at(ShmCluster.Node node, int frames) {
            InOrder o = new InOrder(new CountDownLatch(frames), new ConcurrentLinkedQueue<>());
            java.util.concurrent.atomic.AtomicLong next = new java.util.concurrent.atomic.AtomicLong();
            node.handler = (self, peer, h, p) -> {
                long seq = FrameLayout.getLong(h, FrameLayout.SEND_ID);
                if (seq != next.getAndIncrement()) {
                    o.problems.add("frame " + seq + " out of order");
                }
                o.all.countDown();
            };
            return o;
        }

        /** Waits up to 30 s for every frame and asserts that each came once and in order. */
        void await() throws InterruptedException {
            assertThat(all.await(30, SECONDS)).isTrue();
            assertThat(problems).isEmpty();
        }
    }

    @Test
    void wakeupEndsAnAwait() throws Exception {
        try (ShmCluster c = cluster(2, ShmConfig.defaults())) {
            c.node(0).stopPolling();
            ShmTransport t = c.node(0).transport;
            Thread waker = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
                t.wakeup();
            });
            long start = System.nanoTime();
            t.await(TimeUnit.SECONDS.toNanos(30));
            assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(10));
            waker.join();
            t.wakeup(); // a wakeup before await makes the next await return at once
            start = System.nanoTime();
            t.await(TimeUnit.SECONDS.toNanos(30));
            assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(10));
        }
    }

    @Test
    void aSenderWaitingForRoomIsWokenWhenTheReceiverConsumes() throws Exception {
        // frames of 6 KiB through a 16 KiB ring: the sender queues most of them; both sides sleep for 30 s unless a
        // doorbell wakes them, so finishing quickly shows the consumer rang the producer when it made room
        futexSleepsOnly();
        final int frames = 400;
        CountDownLatch got = new CountDownLatch(frames);
        CountDownLatch written = new CountDownLatch(frames);
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        try (ShmCluster c = cluster(2, SMALL)) {
            for (Node n : c.nodes) {
                n.awaitNanos = TimeUnit.SECONDS.toNanos(30);
            }
            c.node(1).handler = (self, peer, h, p) -> {
                checkPattern(p, 0, 0, FrameLayout.getLong(h, FrameLayout.SEND_ID));
                got.countDown();
            };
            long start = System.nanoTime();
            for (int i = 0; i < frames; i++) {
                c.node(0).transport.send(1, header(6 << 10, 0, 0, i), patterned(i, 6 << 10, 0, 0, i),
                        once(written, errors));
            }
            assertThat(got.await(25, SECONDS)).isTrue();
            assertThat(written.await(25, SECONDS)).isTrue();
            assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(20));
            assertThat(errors).isEmpty();
            c.assertHealthy();
        }
    }

    @Test
    void segmentIsPrivateToTheUserAndRemovedByClose() throws Exception {
        ShmCluster c = cluster(3, ShmConfig.defaults());
        try {
            List<Path> files = segmentFiles(c.jobId);
            assertThat(files).hasSize(3);
            for (Path f : files) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
                assertThat(f.getFileName().toString()).startsWith("jmpi-").contains(c.jobId);
            }
            assertThat(c.node(0).transport.segmentPath()).isIn(files);
        } finally {
            c.close();
        }
        assertThat(segmentFiles(c.jobId)).isEmpty();
        c.node(0).transport.close(); // idempotent
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void everyFileIsGoneOnceEveryPeerMappedItAndFramesStillFlow(int n) throws Exception {
        try (ShmCluster c = cluster(n, ShmConfig.defaults())) {
            assertThat(segmentFiles(c.jobId)).hasSize(n);
            for (int r = 0; r < n - 1; r++) {
                c.node(r).transport.mapAllPeers();
            }
            // only the last rank's file has been mapped by every other rank: the others still wait for it
            assertThat(segmentFiles(c.jobId)).hasSize(n - 1);
            c.node(n - 1).transport.mapAllPeers();
            assertThat(segmentFiles(c.jobId)).isEmpty();
            CountDownLatch received = new CountDownLatch(n * (n - 1));
            for (Node node : c.nodes) {
                node.handler = (self, peer, h, p) -> received.countDown();
            }
            for (int r = 0; r < n; r++) {
                for (int q = 0; q < n; q++) {
                    if (q != r) {
                        c.node(r).transport.send(q, header(0, r, 0, 0), null, null);
                    }
                }
            }
            assertThat(received.await(20, SECONDS)).isTrue();
            c.assertHealthy();
        }
    }

    @Test
    void staleFilesAreThoseOfDeadOrReplacedOwners() throws Exception {
        Path dir = Files.createTempDirectory("jmpi-stale");
        try {
            Process gone = new ProcessBuilder("true").start();
            gone.waitFor();
            long self = ProcessHandle.current().pid();
            Path dead = staleCandidate(dir, "jmpi-a-0", gone.pid(), ShmSegment.OWN_START, ShmSegment.OWN_PID_NAMESPACE);
            Path live = staleCandidate(dir, "jmpi-a-1", self, ShmSegment.OWN_START, ShmSegment.OWN_PID_NAMESPACE);
            Path reused = staleCandidate(dir, "jmpi-a-2", self, ShmSegment.OWN_START - 1000,
                    ShmSegment.OWN_PID_NAMESPACE);
            Path otherNs = staleCandidate(dir, "jmpi-a-3", gone.pid(), 1, ShmSegment.OWN_PID_NAMESPACE + 1);
            Path young = dir.resolve("jmpi-a-4");
            Files.write(young, new byte[4096]); // header never written, just created
            Path notOurs = dir.resolve("other-5");
            Files.write(notOurs, new byte[1]);
            long now = System.currentTimeMillis();
            assertThat(ShmSegment.isStale(dead, now)).isTrue();
            assertThat(ShmSegment.isStale(live, now)).isFalse();
            assertThat(ShmSegment.isStale(reused, now)).isTrue();
            assertThat(ShmSegment.isStale(otherNs, now)).isFalse();
            assertThat(ShmSegment.isStale(young, now)).isFalse();
            assertThat(ShmSegment.isStale(young, now + ShmSegment.HEADERLESS_AGE_MILLIS + 60_000)).isTrue();
            assertThat(ShmTransport.removeStaleSegments(dir)).isEqualTo(2);
            try (var files = Files.list(dir)) {
                assertThat(files.map(f -> f.getFileName().toString()))
                        .containsExactlyInAnyOrder("jmpi-a-1", "jmpi-a-3", "jmpi-a-4", "other-5");
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    /** A file with a complete segment header naming {@code pid}, started at {@code start}, in namespace {@code ns}. */
    private static Path staleCandidate(Path dir, String name, long pid, long start, long ns) throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4096).order(java.nio.ByteOrder.nativeOrder());
        b.putLong((int) ShmLayout.MAGIC_OFFSET, ShmLayout.MAGIC);
        b.putInt((int) ShmLayout.VERSION_OFFSET, ShmLayout.VERSION);
        b.putLong((int) ShmLayout.OWNER_PID, pid);
        b.putLong((int) ShmLayout.OWNER_START, start);
        b.putLong((int) ShmLayout.OWNER_PID_NAMESPACE, ns);
        Path f = dir.resolve(name);
        Files.write(f, b.array());
        return f;
    }

    @Test
    void removeSegmentsTakesOnlyTheFilesOfTheNamedJob() throws Exception {
        String job = ShmCluster.newJobId();
        String other = job + "9"; // "jmpi-test_..._19-0" must survive a sweep of job "test_..._1"
        List<Path> created = new ArrayList<>();
        for (String j : new String[] {job, other}) {
            for (int r = 0; r < 2; r++) {
                Path p = Path.of("/dev/shm", ShmSegment.fileName(j, r));
                Files.write(p, new byte[1]);
                created.add(p);
            }
        }
        try {
            assertThat(ShmTransport.removeSegments(Path.of("/dev/shm"), job)).isEqualTo(2);
            assertThat(segmentFiles(job)).extracting(p -> p.getFileName().toString())
                    .allMatch(n -> n.startsWith(ShmSegment.fileName(other, 0).replace("-0", "")));
            assertThat(Files.exists(created.get(2))).isTrue();
            assertThat(ShmTransport.removeSegments(Path.of("/no/such/dir"), job)).isZero();
        } finally {
            for (Path p : created) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Test
    void singleCopyReadsStraightFromThePeersMemory() throws Exception {
        try (ShmCluster c = cluster(2, ShmConfig.defaults()); Arena arena = Arena.ofShared()) {
            ShmTransport t = c.node(1).transport;
            assumeTrue(LinuxCalls.prepare().processVm, "process_vm_readv is available");
            assertThat(t.canReadFrom(0)).as("the probe succeeds within one process").isTrue();
            MemorySegment src = arena.allocate(1 << 20, 4096);
            for (long i = 0; i < src.byteSize(); i += 8) {
                src.set(ValueLayout.JAVA_LONG, i, i * 31);
            }
            MemorySegment dst = arena.allocate(1 << 20, 4096);
            assertThat(t.read(0, src.address() + 8, dst.asSlice(0, (1 << 20) - 8))).isTrue();
            assertThat(dst.asSlice(0, (1 << 20) - 8).mismatch(src.asSlice(8))).isEqualTo(-1);
            assertThat(t.read(0, src.address(), MemorySegment.ofArray(new byte[8]))).as("heap target").isFalse();
            assertThat(t.canReadFrom(0)).as("a heap target does not turn it off").isTrue();
            assertThat(t.read(0, 8, dst.asSlice(0, 64))).as("an unmapped address fails").isFalse();
            assertThat(t.canReadFrom(0)).as("a failure turns it off for that peer").isFalse();
        }
    }

    @Test
    void singleCopyIsRefusedAtTheDistancesWhereTheKernelCopiesSlowly() throws Exception {
        assertThat(ShmTransport.slowDistance(4096 + 1, 0, 1 << 20)).isTrue();
        assertThat(ShmTransport.slowDistance(16, 0, 1 << 20)).isTrue();
        assertThat(ShmTransport.slowDistance(8192 + 31, 4096, 1 << 20)).isTrue();
        assertThat(ShmTransport.slowDistance(0, 4096 - 16, 1 << 20)).as("wraps modulo 4 KiB").isTrue();
        assertThat(ShmTransport.slowDistance(4096, 0, 1 << 20)).as("same offset in the page").isFalse();
        assertThat(ShmTransport.slowDistance(32, 0, 1 << 20)).isFalse();
        assertThat(ShmTransport.slowDistance(0, 16, 1 << 20)).as("destination before the source").isFalse();
        assertThat(ShmTransport.slowDistance(16, 0, 4095)).as("short copies are not refused").isFalse();
        try (ShmCluster c = cluster(2, ShmConfig.defaults()); Arena arena = Arena.ofShared()) {
            ShmTransport t = c.node(1).transport;
            assumeTrue(LinuxCalls.prepare().processVm, "process_vm_readv is available");
            assertThat(t.canReadFrom(0)).isTrue();
            MemorySegment src = arena.allocate(1 << 20, 4096);
            src.fill((byte) 7);
            MemorySegment dst = arena.allocate(1 << 20, 4096);
            long n = 256 << 10;
            assertThat(t.read(0, src.address(), dst.asSlice(16, n))).as("read 16 bytes after").isFalse();
            assertThat(t.write(0, src.asSlice(0, n), dst.address() + 16)).as("write 16 bytes after").isFalse();
            assertThat(dst.asSlice(16, n).mismatch(src.asSlice(0, n))).as("nothing was copied").isZero();
            assertThat(t.canReadFrom(0)).as("a refusal does not turn single copy off").isTrue();
            assertThat(t.read(0, src.address(), dst.asSlice(32, n))).as("read 32 bytes after").isTrue();
            assertThat(dst.asSlice(32, n).mismatch(src.asSlice(0, n))).isEqualTo(-1);
            assertThat(t.write(0, src.asSlice(16, n), dst.address())).as("write 16 bytes before").isTrue();
            assertThat(t.read(0, src.address(), dst.asSlice(16, 64))).as("64 bytes 16 bytes after").isTrue();
        }
    }

    @Test
    void withoutFutexASleeperIsWokenByWakeupAndByItsBackoff() throws Exception {
        try (ShmCluster c = cluster(2, ShmConfig.defaults())) {
            c.node(0).stopPolling();
            ShmTransport t = c.node(0).transport;
            if (LinuxCalls.get() == null) {
                long start = System.nanoTime();
                t.await(TimeUnit.SECONDS.toNanos(30)); // parks with back-off: at most 1 ms
                assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(5));
            }
            CountDownLatch got = new CountDownLatch(1);
            c.node(0).handler = (self, peer, h, p) -> got.countDown();
            c.node(1).transport.send(0, header(0, 1, 0, 0), null, null);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!t.poll() && System.nanoTime() < deadline) { // bounded: a lost frame fails, not hangs
                t.await(TimeUnit.MILLISECONDS.toNanos(100));
            }
            assertThat(got.getCount()).isZero();
        }
    }

    @Test
    void singleCopyCanBeSwitchedOff() throws Exception {
        ShmConfig off = new ShmConfig("/dev/shm", 256 << 10, 16 << 20, 4 << 10, 16 << 10, false, 32 << 10,
                256 << 10, 64 << 10);
        try (ShmCluster c = cluster(2, off)) {
            assertThat(c.node(1).transport.canReadFrom(0)).isFalse();
            assertThat(c.node(1).transport.read(0, 0, Arena.ofAuto().allocate(8))).isFalse();
        }
    }

    @Test
    void hintsKeepChunksWithinARecord() throws Exception {
        try (ShmCluster c = cluster(2, SMALL)) {
            ShmTransport t = c.node(0).transport;
            assertThat(t.eagerLimit(1)).isEqualTo(4 << 10);
            assertThat(t.chunkBytes(1)).isEqualTo(4 << 10);
        }
        ShmConfig bigChunks = new ShmConfig("/dev/shm", 16 << 10, 16 << 20, 4 << 10, 1 << 20, true, 32 << 10,
                256 << 10, 64 << 10);
        try (ShmCluster c = cluster(2, bigChunks)) {
            long chunk = c.node(0).transport.chunkBytes(1);
            assertThat(chunk).isPositive().isLessThanOrEqualTo((8 << 10) - ShmLayout.PAYLOAD_OFFSET);
        }
    }

    /** An eager limit above a quarter of the ring is cut to that quarter (larger eager frames wait for room). */
    @Test
    void theEagerLimitIsAtMostAQuarterOfTheRing() throws Exception {
        ShmConfig large = new ShmConfig("/dev/shm", 256 << 10, 16 << 20, 256 << 10, 64 << 10, true, 32 << 10,
                256 << 10, 64 << 10);
        try (ShmCluster c = cluster(2, large)) {
            assertThat(c.node(0).transport.eagerLimit(1)).isEqualTo(64 << 10);
        }
        ShmConfig bigRings = new ShmConfig("/dev/shm", 1 << 20, 16 << 20, 256 << 10, 64 << 10, true, 32 << 10,
                256 << 10, 64 << 10);
        try (ShmCluster c = cluster(2, bigRings)) {
            assertThat(c.node(0).transport.eagerLimit(1)).isEqualTo(256 << 10);
        }
        try (ShmCluster c = cluster(2, ShmConfig.defaults())) {
            assertThat(c.node(0).transport.eagerLimit(1)).isEqualTo(ShmConfig.defaults().eagerLimit())
                    .isEqualTo(256 << 10);
            assertThat(c.node(0).transport.shortPayloadMax()).isEqualTo(256 << 10);
        }
        // the default rings of 6 ranks are 512 KiB: the eager limit goes down with them
        try (ShmCluster c = cluster(6, ShmConfig.defaults())) {
            assertThat(c.node(5).transport.ringBytes()).isEqualTo(512 << 10);
            assertThat(c.node(5).transport.eagerLimit(0)).isEqualTo(128 << 10);
            // one ring per other rank of the host
            assertThat(java.nio.file.Files.size(c.node(5).transport.segmentPath()))
                    .isEqualTo(ShmLayout.segmentBytes(5, 512 << 10));
        }
    }

    @Test
    void aPeerWithoutASegmentIsReportedAsFailed() throws Exception {
        try (ShmCluster c = cluster(2, ShmConfig.defaults())) {
            c.space.remove(ShmTransport.cardKey(1));
            Node n = c.node(0);
            AtomicInteger written = new AtomicInteger();
            n.transport.send(1, header(0, 0, 0, 0), null, written::incrementAndGet);
            assertThat(n.failures).hasSize(1);
            assertThat(n.failures.get(0).peer()).isEqualTo(1);
            assertThat(written).hasValue(0);
            assertThat(n.transport.reaches(1)).isFalse();
            c.node(0).failures.clear();
        }
    }

    @Test
    void sendRejectsAPayloadThatDisagreesWithItsHeader() throws Exception {
        try (ShmCluster c = cluster(2, ShmConfig.defaults())) {
            assertThatThrownBy(() -> c.node(0).transport.send(1, header(5, 0, 0, 0), MemorySegment.ofArray(
                    new byte[4]), null)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void configurationIsReadAndChecked() {
        ShmConfig d = ShmConfig.defaults();
        ShmConfig c = ShmConfig.from(k -> switch (k) {
            case "jmpi.shm.ring.bytes" -> "1m";
            case "jmpi.shm.single.copy" -> "off";
            default -> null;
        }, k -> k.equals("JMPI_SHM_EAGER_LIMIT") ? "8k" : null);
        assertThat(c.ringBytes()).isEqualTo(1 << 20);
        assertThat(c.singleCopy()).isFalse();
        assertThat(c.eagerLimit()).isEqualTo(8 << 10);
        assertThat(c.chunkBytes()).isEqualTo(d.chunkBytes());
        assertThat(c.describe()).containsEntry("jmpi.shm.ring.bytes", "1048576");
        assertThatThrownBy(() -> ShmConfig.from(k -> k.equals("jmpi.shm.ring.bytes") ? "100000" : null, k -> null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("power of two");
        assertThatThrownBy(() -> ShmConfig.from(k -> k.equals("jmpi.shm.single.copy") ? "maybe" : null, k -> null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ShmConfig.from(k -> k.equals("jmpi.shm.eager.limit") ? "lots" : null, k -> null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(ShmConfig.from(k -> null, k -> k.equals("JMPI_SHM_ADDRESS_MIN") ? "32k" : null).addressMin())
                .isEqualTo(32 << 10);
        assertThat(ShmConfig.from(k -> k.equals("jmpi.shm.address.min") ? "0" : null, k -> null).addressMin()).isZero();
        assertThatThrownBy(() -> ShmConfig.from(k -> k.equals("jmpi.shm.address.min") ? "1k" : null, k -> null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jmpi.shm.address.min");
        // by default 1 MiB rings while a rank's rings take at most 4 MiB, then smaller, down to 256 KiB
        assertThat(d.describe()).containsEntry("jmpi.shm.ring.bytes", "auto");
        assertThat(ShmConfig.from(k -> k.equals("jmpi.shm.ring.bytes") ? "Auto" : null, k -> null).ringBytes())
                .isEqualTo(d.ringBytes());
        assertThat(java.util.stream.IntStream.of(2, 3, 5, 6, 9, 10, 16).mapToObj(d::ringBytesFor))
                .containsExactly(1L << 20, 1L << 20, 1L << 20, 512L << 10, 512L << 10, 256L << 10, 256L << 10);
        // a ring size that is set is kept for few ranks
        assertThat(c.ringBytesFor(8)).isEqualTo(1 << 20);
        // many ranks on a host: rings shrink to fit the segment budget, but not below 64 KiB
        assertThat(d.ringBytesFor(128)).isEqualTo(128 << 10);
        assertThat(d.ringBytesFor(1000)).isEqualTo(64 << 10);
        assertThat(ShmLayout.segmentBytes(32, d.ringBytesFor(32))).isLessThanOrEqualTo(d.segmentBudget());
    }

    @Test
    void openRefusesWhenTheDirectoryIsMissing() {
        ShmConfig nowhere = new ShmConfig("/no/such/dir", 256 << 10, 16 << 20, 4 << 10, 16 << 10, true, 32 << 10,
                256 << 10, 64 << 10);
        ShmCluster.MemoryBootstrap b = new ShmCluster.MemoryBootstrap(0, 2, ShmCluster.newJobId(),
                new java.util.concurrent.ConcurrentHashMap<>());
        assertThatThrownBy(() -> ShmTransport.open(b, null, nowhere, new int[] {0, 1}))
                .isInstanceOf(java.io.UncheckedIOException.class);
        assertThat(b.space()).isEmpty();
    }
}
