package org.jmpi.pt2pt;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.jmpi.datatype.BaseKind;
import org.jmpi.datatype.BufferView;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.runtime.Config;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.Progress;
import org.jmpi.transport.FrameLayout;
import org.jmpi.transport.ProtocolHints;
import org.jmpi.transport.SingleCopy;
import org.jmpi.transport.Transport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Streamed eager messages (STREAM and STREAM_DATA frames) between two engines of this JVM joined by a loopback whose
 * frames the test delivers one at a time, so that a receive can be posted before the first piece, between any two
 * pieces, or after the last; and the sender can fail or the context be revoked in the middle.
 */
@Timeout(value = 60, unit = SECONDS)
class StreamedEagerTest {
    static final int EAGER = 1024;
    static final int CHUNK = 4096;
    static final int LIMIT = 64 << 10;
    static final int CONTEXT = 3;

    /** Frames from one engine to the other, held until the test delivers them. */
    @SuppressWarnings("restricted")
    static final class Loopback implements Transport, ProtocolHints, SingleCopy, org.jmpi.transport.Lane {
        final ArrayDeque<MemorySegment[]> inbox = new ArrayDeque<>();
        /** Every frame's kind, in send order, the lane's records ({@link #sendShort}) included. */
        final List<Integer> kinds = new ArrayList<>();
        /** The kinds of the lane's records only. */
        final List<Integer> shortKinds = new ArrayList<>();
        /** Whether this transport offers the engine a lane ({@link #lane}). */
        boolean offersLane;
        final List<Integer> flags = new ArrayList<>();
        final boolean singleCopy;
        Loopback peer;
        Engine engine;
        int peerRank;
        /**
         * Runs once inside the next send, after its frame is taken and on the sending thread, as a transport runs the
         * completions of earlier frames before its send returns (what they start may send frames of its own).
         */
        Runnable duringNextSend;

        Loopback(boolean singleCopy) {
            this.singleCopy = singleCopy;
        }

        @Override
        public String name() {
            return "loopback";
        }

        @Override
        public synchronized void send(int to, MemorySegment header, MemorySegment payload, Runnable onWritten) {
            MemorySegment h = MemorySegment.ofArray(new byte[FrameLayout.HEADER_BYTES]);
            MemorySegment.copy(header, 0, h, 0, FrameLayout.HEADER_BYTES);
            MemorySegment p = MemorySegment.ofArray(new byte[FrameLayout.payloadLength(header)]);
            if (payload != null) {
                MemorySegment.copy(payload, 0, p, 0, p.byteSize());
            }
            kinds.add(FrameLayout.getInt(h, FrameLayout.KIND));
            flags.add(FrameLayout.getInt(h, FrameLayout.FLAGS));
            synchronized (peer) {
                peer.inbox.add(new MemorySegment[] {h, p});
            }
            Runnable during = duringNextSend;
            if (during != null) {
                duringNextSend = null;
                during.run();
            }
            if (onWritten != null) {
                onWritten.run();
            }
        }

        /** Hands the next {@code n} frames (at most) to this side's engine; returns how many it handed. */
        int deliver(int n) {
            int k = 0;
            while (k < n) {
                MemorySegment[] f;
                synchronized (this) {
                    f = inbox.poll();
                }
                if (f == null) {
                    break;
                }
                if (f.length == 3) { // a lane record: its envelope in f[2] (kind, context, source, tag)
                    int[] e = f[2].toArray(java.lang.foreign.ValueLayout.JAVA_INT);
                    if (!engine.onShort(peerRank, e[0], e[1], e[2], e[3], f[1], 0, (int) f[1].byteSize())) {
                        throw new AssertionError("the engine did not take a lane record of kind " + e[0]);
                    }
                } else {
                    engine.onFrame(peerRank, f[0], f[1]);
                }
                k++;
            }
            return k;
        }

        @Override
        public org.jmpi.transport.Lane lane(int to) {
            return offersLane ? this : null;
        }

