package org.jmpi.transport.tcp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.ProtocolException;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import org.jmpi.transport.FrameLayout;

/**
 * The bytes the TCP transport puts on a connection. All integers little-endian.
 *
 * <p>A connection starts with one hello, sent by the side that connected; the accepting side sends no hello. After
 * it, both directions carry frames only.
 *
 * <pre>
 * hello (connector to acceptor), 16 bytes + job id + secret:
 *
 *  0       4       6       8               12      14      16
 *  +-------+-------+-------+---------------+-------+-------+------------------+-----------------+
 *  | magic |version| flags | sender rank   |job len|sec len| job id (UTF-8)   | secret (UTF-8)  |
 *  | "JMPI"| (u16) | (u16) | (s32)         | (u16) | (u16) | job len bytes    | sec len bytes   |
 *  +-------+-------+-------+---------------+-------+-------+------------------+-----------------+
 *
 * frame (either direction), 48 + payload length bytes:
 *
 *  0                                          48
 *  +------------------------------------------+-------------------------------+
 *  | header: FrameLayout (payload length at 0) | payload (payload length bytes)|
 *  +------------------------------------------+-------------------------------+
 *
 * short frame (either direction), 24 + payload length bytes: the first 24 bytes of a FrameLayout header, with
 * SHORT_KIND set in its kind, for a frame that FrameLayout.travelsShort (no ids, its total its payload's length: an
 * eager message's frame, the usual one); the receiver reads it as that whole header:
 *
 *  0        4        8        12       16       20       24
 *  +--------+--------+--------+--------+--------+--------+-------------------------------+
 *  | payload| kind + | context| source |  tag   | flags  | payload (payload length bytes)|
 *  | length | SHORT  |  id    | rank   |        |        |                               |
 *  +--------+--------+--------+--------+--------+--------+-------------------------------+
 * </pre>
 *
 * <p>The acceptor checks magic, version, job id and secret and closes the connection on any mismatch; it sends
 * nothing back. The hello's {@code flags} are zero and ignored on receipt. Version 2 added the short frame: an
 * eight-byte message is 32 bytes on the connection instead of 56 (Open MPI's TCP transport: 30), which is what a
 * rate-limited link carries per message.
 */
final class TcpLayout {
    private TcpLayout() {}

    /** The bytes "JMPI" read as a little-endian int. */
    static final int MAGIC = 'J' | 'M' << 8 | 'P' << 16 | 'I' << 24;

    static final int VERSION = 2;

    static final long HELLO_MAGIC = 0;
    static final long HELLO_VERSION = 4;
    static final long HELLO_FLAGS = 6;
    static final long HELLO_RANK = 8;
    static final long HELLO_JOB_LENGTH = 12;
    static final long HELLO_SECRET_LENGTH = 14;
    static final int HELLO_FIXED_BYTES = 16;

    static final int MAX_JOB_ID_BYTES = 1024;
    static final int MAX_SECRET_BYTES = 1024;

    /** Longest possible hello; a connection's write buffer must hold at least this much. */
    static final int MAX_HELLO_BYTES = HELLO_FIXED_BYTES + MAX_JOB_ID_BYTES + MAX_SECRET_BYTES;

    static final int FRAME_HEADER_BYTES = FrameLayout.HEADER_BYTES;

    /** Bytes of a short frame's header. */
    static final int SHORT_HEADER_BYTES = FrameLayout.SHORT_HEADER_BYTES;

    /** The bit of a frame's kind that says its header is short (the point-to-point layer's kinds stay below it). */
    static final int SHORT_KIND = 1 << 30;

    /**
     * The header bytes of the frame whose first word (payload length, then kind) is {@code first}: short when its kind
     * has {@link #SHORT_KIND} and is not negative (the transport's own frames, whole, have negative kinds).
     */
    static int headerBytes(long first) {
        return (first & 0xc000_0000_0000_0000L) == (long) SHORT_KIND << 32 ? SHORT_HEADER_BYTES : FRAME_HEADER_BYTES;
    }

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort SHORT =
            ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Encodes the hello a connector sends. */
    static byte[] encodeHello(int rank, byte[] jobId, byte[] secret) {
        if (jobId.length > MAX_JOB_ID_BYTES || secret.length > MAX_SECRET_BYTES) {
            throw new IllegalArgumentException("job id or secret longer than " + MAX_JOB_ID_BYTES + " bytes");
        }
        byte[] hello = new byte[HELLO_FIXED_BYTES + jobId.length + secret.length];
        MemorySegment s = MemorySegment.ofArray(hello);
        s.set(INT, HELLO_MAGIC, MAGIC);
        s.set(SHORT, HELLO_VERSION, (short) VERSION);
        s.set(SHORT, HELLO_FLAGS, (short) 0);
        s.set(INT, HELLO_RANK, rank);
        s.set(SHORT, HELLO_JOB_LENGTH, (short) jobId.length);
        s.set(SHORT, HELLO_SECRET_LENGTH, (short) secret.length);
        MemorySegment.copy(MemorySegment.ofArray(jobId), 0, s, HELLO_FIXED_BYTES, jobId.length);
        MemorySegment.copy(MemorySegment.ofArray(secret), 0, s, HELLO_FIXED_BYTES + jobId.length, secret.length);
        return hello;
    }

