package org.jmpi.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The shared file pointer of an open file, kept where every process of the file sees it: an 8-byte side file
 * next to the data file (as ROMIO's {@code .shfp} files), read and advanced under a byte-range lock
 * ({@link RangeLock}: in-JVM for ranks that are threads, operating-system for processes and, on a shared file
 * system with POSIX locks, hosts). The value is the pointer in etypes of the current view. Rank 0 creates the side
 * file at open and deletes it at close; its name carries a random part so that two jobs never share one.
 *
 * <p>Threading: every access holds the lock; the channel is used positionally.
 */
final class SharedPointer {
    private final Path path;
    private final FileChannel channel;
    private final Object key;

    private SharedPointer(Path path, FileChannel channel, Object key) {
        this.path = path;
        this.channel = channel;
        this.key = key;
    }

    /** Creates a side file holding 0 (or {@code initial}) for the data file {@code file}; returns its path. */
    static Path create(Path file, long initial) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        String name = "." + file.getFileName() + ".jmpi-shfp-"
                + Long.toHexString(System.nanoTime() ^ Double.doubleToLongBits(Math.random()));
        Path side = dir.resolve(name);
        try (FileChannel ch = FileChannel.open(side, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            Sieve.writeFully(ch, ByteBuffer.allocate(8).putLong(0, initial), 0, 8);
        }
        return side;
    }

    static SharedPointer open(Path side) throws IOException {
        FileChannel ch = FileChannel.open(side, StandardOpenOption.READ, StandardOpenOption.WRITE);
        Object key = Files.readAttributes(side, BasicFileAttributes.class).fileKey();
        return new SharedPointer(side, ch, key != null ? key : side.toAbsolutePath().toString());
    }

    /** Adds {@code delta} atomically; returns the value before. */
    long fetchAdd(long delta) {
        RangeLock l = RangeLock.take(key, channel, 0, 8, false, path.toString());
        try {
            long v = read();
            if (delta != 0) {
                write(v + delta);
            }
            return v;
        } catch (IOException e) {
            throw IoErrors.of(e, "updating the shared file pointer in", path.toString());
        } finally {
            l.close();
        }
    }

    long get() {
        return fetchAdd(0);
    }

    void set(long value) {
        RangeLock l = RangeLock.take(key, channel, 0, 8, false, path.toString());
        try {
            write(value);
        } catch (IOException e) {
            throw IoErrors.of(e, "setting the shared file pointer in", path.toString());
        } finally {
            l.close();
        }
    }

    private long read() throws IOException {
        ByteBuffer b = ByteBuffer.allocate(8);
        int n = Sieve.readFully(channel, b, 0, 8);
        return n == 8 ? b.getLong(0) : 0;
    }

    private void write(long v) throws IOException {
        Sieve.writeFully(channel, ByteBuffer.allocate(8).putLong(0, v), 0, 8);
    }

    void close(boolean delete) {
        try {
            channel.close();
            if (delete) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // a side file that cannot be removed is left behind; it holds no data
        }
    }

    Path path() {
        return path;
    }
}