        @Override
        public int shortPayloadMax() {
            return EAGER;
        }

        @Override
        public synchronized boolean sendShort(int to, int kind, int context, int source, int tag,
                MemorySegment payload, long offset, int length, org.jmpi.shared.SmallPayload small) {
            kinds.add(kind);
            shortKinds.add(kind);
            MemorySegment p = MemorySegment.ofArray(new byte[length]);
            MemorySegment.copy(payload, offset, p, 0, length);
            MemorySegment e = MemorySegment.ofArray(new int[] {kind, context, source, tag});
            synchronized (peer) {
                peer.inbox.add(new MemorySegment[] {null, p, e});
            }
            return true;
        }

        @Override
        public long takeShort(int from, int kind, int context, int source, int tag, MemorySegment into, long offset,
                long capacity, org.jmpi.shared.SmallPayload small) {
            return OTHER; // the test delivers
        }

        @Override
        public boolean pollOthers(int from) {
            return false;
        }

        @Override
        public boolean arrived(int from) {
            return false;
        }

        @Override
        public boolean passOne(int from) {
            return false;
        }

        synchronized int waiting() {
            return inbox.size();
        }

        @Override
        public boolean poll() {
            return false; // the test delivers
        }

        @Override
        public void await(long nanos) {}

        @Override
        public void wakeup() {}

        @Override
        public void close() {}

        @Override
        public long eagerLimit(int to) {
            return EAGER;
        }

        @Override
        public long chunkBytes(int to) {
            return CHUNK;
        }

        @Override
        public long streamLimit(int to) {
            return LIMIT;
        }

        @Override
        public boolean canReadFrom(int from) {
            return singleCopy;
        }

        @Override
        public boolean read(int from, long address, MemorySegment into) {
            MemorySegment.copy(MemorySegment.ofAddress(address).reinterpret(into.byteSize()), 0, into, 0,
                    into.byteSize());
            return true;
        }

        @Override
        public boolean write(int to, MemorySegment from, long address) {
            return false;
        }

        @Override
        public long splitMin(int to) {
            return -1;
        }
    }

    private static final TypeDescriptor BYTE = TypeDescriptor.primitive(BaseKind.BYTE);

    Loopback t0;
    Loopback t1;
    Engine e0;
    Engine e1;

    @BeforeEach
    void wire() {
        wire(false);
    }

    private void wire(boolean singleCopy) {
        t0 = new Loopback(singleCopy);
        t1 = new Loopback(singleCopy);
        join(t0, t1);
        e0 = t0.engine;
        e1 = t1.engine;
    }

    /** Two engines, world ranks 0 and 1, joined by this loopback pair ({@link Loopback#engine} set on each side). */
    static void join(Loopback t0, Loopback t1) {
        t0.peer = t1;
        t1.peer = t0;
        Progress p0 = new Progress(null, 100, 10);
        Progress p1 = new Progress(null, 100, 10);
        t0.engine = new Engine(0, 2, p0, null, Config.defaults());
        t1.engine = new Engine(1, 2, p1, null, Config.defaults());
        t0.peerRank = 1;
        t1.peerRank = 0;
        t0.engine.setTransport(t0);
        p0.setTransport(t0);
        t1.engine.setTransport(t1);
        p1.setTransport(t1);
    }

    private static byte[] pattern(int n, int seed) {
        byte[] a = new byte[n];
        for (int i = 0; i < n; i++) {
            a[i] = (byte) (i * 31 + seed);
        }
        return a;
    }

    private SendRequest send(byte[] out, int tag) {
        return e0.isend(BufferView.of(out, out.length, BYTE, false), 1, CONTEXT, 0, tag, SendMode.STANDARD);
    }

    private RecvRequest recv(byte[] in, int count, int tag) {
        return e1.irecv(BufferView.of(in, count, BYTE, true), CONTEXT, 0, tag);
    }

    /** Pieces of a 20,000-byte message: the STREAM frame with the first, then STREAM_DATA frames. */
    private static final int N = 20_000;

