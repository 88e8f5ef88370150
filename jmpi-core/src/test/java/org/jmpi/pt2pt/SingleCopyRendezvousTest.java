package org.jmpi.pt2pt;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.jmpi.datatype.BaseKind;
import org.jmpi.datatype.BufferView;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.runtime.Config;
import org.jmpi.runtime.Progress;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.ProtocolHints;
import org.jmpi.transport.SingleCopy;
import org.jmpi.transport.Transport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The rendezvous variants between two engines of this JVM joined by a loopback transport whose single-copy capability
 * can be refused at each step: plain single copy, split copy, and every fallback (CTS and DATA frames).
 */
@Timeout(value = 60, unit = SECONDS)
class SingleCopyRendezvousTest {
    /** What the loopback transport allows. */
    enum Case {
        TWO_COPIES(false, true, true, -1, false),
        SINGLE_COPY(true, true, true, -1, false),
        SPLIT(true, true, true, 4096, false),
        SPLIT_WRITE_REFUSED(true, true, false, 4096, false),
        SPLIT_READ_REFUSED(true, false, true, 4096, false),
        SINGLE_COPY_READ_REFUSED(true, false, true, -1, false),
        HEAP_RECEIVER(true, true, true, 4096, true);

        final boolean offer;
        final boolean reads;
        final boolean writes;
        final long splitMin;
        final boolean heapReceiver;

        Case(boolean offer, boolean reads, boolean writes, long splitMin, boolean heapReceiver) {
            this.offer = offer;
            this.reads = reads;
            this.writes = writes;
            this.splitMin = splitMin;
            this.heapReceiver = heapReceiver;
        }
    }

    /** Frames between two ranks of this JVM through queues; reads and writes "another process" by address. */
    @SuppressWarnings("restricted")
    static final class Loopback implements Transport, ProtocolHints, SingleCopy {
        final ConcurrentLinkedQueue<MemorySegment[]> inbox = new ConcurrentLinkedQueue<>();
        final Case c;
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger writes = new AtomicInteger();
        final AtomicInteger kinds = new AtomicInteger();
        Loopback peer;
        Engine engine;
        int peerRank;

        Loopback(Case c) {
            this.c = c;
        }

        @Override
        public String name() {
            return "loopback";
        }

        @Override
        public void send(int to, MemorySegment header, MemorySegment payload, Runnable onWritten) {
            MemorySegment h = MemorySegment.ofArray(new byte[FrameLayout.HEADER_BYTES]);
            MemorySegment.copy(header, 0, h, 0, FrameLayout.HEADER_BYTES);
            MemorySegment p = MemorySegment.ofArray(new byte[FrameLayout.payloadLength(header)]);
            if (payload != null) {
                MemorySegment.copy(payload, 0, p, 0, p.byteSize());
            }
            kinds.getAndUpdate(k -> k | 1 << FrameLayout.getInt(h, FrameLayout.KIND));
            peer.inbox.add(new MemorySegment[] {h, p});
            if (onWritten != null) {
                onWritten.run();
            }
        }

        @Override
        public boolean poll() {
            boolean any = false;
            MemorySegment[] f;
            while ((f = inbox.poll()) != null) {
                engine.onFrame(peerRank, f[0], f[1]);
                any = true;
            }
            return any;
        }

        @Override
        public void await(long nanos) {
            LockSupport.parkNanos(Math.min(nanos, 100_000));
        }

        @Override
        public void wakeup() {}

        @Override
        public void close() {}

        @Override
        public long eagerLimit(int to) {
            return 1024;
        }

        @Override
        public long chunkBytes(int to) {
            return 4096;
        }

        @Override
        public boolean canReadFrom(int from) {
            return c.offer;
        }

        @Override
        public boolean read(int from, long address, MemorySegment into) {
            if (!c.reads || !into.isNative()) {
                return false;
            }
            reads.incrementAndGet();
            MemorySegment.copy(MemorySegment.ofAddress(address).reinterpret(into.byteSize()), 0, into, 0,
                    into.byteSize());
            return true;
        }

        @Override
        public boolean write(int to, MemorySegment from, long address) {
            if (!c.writes) {
                return false;
            }
            writes.incrementAndGet();
            MemorySegment.copy(from, 0, MemorySegment.ofAddress(address).reinterpret(from.byteSize()), 0,
                    from.byteSize());
            return true;
        }

        @Override
        public long splitMin(int to) {
            return c.splitMin;
        }
    }

    private static final TypeDescriptor BYTE = TypeDescriptor.primitive(BaseKind.BYTE);

