package org.jmpi.ft;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.jmpi.ft.CheckpointLayout.BadCheckpointException;

/**
 * Writing and reading one rank's part file ({@link CheckpointLayout}): items go through a staging buffer of
 * {@link #STAGING_BYTES} (primitive arrays converted to little-endian bytes a chunk at a time); byte arrays and
 * buffers are written from where they are. The CRC32C of everything written is kept on the way.
 */
final class PartFile {
    private PartFile() {}

    static final int STAGING_BYTES = 1 << 20;

    /** Copies {@code n} elements starting at element {@code offset} between an array and the staging buffer. */
    @FunctionalInterface
    private interface Chunk {
        void copy(ByteBuffer staging, int offset, int n);
    }

    /** Writes a part file from the start; the caller forces and closes it. Not thread-safe. */
    static final class Writer implements AutoCloseable {
        private final FileChannel channel;
        private final CRC32C crc = new CRC32C();
        private final ByteBuffer staging = ByteBuffer.allocate(STAGING_BYTES).order(CheckpointLayout.ORDER);
        private long size;

        Writer(Path file) throws IOException {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
        }

        /** Writes the remaining bytes of {@code b} (its position moves to its limit). */
        void write(ByteBuffer b) throws IOException {
            crc.update(b.duplicate());
            while (b.hasRemaining()) {
                size += channel.write(b);
            }
        }

        /** Writes one item: its header, then its data. */
        void item(String name, ItemType type, long count, Object data) throws IOException {
            write(CheckpointLayout.itemHeader(name, type, count));
            switch (type) {
                case BYTES, OBJECT -> write(ByteBuffer.wrap((byte[]) data));
                case BUFFER -> write(((ByteBuffer) data).duplicate());
                case SHORTS -> put(((short[]) data).length, 2,
                        (s, off, n) -> s.asShortBuffer().put((short[]) data, off, n));
                case CHARS -> put(((char[]) data).length, 2,
                        (s, off, n) -> s.asCharBuffer().put((char[]) data, off, n));
                case INTS -> put(((int[]) data).length, 4, (s, off, n) -> s.asIntBuffer().put((int[]) data, off, n));
                case LONGS -> put(((long[]) data).length, 8,
                        (s, off, n) -> s.asLongBuffer().put((long[]) data, off, n));
                case FLOATS -> put(((float[]) data).length, 4,
                        (s, off, n) -> s.asFloatBuffer().put((float[]) data, off, n));
                case DOUBLES -> put(((double[]) data).length, 8,
                        (s, off, n) -> s.asDoubleBuffer().put((double[]) data, off, n));
            }
        }

        private void put(int length, int elementBytes, Chunk chunk) throws IOException {
            int perChunk = STAGING_BYTES / elementBytes;
            for (int off = 0; off < length; off += perChunk) {
                int n = Math.min(perChunk, length - off);
                staging.clear();
                chunk.copy(staging, off, n);
                staging.limit(n * elementBytes);
                write(staging);
            }
        }

        /** Writes what is buffered by the operating system to the device (fsync). */
        void force() throws IOException {
            channel.force(true);
        }

        long size() {
            return size;
        }

        int checksum() {
            return (int) crc.getValue();
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    /** Where one item of a part file is. */
    record Entry(String name, ItemType type, long count, long dataOffset) {
        long dataBytes() {
            return count * type.elementBytes();
        }
    }

    /** The CRC32C of a whole file, read in chunks; also checks that it has {@code size} bytes. */
    static void verify(Path file, long size, int checksum) throws IOException, BadCheckpointException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long actual = ch.size();
            if (actual != size) {
                throw new BadCheckpointException(file.getFileName() + " has " + actual + " bytes, the manifest says "
                        + size);
            }
            ByteBuffer b = ByteBuffer.allocate(STAGING_BYTES);
            CRC32C crc = new CRC32C();
            long pos = 0;
            while (pos < size) {
                b.clear();
                int n = ch.read(b, pos);
                if (n < 0) {
                    throw new BadCheckpointException(file.getFileName() + " ended early while being read");
                }
                pos += n;
                b.flip();
                crc.update(b);
            }
            if ((int) crc.getValue() != checksum) {
                throw new BadCheckpointException(file.getFileName() + " does not match its checksum (changed or "
                        + "damaged after it was written)");
            }
        }
    }