    @ParameterizedTest(name = "receive posted after {0} frames")
    @ValueSource(ints = {0, 1, 2, 3, 4, 5})
    void aStreamedArrayArrivesWhereverTheReceiveIsPosted(int before) {
        byte[] out = pattern(N, 5);
        SendRequest s = send(out, 7);
        assertThat(s.isDone()).as("a streamed send completes once written").isTrue();
        assertThat(t0.kinds).as("no handshake: one STREAM frame, then pieces")
                .startsWith(Protocol.STREAM).doesNotContain(Protocol.RTS, Protocol.EAGER, Protocol.DATA);
        assertThat(t0.kinds.subList(1, t0.kinds.size())).containsOnly(Protocol.STREAM_DATA);
        int frames = t1.waiting();
        assertThat(frames).isEqualTo((N + CHUNK - 1) / CHUNK);
        assertThat(t1.deliver(before)).isEqualTo(Math.min(before, frames));
        byte[] in = new byte[N];
        RecvRequest r = recv(in, N, 7);
        t1.deliver(Integer.MAX_VALUE);
        assertThat(r.isDone()).isTrue();
        assertThat(r.error()).isZero();
        assertThat(r.bytes()).isEqualTo(N);
        assertThat(in).isEqualTo(out);
        assertThat(e1.unexpectedMessages()).isZero();
    }

    @ParameterizedTest(name = "receive posted after {0} frames")
    @ValueSource(ints = {0, 2, 5})
    void aShortReceiveIsTruncatedAndNothingPastItIsWritten(int before) {
        byte[] out = pattern(N, 9);
        send(out, 1);
        t1.deliver(before);
        int want = 10_001; // ends inside a piece
        byte[] in = new byte[N];
        java.util.Arrays.fill(in, (byte) 0x5A);
        RecvRequest r = recv(in, want, 1);
        t1.deliver(Integer.MAX_VALUE);
        assertThat(r.isDone()).isTrue();
        assertThat(r.error()).isEqualTo(ErrorClass.ERR_TRUNCATE);
        assertThat(r.bytes()).isEqualTo(want);
        assertThat(java.util.Arrays.copyOf(in, want)).isEqualTo(java.util.Arrays.copyOf(out, want));
        for (int i = want; i < N; i++) {
            assertThat(in[i]).as("byte %d past the receive", i).isEqualTo((byte) 0x5A);
        }
    }

    /**
     * What a transport's send runs before it returns (earlier frames' completions: a collective's next step) may send
     * on the same thread: an eager message, or flow credit for an unexpected message it receives. The pieces of a
     * stream, and the chunks of a rendezvous, sent after it still carry their own message's header.
     */
    @ParameterizedTest(name = "{0} inside the transport's send")
    @ValueSource(strings = {"eager send", "credit"})
    void framesSentInsideTheTransportsSendLeaveAStreamsPiecesIntact(String inside) {
        Runnable other = otherFramesFromTheSendingThread(inside);
        byte[] out = pattern(N, 11);
        t0.duringNextSend = other;
        send(out, 7);
        assertThat(t0.duringNextSend).as("ran inside the STREAM frame's send").isNull();
        byte[] in = new byte[N];
        RecvRequest r = recv(in, N, 7);
        t1.deliver(Integer.MAX_VALUE);
        assertThat(r.isDone()).isTrue();
        assertThat(r.error()).isZero();
        assertThat(in).isEqualTo(out);
        receiveTheOtherFrames(inside);
    }