    @ParameterizedTest
    @EnumSource(Case.class)
    void aLongMessageArrivesWhateverTheCapabilityAllows(Case c) throws Exception {
        int n = 100_003;
        Pair x = pair(c);
        ByteBuffer out = ByteBuffer.allocateDirect(n);
        for (int i = 0; i < n; i++) {
            out.put(i, (byte) (i * 13 + 7));
        }
        Object in = c.heapReceiver ? new byte[n] : ByteBuffer.allocateDirect(n);
        RecvRequest r = x.e1().irecv(BufferView.of(in, n, BYTE, true), 0, 0, 5);
        SendRequest s = x.e0().isend(BufferView.of(out, n, BYTE, false), 1, 0, 0, 5, SendMode.STANDARD);
        Thread receiver = Thread.ofPlatform().start(() -> x.p1().await(r));
        x.p0().await(s);
        receiver.join();
        assertThat(s.error()).isZero();
        assertThat(r.error()).isZero();
        assertThat(r.bytes()).isEqualTo(n);
        for (int i = 0; i < n; i++) {
            byte b = in instanceof byte[] a ? a[i] : ((ByteBuffer) in).get(i);
            if (b != (byte) (i * 13 + 7)) {
                throw new AssertionError("byte " + i + " is wrong in case " + c);
            }
        }
        int frames = x.t0().kinds.get() | x.t1().kinds.get();
        boolean split = c.offer && c.splitMin > 0 && !c.heapReceiver;
        assertThat((frames & 1 << Protocol.SPLIT) != 0).as("SPLIT sent").isEqualTo(split);
        assertThat((frames & 1 << Protocol.WROTE) != 0).as("WROTE sent").isEqualTo(split && c.writes);
        boolean chunks = !c.offer || !c.reads || c.heapReceiver || split && !c.writes;
        assertThat((frames & 1 << Protocol.DATA) != 0).as("DATA sent").isEqualTo(chunks);
        assertThat(x.t1().reads.get() > 0).as("receiver read").isEqualTo(c.offer && c.reads && !c.heapReceiver);
    }

    @Test
    void anExchangeOfLongMessagesIsReadWholeByEachReceiverWithoutASplit() throws Exception {
        // while a rendezvous send of its own is in flight a receiver does not ask the sender to write half: the
        // sender is busy with the other direction (sendrecv, a collective's step)
        int n = 100_003;
        Case c = Case.SPLIT;
        Pair x = pair(c);
        ByteBuffer out0 = ByteBuffer.allocateDirect(n);
        ByteBuffer out1 = ByteBuffer.allocateDirect(n);
        for (int i = 0; i < n; i++) {
            out0.put(i, (byte) (i * 13 + 7));
            out1.put(i, (byte) (i * 5 + 3));
        }
        ByteBuffer in0 = ByteBuffer.allocateDirect(n);
        ByteBuffer in1 = ByteBuffer.allocateDirect(n);
        RecvRequest r0 = x.e0().irecv(BufferView.of(in0, n, BYTE, true), 0, 1, 5);
        RecvRequest r1 = x.e1().irecv(BufferView.of(in1, n, BYTE, true), 0, 0, 5);
        SendRequest s0 = x.e0().isend(BufferView.of(out0, n, BYTE, false), 1, 0, 0, 5, SendMode.STANDARD);
        SendRequest s1 = x.e1().isend(BufferView.of(out1, n, BYTE, false), 0, 0, 1, 5, SendMode.STANDARD);
        Thread rank1 = Thread.ofPlatform().start(() -> {
            x.p1().await(r1);
            x.p1().await(s1);
        });
        x.p0().await(r0);
        x.p0().await(s0);
        rank1.join();
        assertThat(new int[] {r0.error(), r1.error(), s0.error(), s1.error()}).as("errors").containsOnly(0);
        for (int i = 0; i < n; i++) {
            if (in1.get(i) != (byte) (i * 13 + 7) || in0.get(i) != (byte) (i * 5 + 3)) {
                throw new AssertionError("byte " + i + " is wrong");
            }
        }
        int frames = x.t0().kinds.get() | x.t1().kinds.get();
        assertThat(frames & (1 << Protocol.SPLIT | 1 << Protocol.WROTE | 1 << Protocol.DATA)).as("no split, no chunks")
                .isZero();
        assertThat(x.t0().reads.get()).as("rank 0 read rank 1's buffer").isEqualTo(1);
        assertThat(x.t1().reads.get()).as("rank 1 read rank 0's buffer").isEqualTo(1);
        assertThat(x.t0().writes.get() + x.t1().writes.get()).as("writes").isZero();
    }

    /** Ranks 0 and 1, each an engine and a progress over a loopback transport to the other, with capability c. */
    private record Pair(Loopback t0, Loopback t1, Progress p0, Progress p1, Engine e0, Engine e1) {}

    private static Pair pair(Case c) {
        Loopback t0 = new Loopback(c);
        Loopback t1 = new Loopback(c);
        t0.peer = t1;
        t1.peer = t0;
        Progress p0 = new Progress(null, 100, 10);
        Progress p1 = new Progress(null, 100, 10);
        Engine e0 = new Engine(0, 2, p0, null, Config.defaults());
        Engine e1 = new Engine(1, 2, p1, null, Config.defaults());
        wire(t0, e0, p0, 1);
        wire(t1, e1, p1, 0);
        return new Pair(t0, t1, p0, p1, e0, e1);
    }

    private static void wire(Loopback t, Engine e, Progress p, int peerRank) {
        t.engine = e;
        t.peerRank = peerRank;
        e.setTransport(t);
        p.setTransport(t);
    }
}