    /**
     * Reads the headers of a part file: which rank and generation wrote it and where each item is. The file's checksum
     * should have been verified first; this still checks every length against the file's size.
     */
    static List<Entry> index(Path file, int rank, int ranks, long generation)
            throws IOException, BadCheckpointException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            ByteBuffer h = readFully(ch, 0, CheckpointLayout.HEADER_BYTES, size, file);
            byte[] magic = new byte[CheckpointLayout.MAGIC.length];
            h.get(CheckpointLayout.OFF_MAGIC, magic);
            if (!Arrays.equals(magic, CheckpointLayout.MAGIC)
                    || h.getInt(CheckpointLayout.OFF_VERSION) != CheckpointLayout.VERSION) {
                throw new BadCheckpointException(file.getFileName() + " is not a jmpi checkpoint part of layout "
                        + "version " + CheckpointLayout.VERSION);
            }
            if (h.getInt(CheckpointLayout.OFF_RANK) != rank || h.getInt(CheckpointLayout.OFF_RANKS) != ranks
                    || h.getLong(CheckpointLayout.OFF_GENERATION) != generation) {
                throw new BadCheckpointException(file.getFileName() + " belongs to rank "
                        + h.getInt(CheckpointLayout.OFF_RANK) + " of " + h.getInt(CheckpointLayout.OFF_RANKS)
                        + ", generation " + h.getLong(CheckpointLayout.OFF_GENERATION) + ", not rank " + rank + " of "
                        + ranks + ", generation " + generation);
            }
            int items = h.getInt(CheckpointLayout.OFF_ITEM_COUNT);
            if (items < 0 || (long) items * CheckpointLayout.ITEM_FIXED_BYTES > size) {
                throw new BadCheckpointException(file.getFileName() + " announces " + items + " items");
            }
            List<Entry> entries = new ArrayList<>(items);
            long pos = CheckpointLayout.HEADER_BYTES;
            for (int i = 0; i < items; i++) {
                int len = readFully(ch, pos, 4, size, file).getInt(0);
                if (len < 1 || len > CheckpointLayout.MAX_NAME_BYTES) {
                    throw new BadCheckpointException(file.getFileName() + ": item " + i + " has a name of " + len
                            + " bytes");
                }
                ByteBuffer rest = readFully(ch, pos + 4, len + 1 + 8, size, file);
                byte[] name = new byte[len];
                rest.get(0, name);
                ItemType type = ItemType.ofCode(rest.get(len));
                long count = rest.getLong(len + 1);
                long dataOffset = pos + CheckpointLayout.ITEM_FIXED_BYTES + len;
                if (type == null || count < 0 || count > (size - dataOffset) / type.elementBytes()) {
                    throw new BadCheckpointException(file.getFileName() + ": item " + i + " has a bad type or count");
                }
                Entry e = new Entry(new String(name, StandardCharsets.UTF_8), type, count, dataOffset);
                entries.add(e);
                pos = dataOffset + e.dataBytes();
            }
            if (pos != size) {
                throw new BadCheckpointException(file.getFileName() + " has " + (size - pos) + " bytes after its "
                        + "last item");
            }
            return entries;
        }
    }

    private static ByteBuffer readFully(FileChannel ch, long pos, int n, long size, Path file)
            throws IOException, BadCheckpointException {
        if (pos + n > size) {
            throw new BadCheckpointException(file.getFileName() + " is cut short");
        }
        ByteBuffer b = ByteBuffer.allocate(n).order(CheckpointLayout.ORDER);
        while (b.hasRemaining()) {
            if (ch.read(b, pos + b.position()) < 0) {
                throw new BadCheckpointException(file.getFileName() + " is cut short");
            }
        }
        return b.flip();
    }

    /**
     * Reads one item's data into {@code target}: an array of the entry's type and length, or, for BUFFER, a
     * ByteBuffer with exactly {@code count} bytes remaining (its position does not move). Byte arrays are read
     * directly; other arrays through the staging buffer.
     */
    static void read(Path file, Entry e, Object target) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            switch (e.type()) {
                case BYTES, OBJECT -> readInto(ch, e.dataOffset(), ByteBuffer.wrap((byte[]) target));
                case BUFFER -> readInto(ch, e.dataOffset(), ((ByteBuffer) target).duplicate());
                case SHORTS -> get(ch, e, 2, (s, off, n) -> s.asShortBuffer().get((short[]) target, off, n));
                case CHARS -> get(ch, e, 2, (s, off, n) -> s.asCharBuffer().get((char[]) target, off, n));
                case INTS -> get(ch, e, 4, (s, off, n) -> s.asIntBuffer().get((int[]) target, off, n));
                case LONGS -> get(ch, e, 8, (s, off, n) -> s.asLongBuffer().get((long[]) target, off, n));
                case FLOATS -> get(ch, e, 4, (s, off, n) -> s.asFloatBuffer().get((float[]) target, off, n));
                case DOUBLES -> get(ch, e, 8, (s, off, n) -> s.asDoubleBuffer().get((double[]) target, off, n));
            }
        }
    }

    private static void get(FileChannel ch, Entry e, int elementBytes, Chunk chunk) throws IOException {
        ByteBuffer staging = ByteBuffer.allocate(STAGING_BYTES).order(CheckpointLayout.ORDER);
        int perChunk = STAGING_BYTES / elementBytes;
        int length = (int) e.count();
        for (int off = 0; off < length; off += perChunk) {
            int n = Math.min(perChunk, length - off);
            staging.clear().limit(n * elementBytes);
            readInto(ch, e.dataOffset() + (long) off * elementBytes, staging);
            staging.flip();
            chunk.copy(staging, off, n);
        }
    }

    private static void readInto(FileChannel ch, long pos, ByteBuffer b) throws IOException {
        long p = pos;
        while (b.hasRemaining()) {
            int n = ch.read(b, p);
            if (n < 0) {
                throw new IOException("the part file ended early");
            }
            p += n;
        }
    }
}