    @ParameterizedTest(name = "{0} inside the transport's send")
    @ValueSource(strings = {"eager send", "credit"})
    void framesSentInsideTheTransportsSendLeaveARendezvousChunksIntact(String inside) {
        Runnable other = otherFramesFromTheSendingThread(inside);
        int n = LIMIT + 3 * CHUNK + 5; // past the stream limit: RTS, CTS, then DATA chunks
        byte[] out = pattern(n, 13);
        SendRequest s = send(out, 8);
        byte[] in = new byte[n];
        RecvRequest r = recv(in, n, 8);
        t1.deliver(Integer.MAX_VALUE); // the RTS; the CTS goes back
        assertThat(t1.kinds).contains(Protocol.CTS);
        t0.duringNextSend = other; // inside the first DATA chunk's send
        t0.deliver(Integer.MAX_VALUE);
        assertThat(t0.duringNextSend).as("ran inside a DATA frame's send").isNull();
        t1.deliver(Integer.MAX_VALUE);
        assertThat(s.isDone()).isTrue();
        assertThat(r.isDone()).isTrue();
        assertThat(r.error()).isZero();
        assertThat(in).isEqualTo(out);
        receiveTheOtherFrames(inside);
    }

    private static final int OTHER = 1000; // eager; with its overhead past the first credit's threshold

    /**
     * Frames rank 0 sends from inside its transport's send: a small eager message, or flow credit that receiving an
     * unexpected message from rank 1 returns (rank 1 sends it now).
     */
    private Runnable otherFramesFromTheSendingThread(String inside) {
        byte[] other = pattern(OTHER, 17);
        if (inside.equals("eager send")) {
            return () -> send(other, 9);
        }
        assertThat(OTHER + Protocol.OVERHEAD).isGreaterThanOrEqualTo((int) Engine.FIRST_CREDIT);
        e1.isend(BufferView.of(other, OTHER, BYTE, false), 0, CONTEXT, 1, 9, SendMode.STANDARD);
        t0.deliver(Integer.MAX_VALUE); // unexpected at rank 0
        t1.kinds.clear();
        byte[] in = new byte[OTHER];
        return () -> {
            RecvRequest r = e0.irecv(BufferView.of(in, OTHER, BYTE, true), CONTEXT, 1, 9);
            assertThat(r.isDone()).isTrue();
            assertThat(in).isEqualTo(other);
        };
    }

    private void receiveTheOtherFrames(String inside) {
        if (inside.equals("eager send")) {
            byte[] in = new byte[OTHER];
            RecvRequest r = recv(in, OTHER, 9);
            assertThat(r.isDone()).isTrue();
            assertThat(in).isEqualTo(pattern(OTHER, 17));
        } else {
            assertThat(t0.kinds).as("rank 0 returned credit").contains(Protocol.CREDIT);
        }
    }

    @Test
    void streamsKeepTheirOrderAndMatchByTagWhileUnexpected() {
        byte[] a = pattern(N, 1);
        byte[] b = pattern(N + 17, 2);
        byte[] c = pattern(300, 3); // eager, behind the two streams
        send(a, 1);
        send(b, 2);
        send(c, 1);
        t1.deliver(3); // a partly in
        byte[] inB = new byte[N + 17];
        RecvRequest rb = recv(inB, inB.length, 2); // overtakes a: another tag
        t1.deliver(4);
        byte[] inA = new byte[N];
        RecvRequest ra = recv(inA, N, 1); // the first message of tag 1, not c
        byte[] inC = new byte[300];
        RecvRequest rc = recv(inC, 300, 1);
        t1.deliver(Integer.MAX_VALUE);
        assertThat(ra.isDone() && rb.isDone() && rc.isDone()).isTrue();
        assertThat(inA).isEqualTo(a);
        assertThat(inB).isEqualTo(b);
        assertThat(inC).isEqualTo(c);
        assertThat(rc.bytes()).isEqualTo(300);
    }

    @Test
    void aMatchedProbeTakesAStreamStillComingIn() {
        byte[] out = pattern(N, 4);
        send(out, 3);
        t1.deliver(2);
        MatchedMessage m = e1.improbe(CONTEXT, Engine.ANY, Engine.ANY);
        assertThat(m).isNotNull();
        assertThat(e1.iprobe(CONTEXT, 0, 3)).as("taken off the queue").isNull();
        t1.deliver(1);
        byte[] in = new byte[N];
        RecvRequest r = e1.mrecv(m, BufferView.of(in, N, BYTE, true));
        assertThat(r.isDone()).isFalse();
        t1.deliver(Integer.MAX_VALUE);
        assertThat(r.isDone()).isTrue();
        assertThat(r.tag()).isEqualTo(3);
        assertThat(in).isEqualTo(out);
    }

