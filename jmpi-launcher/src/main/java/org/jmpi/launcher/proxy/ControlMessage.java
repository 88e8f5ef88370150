package org.jmpi.launcher.proxy;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The messages between jmpirun's front end and its per-host proxies. A remote proxy speaks them over the standard
 * input and output of the {@code ssh} (or {@code srun}) process that started it; a proxy for this host lives in the
 * front end's JVM and gets the same message objects by method call.
 *
 * <p>Wire layout of one frame (big-endian, {@link DataOutputStream}):
 *
 * <pre>
 * +-----------+--------+------------------------+
 * | length u32| type u8| fields (type-specific) |    length counts the type byte and the fields
 * +-----------+--------+------------------------+
 * strings: u32 byte count + UTF-8;  maps: u32 count + (key, value) strings;  lists: u32 count + items
 * </pre>
 *
 * A remote proxy first writes the ASCII line {@link #GREETING} on its standard output, so that the front end can skip
 * whatever a login shell printed before it; binary frames follow.
 *
 * <p>Threading: messages are immutable records; {@link #write} and {@link #read} are not synchronised (callers
 * serialise writes on one stream).
 */
public sealed interface ControlMessage {
    /** The line a remote proxy prints before its first frame. */
    String GREETING = "JMPI-PROXY 1";

    /** Largest frame accepted (a spec with long class paths and environments stays far below). */
    int MAX_FRAME = 16 << 20;

    // ---------------------------------------------------------------------------------------- front end -> proxy

    /** What a proxy must start: sent once, first. */
    record Spec(ProxySpec spec) implements ControlMessage {}

    /** A fence completed on every host: the puts of every rank since the last one. */
    record FenceOut(Map<String, String> values) implements ControlMessage {}

    /** Bytes for rank 0's standard input. */
    record Stdin(byte[] bytes) implements ControlMessage {}

    /** End of rank 0's standard input. */
    record StdinEof() implements ControlMessage {}

    /**
     * Signal every rank on the host: {@link #TERM} (SIGTERM, then SIGKILL after the grace period), {@link #KILL}
     * (SIGKILL now), {@link #INT} (forward SIGINT), {@link #QUIT} (thread dumps).
     */
    record Signal(int signal) implements ControlMessage {
        public static final int INT = 2;
        public static final int QUIT = 3;
        public static final int KILL = 9;
        public static final int TERM = 15;
    }

    /** With --continue-on-failure: tell the ranks of this host that {@code rank} failed. */
    record RankFailed(int rank, String reason) implements ControlMessage {}

    /** With --continue-on-failure: a line for every rank's notice channel (an agreement's decision). */
    record AgreementDecision(String line) implements ControlMessage {}

    /** Sent both ways every second, so that either side notices a cut link. */
    record Heartbeat() implements ControlMessage {}

    // ---------------------------------------------------------------------------------------- proxy -> front end

    /** A rank's process started. */
    record Started(int rank, long pid) implements ControlMessage {}

    /** One line a rank printed. */
    record Output(int rank, boolean stderr, String line) implements ControlMessage {}

    /**
     * A rank's process ended: exit code (128+N when killed by signal N), and whether it had sent PMI {@code init}
     * and {@code finalize}.
     */
    record Exited(int rank, int code, boolean initialized, boolean finalized) implements ControlMessage {}

    /** Every running rank of the host entered a fence; these are their puts. */
    record FenceIn(Map<String, String> values) implements ControlMessage {}

    /** A rank sent PMI {@code abort}. */
    record Aborted(int rank, int code, String message) implements ControlMessage {}

    /** A rank broke the PMI protocol. */
    record ProtocolError(int rank, String message) implements ControlMessage {}

    /** The proxy cannot go on (a rank could not be started, ...): a one-line reason. */
    record Fatal(String message) implements ControlMessage {}

    /** A note for the user (a refused connection, ...), printed by the front end. */
    record Notice(String message) implements ControlMessage {}

    /** With --continue-on-failure: a rank's contribution to an agreement, the line it sent on its notice channel. */
    record AgreementRequest(int rank, String line) implements ControlMessage {}

    // ---------------------------------------------------------------------------------------- codec

    /** Writes one frame (not flushed). */
    static void write(DataOutputStream out, ControlMessage m) throws IOException {
        Buffer b = new Buffer();
        switch (m) {
            case Spec s -> {
                b.u8(1);
                s.spec().writeTo(b);
            }
            case FenceOut f -> {
                b.u8(2);
                b.map(f.values());
            }
            case Stdin s -> {
                b.u8(3);
                b.bytes(s.bytes());
            }
            case StdinEof e -> b.u8(4);
            case Signal s -> {
                b.u8(5);
                b.i32(s.signal());
            }
            case RankFailed f -> {
                b.u8(6);
                b.i32(f.rank());
                b.str(f.reason());
            }
            case Heartbeat h -> b.u8(7);
            case AgreementDecision d -> {
                b.u8(8);
                b.str(d.line());
            }
            case AgreementRequest a -> {
                b.u8(28);
                b.i32(a.rank());
                b.str(a.line());
            }
            case Started s -> {
                b.u8(20);
                b.i32(s.rank());
                b.i64(s.pid());
            }
            case Output o -> {
                b.u8(21);
                b.i32(o.rank());
                b.bool(o.stderr());
                b.str(o.line());
            }
            case Exited e -> {
                b.u8(22);
                b.i32(e.rank());
                b.i32(e.code());
                b.bool(e.initialized());
                b.bool(e.finalized());
            }
            case FenceIn f -> {
                b.u8(23);
                b.map(f.values());
            }
            case Aborted a -> {
                b.u8(24);
                b.i32(a.rank());
                b.i32(a.code());
                b.str(a.message());
            }
            case ProtocolError p -> {
                b.u8(25);
                b.i32(p.rank());
                b.str(p.message());
            }
            case Fatal f -> {
                b.u8(26);
                b.str(f.message());
            }
            case Notice n -> {
                b.u8(27);
                b.str(n.message());
            }
        }
        out.writeInt(b.size());
        b.writeTo(out);
    }

    /** Reads one frame; throws {@link EOFException} at a clean end of stream. */
    static ControlMessage read(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 1 || length > MAX_FRAME) {
            throw new IOException("control frame of " + length + " bytes (corrupt stream?)");
        }
        byte[] frame = new byte[length];
        in.readFully(frame);
        Reader r = new Reader(frame);
        int type = r.u8();
        ControlMessage m;
        try {
            m = decode(type, r);
        } catch (RuntimeException e) { // a record's own checks refused a field: the frame is corrupt all the same
            throw new IOException("control message type " + type + ": " + e.getMessage(), e);
        }
        if (!r.atEnd()) {
            throw new IOException("control message type " + type + " has " + r.remaining() + " extra bytes");
        }
        return m;
    }

    private static ControlMessage decode(int type, Reader r) throws IOException {
        return switch (type) {
            case 1 -> new Spec(ProxySpec.readFrom(r));
            case 2 -> new FenceOut(r.map());
            case 3 -> new Stdin(r.bytes());
            case 4 -> new StdinEof();
            case 5 -> new Signal(r.i32());
            case 6 -> new RankFailed(r.i32(), r.str());
            case 7 -> new Heartbeat();
            case 8 -> new AgreementDecision(r.str());
            case 28 -> new AgreementRequest(r.i32(), r.str());
            case 20 -> new Started(r.i32(), r.i64());
            case 21 -> new Output(r.i32(), r.bool(), r.str());
            case 22 -> new Exited(r.i32(), r.i32(), r.bool(), r.bool());
            case 23 -> new FenceIn(r.map());
            case 24 -> new Aborted(r.i32(), r.i32(), r.str());
            case 25 -> new ProtocolError(r.i32(), r.str());
            case 26 -> new Fatal(r.str());
            case 27 -> new Notice(r.str());
            default -> throw new IOException("unknown control message type " + type);
        };
    }

    /** A growable byte buffer with typed appends. */
    final class Buffer {
        private byte[] a = new byte[64];
        private int n;

        private void ensure(int more) {
            if (n + more > a.length) {
                a = java.util.Arrays.copyOf(a, Math.max(a.length * 2, n + more));
            }
        }

        void u8(int v) {
            ensure(1);
            a[n++] = (byte) v;
        }

        void bool(boolean v) {
            u8(v ? 1 : 0);
        }

        void i32(int v) {
            ensure(4);
            a[n++] = (byte) (v >>> 24);
            a[n++] = (byte) (v >>> 16);
            a[n++] = (byte) (v >>> 8);
            a[n++] = (byte) v;
        }

        void i64(long v) {
            i32((int) (v >>> 32));
            i32((int) v);
        }

        void bytes(byte[] b) {
            i32(b.length);
            ensure(b.length);
            System.arraycopy(b, 0, a, n, b.length);
            n += b.length;
        }

        void str(String s) {
            bytes((s == null ? "" : s).getBytes(StandardCharsets.UTF_8));
        }

        void map(Map<String, String> m) {
            i32(m.size());
            for (Map.Entry<String, String> e : m.entrySet()) {
                str(e.getKey());
                str(e.getValue());
            }
        }

        void strings(List<String> l) {
            i32(l.size());
            for (String s : l) {
                str(s);
            }
        }

        int size() {
            return n;
        }

        void writeTo(DataOutputStream out) throws IOException {
            out.write(a, 0, n);
        }
    }

    /** Typed reads from one frame; every read checks the bounds. */
    final class Reader {
        private final byte[] a;
        private int p;

        Reader(byte[] a) {
            this.a = a;
        }

        private void need(int k) throws IOException {
            if (k < 0 || k > a.length - p) { // not p + k: that overflows for k near 2^31
                throw new IOException("truncated control message");
            }
        }

        int u8() throws IOException {
            need(1);
            return a[p++] & 0xff;
        }

        boolean bool() throws IOException {
            return u8() != 0;
        }

        int i32() throws IOException {
            need(4);
            int v = (a[p] & 0xff) << 24 | (a[p + 1] & 0xff) << 16 | (a[p + 2] & 0xff) << 8 | a[p + 3] & 0xff;
            p += 4;
            return v;
        }

        long i64() throws IOException {
            return (long) i32() << 32 | i32() & 0xffffffffL;
        }

        byte[] bytes() throws IOException {
            int k = i32();
            need(k);
            byte[] b = java.util.Arrays.copyOfRange(a, p, p + k);
            p += k;
            return b;
        }

        String str() throws IOException {
            return new String(bytes(), StandardCharsets.UTF_8);
        }

        Map<String, String> map() throws IOException {
            int k = i32();
            if (k < 0 || k > remaining() / 8) { // every pair takes at least two 4-byte lengths
                throw new IOException("bad map size " + k);
            }
            Map<String, String> m = new LinkedHashMap<>();
            for (int i = 0; i < k; i++) {
                m.put(str(), str());
            }
            return m;
        }

        List<String> strings() throws IOException {
            int k = i32();
            if (k < 0 || k > remaining() / 4) { // every string takes at least its 4-byte length
                throw new IOException("bad list size " + k);
            }
            List<String> l = new ArrayList<>(k);
            for (int i = 0; i < k; i++) {
                l.add(str());
            }
            return l;
        }

        boolean atEnd() {
            return p == a.length;
        }

        int remaining() {
            return a.length - p;
        }
    }
}
