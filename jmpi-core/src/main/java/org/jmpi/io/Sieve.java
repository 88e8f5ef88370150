package org.jmpi.io;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.jmpi.datatype.MessageData;

/**
 * Independent access: moves the data of one rank between its memory and the file runs of its access. A run
 * alone goes straight to the file (from the user's memory when it is contiguous, else through a staging buffer).
 * Several runs close together are served by <em>data sieving</em>, as in ROMIO: one read of the window that spans
 * them (at most {@code ind_rd_buffer_size} / {@code ind_wr_buffer_size} bytes), the pieces copied out of it, or,
 * for a write, copied into it and the window written back in one request. A sieving write is a read-modify-write
 * of bytes it does not own, so it holds a byte-range lock on the window ({@link RangeLock}) unless the caller
 * already holds one on the whole access (atomic mode). {@code romio_ds_read}/{@code romio_ds_write} = disable turn
 * sieving off (one request per run).
 *
 * <p>Threading: stateless; one call uses the file's channel (positional I/O, safe for concurrent use).
 */
final class Sieve {
    /** Staging buffers for noncontiguous user memory hold at most this many bytes. */
    static final int STAGING = 4 << 20;

    /**
     * A window never spans a gap between two runs wider than this: the gap's bytes would cost more to copy (and, for
     * a write, to write back) than one more request costs (a {@code pread} of cached data is about a microsecond,
     * copying 64 KiB several). ROMIO reads every gap; a block of a 3-D array split over 4 ranks leaves whole half
     * planes between its runs, and skipping them halves what a rank reads.
     */
    static final long MAX_GAP = 64 << 10;

    private Sieve() {}

    static void write(OpenFile f, FileRuns r, MessageData data, boolean holdsLock) throws IOException {
        long window = f.hints().indWrBufferSize();
        boolean sieve = f.hints().dsWrite() != Hints.Switch.DISABLE && r.sorted;
        for (int i = 0; i < r.count; ) {
            int j = group(r, i, window, sieve);
            if (j - i == 1) {
                writeRun(f, data, r.stream[i], r.file[i], r.length[i]);
            } else {
                long start = r.file[i];
                long end = r.file[j - 1] + r.length[j - 1];
                RangeLock lock = holdsLock ? null : f.lock(start, end, false);
                try {
                    ByteBuffer b = f.takeBuffer(end - start);
                    try {
                        MemorySegment seg = MemorySegment.ofBuffer(b);
                        int got = readFully(f.channel(), b, start, (int) (end - start));
                        if (got < end - start) {
                            seg.asSlice(got, end - start - got).fill((byte) 0);
                        }
                        for (int k = i; k < j; k++) {
                            data.packTo(r.stream[k], seg, r.file[k] - start, r.length[k]);
                        }
                        writeFully(f.channel(), b, start, (int) (end - start));
                    } finally {
                        f.giveBuffer(b);
                    }
                } finally {
                    if (lock != null) {
                        lock.close();
                    }
                }
            }
            i = j;
        }
    }

    /** Reads runs already clipped to the end of the file. */
    static void read(OpenFile f, FileRuns r, MessageData data) throws IOException {
        long window = f.hints().indRdBufferSize();
        boolean sieve = f.hints().dsRead() != Hints.Switch.DISABLE && r.sorted;
        for (int i = 0; i < r.count; ) {
            int j = group(r, i, window, sieve);
            if (j - i == 1) {
                readRun(f, data, r.stream[i], r.file[i], r.length[i]);
            } else {
                long start = r.file[i];
                long end = r.file[j - 1] + r.length[j - 1];
                ByteBuffer b = f.takeBuffer(end - start);
                try {
                    MemorySegment seg = MemorySegment.ofBuffer(b);
                    readFully(f.channel(), b, start, (int) (end - start));
                    for (int k = i; k < j; k++) {
                        data.unpackFrom(r.stream[k], seg, r.file[k] - start, r.length[k]);
                    }
                } finally {
                    f.giveBuffer(b);
                }
            }
            i = j;
        }
    }