    @Test
    void aProbeSeesTheWholeLengthBeforeTheLastPiece() {
        send(pattern(N, 4), 3);
        t1.deliver(1);
        var p = e1.iprobe(CONTEXT, 0, 3);
        assertThat(p).isNotNull();
        assertThat(p.bytes()).isEqualTo(N);
    }

    @Test
    void aSenderThatFailsMidStreamFailsTheMatchedReceive() {
        send(pattern(N, 6), 4);
        byte[] in = new byte[N];
        RecvRequest r = recv(in, N, 4);
        t1.deliver(2);
        assertThat(r.isDone()).isFalse();
        e1.onPeerFailure(0, new java.io.IOException("killed"));
        assertThat(r.isDone()).isTrue();
        assertThat(r.error()).isEqualTo(ErrorClass.ERR_PROC_FAILED);
    }

    @Test
    void aSenderThatFailsMidStreamFailsTheReceiveThatTakesTheRest() {
        send(pattern(N, 6), 4);
        t1.deliver(2);
        MatchedMessage m = e1.improbe(CONTEXT, 0, 4);
        e1.onPeerFailure(0, new java.io.IOException("killed"));
        RecvRequest r = e1.mrecv(m, BufferView.of(new byte[N], N, BYTE, true));
        assertThat(r.isDone()).isTrue();
        assertThat(r.error()).isEqualTo(ErrorClass.ERR_PROC_FAILED);
    }

    @Test
    void piecesOfAStreamOnARevokedContextAreDropped() {
        send(pattern(N, 8), 5);
        t1.deliver(2);
        e1.poison(CONTEXT, ErrorClass.ERR_REVOKED);
        t1.deliver(Integer.MAX_VALUE); // no exception: the rest is dropped
        assertThat(e1.unexpectedMessages()).isZero();
        e1.unpoison(CONTEXT);
        byte[] out = pattern(N, 10);
        send(out, 5);
        byte[] in = new byte[N];
        RecvRequest r = recv(in, N, 5);
        t1.deliver(Integer.MAX_VALUE);
        assertThat(r.isDone()).isTrue();
        assertThat(in).isEqualTo(out);
    }

    @Test
    void synchronousSendsAndLongerMessagesKeepTheRendezvous() {
        byte[] out = pattern(LIMIT + 1, 2);
        send(out, 1);
        assertThat(t0.kinds).containsExactly(Protocol.RTS);
        t0.kinds.clear();
        e0.isend(BufferView.of(pattern(N, 1), N, BYTE, false), 1, CONTEXT, 0, 2, SendMode.SYNCHRONOUS);
        assertThat(t0.kinds).containsExactly(Protocol.RTS);
    }

    /**
     * Unmatched streams hold their credit; once they would take more than half the flow window, further long messages
     * use the rendezvous (charged almost nothing), so small eager messages never wait behind them. Everything arrives
     * intact and in order once received.
     */
    @Test
    void streamsLeaveHalfTheFlowWindowToEagerMessages() {
        long window = Config.defaults().flowWindow();
        int count = (int) (window / LIMIT); // together the whole window: more than half cannot be streamed
        byte[][] out = new byte[count][];
        for (int i = 0; i < count; i++) {
            out[i] = pattern(LIMIT, i);
            send(out[i], 9);
        }
        long streams = t0.kinds.stream().filter(k -> k == Protocol.STREAM).count();
        long rts = t0.kinds.stream().filter(k -> k == Protocol.RTS).count();
        assertThat(streams).as("streamed while half the window stays free").isPositive()
                .isLessThanOrEqualTo(window / 2 / LIMIT);
        assertThat(streams + rts).isEqualTo(count);
        byte[] small = pattern(100, 77);
        SendRequest eager = send(small, 10);
        assertThat(eager.isDone()).as("a small eager send still goes at once").isTrue();
        assertThat(t0.kinds.get(t0.kinds.size() - 1)).isEqualTo(Protocol.EAGER);
        t1.deliver(Integer.MAX_VALUE);
        for (int i = 0; i < count; i++) {
            byte[] in = new byte[LIMIT];
            RecvRequest r = recv(in, LIMIT, 9);
            for (int k = 0; k < 50 && !r.isDone(); k++) { // rendezvous: CTS back, DATA forth
                t0.deliver(Integer.MAX_VALUE);
                t1.deliver(Integer.MAX_VALUE);
            }
            assertThat(r.isDone()).isTrue();
            assertThat(in).as("message %d", i).isEqualTo(out[i]);
        }
    }

