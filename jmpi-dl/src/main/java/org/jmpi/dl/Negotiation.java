package org.jmpi.dl;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The messages of one negotiation cycle: each rank sends the coordinator (rank 0) a {@link Requests}, the coordinator
 * answers every rank with the same list of {@link Response}s, which every rank then carries out in order.
 *
 * <pre>
 * Requests:  flags:u8 (1 = join, 2 = shutdown)  n:i32  n x Descriptor
 * Descriptor: name:UTF  elements:i32  op:u8  compression:u8
 * Responses: n:i32  n x (kind:u8 ...)
 *   ALLREDUCE  op:u8 compression:u8 contributors:i32 m:i32 m x (name:UTF elements:i32)
 *   ERROR      message:UTF m:i32 m x name:UTF
 *   JOINED     lastRank:i32
 *   SHUTDOWN
 * </pre>
 */
final class Negotiation {
    static final int FLAG_JOIN = 1;
    static final int FLAG_SHUTDOWN = 2;

    private Negotiation() {}

    /** What one rank submitted for one tensor. */
    record Descriptor(String name, int elements, ReduceOp op, Compression compression) {
        String shape() {
            return elements + " x float32, " + op + (compression == Compression.NONE ? "" : ", " + compression);
        }
    }

    /** One rank's message of one cycle. */
    record Requests(int flags, List<Descriptor> tensors) {}

    /** One entry of the coordinator's answer. */
    sealed interface Response permits Allreduce, Error, Joined, Shutdown {}

    /** All-reduce these tensors fused into one buffer, in this order. */
    record Allreduce(ReduceOp op, Compression compression, int contributors, List<String> names, int[] elements)
            implements Response {
        long totalElements() {
            long n = 0;
            for (int e : elements) {
                n += e;
            }
            return n;
        }
    }

    /** Fail the futures of these tensors with this message. */
    record Error(String message, List<String> names) implements Response {}

    /** Every rank has joined; {@code lastRank} joined last. */
    record Joined(int lastRank) implements Response {}

    /** Every rank asked to shut down. */
    record Shutdown() implements Response {}

    static byte[] encode(Requests r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(r.flags());
            out.writeInt(r.tensors().size());
            for (Descriptor d : r.tensors()) {
                out.writeUTF(d.name());
                out.writeInt(d.elements());
                out.writeByte(d.op().ordinal());
                out.writeByte(d.compression().ordinal());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static Requests decodeRequests(byte[] buf, int off, int len) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(buf, off, len))) {
            int flags = in.readUnsignedByte();
            int n = in.readInt();
            List<Descriptor> list = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                String name = in.readUTF();
                int elements = in.readInt();
                ReduceOp op = ReduceOp.values()[in.readUnsignedByte()];
                Compression c = Compression.values()[in.readUnsignedByte()];
                list.add(new Descriptor(name, elements, op, c));
            }
            return new Requests(flags, list);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] encode(List<Response> responses) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(responses.size());
            for (Response r : responses) {
                switch (r) {
                    case Allreduce a -> {
                        out.writeByte(0);
                        out.writeByte(a.op().ordinal());
                        out.writeByte(a.compression().ordinal());
                        out.writeInt(a.contributors());
                        out.writeInt(a.names().size());
                        for (int i = 0; i < a.names().size(); i++) {
                            out.writeUTF(a.names().get(i));
                            out.writeInt(a.elements()[i]);
                        }
                    }
                    case Error e -> {
                        out.writeByte(1);
                        out.writeUTF(truncate(e.message()));
                        out.writeInt(e.names().size());
                        for (String name : e.names()) {
                            out.writeUTF(name);
                        }
                    }
                    case Joined j -> {
                        out.writeByte(2);
                        out.writeInt(j.lastRank());
                    }
                    case Shutdown s -> out.writeByte(3);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static List<Response> decodeResponses(byte[] buf, int len) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(buf, 0, len))) {
            int n = in.readInt();
            List<Response> list = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int kind = in.readUnsignedByte();
                switch (kind) {
                    case 0 -> {
                        ReduceOp op = ReduceOp.values()[in.readUnsignedByte()];
                        Compression c = Compression.values()[in.readUnsignedByte()];
                        int contributors = in.readInt();
                        int m = in.readInt();
                        List<String> names = new ArrayList<>(m);
                        int[] elements = new int[m];
                        for (int k = 0; k < m; k++) {
                            names.add(in.readUTF());
                            elements[k] = in.readInt();
                        }
                        list.add(new Allreduce(op, c, contributors, names, elements));
                    }
                    case 1 -> {
                        String message = in.readUTF();
                        int m = in.readInt();
                        List<String> names = new ArrayList<>(m);
                        for (int k = 0; k < m; k++) {
                            names.add(in.readUTF());
                        }
                        list.add(new Error(message, names));
                    }
                    case 2 -> list.add(new Joined(in.readInt()));
                    case 3 -> list.add(new Shutdown());
                    default -> throw new IllegalStateException("bad response kind " + kind);
                }
            }
            return list;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** writeUTF takes at most 65535 encoded bytes. */
    private static String truncate(String s) {
        return s.length() > 16_000 ? s.substring(0, 16_000) + "..." : s;
    }
}