    /**
     * One past the last run, from {@code i}, that a sieving window of {@code window} bytes can take: runs follow
     * while the window holds them and no gap between neighbours exceeds {@link #MAX_GAP}.
     */
    static int group(FileRuns r, int i, long window, boolean sieve) {
        int j = i + 1;
        if (sieve && r.length[i] < window) {
            while (j < r.count && r.file[j] + r.length[j] - r.file[i] <= window
                    && r.file[j] - (r.file[j - 1] + r.length[j - 1]) <= MAX_GAP) {
                j++;
            }
        }
        return j;
    }

    /** Writes stream bytes {@code [stream, stream + len)} of {@code data} at file offset {@code pos}. */
    static void writeRun(OpenFile f, MessageData data, long stream, long pos, long len) throws IOException {
        moveRun(f, data, stream, pos, len, true);
    }

    static void readRun(OpenFile f, MessageData data, long stream, long pos, long len) throws IOException {
        moveRun(f, data, stream, pos, len, false);
    }

    /** One run, straight from or into user memory when it is contiguous, else through a staging buffer. */
    private static void moveRun(OpenFile f, MessageData data, long stream, long pos, long len, boolean write)
            throws IOException {
        ByteBuffer direct = userBytes(data, stream, len);
        if (direct != null) {
            if (write) {
                writeFully(f.channel(), direct, pos, (int) len);
            } else {
                readFully(f.channel(), direct, pos, (int) len);
            }
            return;
        }
        ByteBuffer b = f.takeBuffer(Math.min(len, STAGING));
        try {
            MemorySegment seg = MemorySegment.ofBuffer(b);
            for (long done = 0; done < len; ) {
                int n = (int) Math.min(len - done, b.capacity());
                if (write) {
                    data.packTo(stream + done, seg, 0, n);
                    writeFully(f.channel(), b, pos + done, n);
                } else {
                    readFully(f.channel(), b, pos + done, n);
                    data.unpackFrom(stream + done, seg, 0, n);
                }
                done += n;
            }
        } finally {
            f.giveBuffer(b);
        }
    }

    /**
     * The user's bytes as a buffer the channel can use directly (contiguous native memory or a byte array, at most
     * 2 GiB), or null.
     */
    private static ByteBuffer userBytes(MessageData data, long stream, long len) {
        MemorySegment c = data.contiguous();
        if (c == null || len > Integer.MAX_VALUE) {
            return null;
        }
        try {
            return c.asSlice(stream, len).asByteBuffer();
        } catch (UnsupportedOperationException e) {
            return null;
        }
    }

    /** Writes {@code n} bytes of {@code b} from index 0 at file offset {@code pos}. */
    static void writeFully(FileChannel ch, ByteBuffer b, long pos, int n) throws IOException {
        writeFully(ch, b, 0, pos, n);
    }

    /** Writes {@code n} bytes of {@code b} from index {@code at} at file offset {@code pos}. */
    static void writeFully(FileChannel ch, ByteBuffer b, int at, long pos, int n) throws IOException {
        ByteBuffer w = b.duplicate().clear().limit(at + n).position(at);
        while (w.hasRemaining()) {
            ch.write(w, pos + w.position() - at);
        }
    }

    /**
     * Reads up to {@code n} bytes at {@code pos} into {@code b} from index 0.
     *
     * @return the bytes read, fewer than {@code n} only at the end of the file
     */
    static int readFully(FileChannel ch, ByteBuffer b, long pos, int n) throws IOException {
        return readFully(ch, b, 0, pos, n);
    }

    /** Reads up to {@code n} bytes at {@code pos} into {@code b} from index {@code at}; returns the bytes read. */
    static int readFully(FileChannel ch, ByteBuffer b, int at, long pos, int n) throws IOException {
        ByteBuffer w = b.duplicate().clear().limit(at + n).position(at);
        while (w.hasRemaining()) {
            if (ch.read(w, pos + w.position() - at) < 0) {
                break;
            }
        }
        return w.position() - at;
    }
}