    @Test
    void aBufferTheReceiverCanReadItselfIsReadByTheReceiverOneWayAndInAnExchange() {
        // the receiver reads the sender's buffer itself (single copy), one way and in an exchange (the sender has a
        // receive posted: streaming its pieces through the ring took twice as long, docs/transports.md); above the
        // stream limit, and for synchronous sends, too
        wire(true);
        ByteBuffer out = ByteBuffer.allocateDirect(LIMIT + 1);
        out.put(pattern(LIMIT + 1, 3)).flip();
        e0.isend(BufferView.of(out, N, BYTE, false), 1, CONTEXT, 0, 1, SendMode.STANDARD);
        assertThat(t0.kinds).as("one way").containsExactly(Protocol.RTS);
        assertThat(t0.flags).as("single copy offered").contains(Protocol.FLAG_SINGLE_COPY);
        t0.kinds.clear();
        t0.flags.clear();
        byte[] back = new byte[8];
        RecvRequest posted = e0.irecv(BufferView.of(back, 8, BYTE, true), CONTEXT, 1, 5);
        e0.isend(BufferView.of(out, N, BYTE, false), 1, CONTEXT, 0, 2, SendMode.STANDARD);
        assertThat(t0.kinds).as("an exchange").containsExactly(Protocol.RTS);
        t0.kinds.clear();
        e0.isend(BufferView.of(out, LIMIT + 1, BYTE, false), 1, CONTEXT, 0, 3, SendMode.STANDARD);
        assertThat(t0.kinds).as("above the limit").containsExactly(Protocol.RTS);
        t0.kinds.clear();
        e0.isend(BufferView.of(out, N, BYTE, false), 1, CONTEXT, 0, 4, SendMode.SYNCHRONOUS);
        assertThat(t0.kinds).as("synchronous").containsExactly(Protocol.RTS);
        // every message arrives whole, whichever route it took
        byte[] expected = pattern(LIMIT + 1, 3);
        int[] sizes = {N, N, LIMIT + 1, N};
        for (int tag = 1; tag <= 4; tag++) {
            ByteBuffer in = ByteBuffer.allocateDirect(sizes[tag - 1]);
            RecvRequest r = e1.irecv(BufferView.of(in, sizes[tag - 1], BYTE, true), CONTEXT, 0, tag);
            for (int k = 0; k < 50 && !r.isDone(); k++) {
                t1.deliver(Integer.MAX_VALUE);
                t0.deliver(Integer.MAX_VALUE);
            }
            assertThat(r.isDone()).as("message %d", tag).isTrue();
            assertThat(r.error()).isZero();
            byte[] got = new byte[sizes[tag - 1]];
            in.get(0, got);
            assertThat(got).as("message %d", tag).isEqualTo(java.util.Arrays.copyOf(expected, sizes[tag - 1]));
        }
        e1.isend(BufferView.of(new byte[8], 8, BYTE, false), 0, CONTEXT, 1, 5, SendMode.STANDARD);
        t0.deliver(Integer.MAX_VALUE);
        assertThat(posted.isDone()).isTrue();
    }
}