    /**
     * Length of the hello that starts at {@code off} in {@code buf}, or 0 when fewer than the needed bytes are
     * available yet.
     *
     * @throws ProtocolException when what is there already is no valid hello of this version
     */
    static int helloLength(MemorySegment buf, long off, long available) throws ProtocolException {
        if (available < HELLO_FIXED_BYTES) {
            // check the magic early, so that a stray client sending a few bytes is dropped at once
            if (available >= 4 && buf.get(INT, off + HELLO_MAGIC) != MAGIC) {
                throw new ProtocolException("not a jmpi tcp connection (bad magic)");
            }
            return 0;
        }
        if (buf.get(INT, off + HELLO_MAGIC) != MAGIC) {
            throw new ProtocolException("not a jmpi tcp connection (bad magic)");
        }
        int version = Short.toUnsignedInt(buf.get(SHORT, off + HELLO_VERSION));
        if (version != VERSION) {
            throw new ProtocolException("jmpi tcp protocol version " + version + ", expected " + VERSION);
        }
        int jobLength = Short.toUnsignedInt(buf.get(SHORT, off + HELLO_JOB_LENGTH));
        int secretLength = Short.toUnsignedInt(buf.get(SHORT, off + HELLO_SECRET_LENGTH));
        if (jobLength > MAX_JOB_ID_BYTES || secretLength > MAX_SECRET_BYTES) {
            throw new ProtocolException("hello too long");
        }
        int length = HELLO_FIXED_BYTES + jobLength + secretLength;
        return available >= length ? length : 0;
    }

    /** The sender rank of a complete hello at {@code off}. */
    static int helloRank(MemorySegment buf, long off) {
        return buf.get(INT, off + HELLO_RANK);
    }

    /**
     * Whether the complete hello at {@code off} names this job and carries this secret (compared in constant time).
     */
    static boolean helloMatches(MemorySegment buf, long off, byte[] jobId, byte[] secret) {
        int jobLength = Short.toUnsignedInt(buf.get(SHORT, off + HELLO_JOB_LENGTH));
        int secretLength = Short.toUnsignedInt(buf.get(SHORT, off + HELLO_SECRET_LENGTH));
        byte[] job = buf.asSlice(off + HELLO_FIXED_BYTES, jobLength).toArray(ValueLayout.JAVA_BYTE);
        byte[] sec = buf.asSlice(off + HELLO_FIXED_BYTES + jobLength, secretLength).toArray(ValueLayout.JAVA_BYTE);
        boolean jobOk = MessageDigest.isEqual(job, jobId);
        boolean secretOk = MessageDigest.isEqual(sec, secret);
        return jobOk & secretOk;
    }

    /** The job id of a complete hello at {@code off}. */
    static byte[] helloJob(MemorySegment buf, long off) {
        int jobLength = Short.toUnsignedInt(buf.get(SHORT, off + HELLO_JOB_LENGTH));
        return buf.asSlice(off + HELLO_FIXED_BYTES, jobLength).toArray(ValueLayout.JAVA_BYTE);
    }

    /** The secret (for a process of another job: the link token) of a complete hello at {@code off}. */
    static byte[] helloSecret(MemorySegment buf, long off) {
        int jobLength = Short.toUnsignedInt(buf.get(SHORT, off + HELLO_JOB_LENGTH));
        int secretLength = Short.toUnsignedInt(buf.get(SHORT, off + HELLO_SECRET_LENGTH));
        return buf.asSlice(off + HELLO_FIXED_BYTES + jobLength, secretLength).toArray(ValueLayout.JAVA_BYTE);
    }
}
