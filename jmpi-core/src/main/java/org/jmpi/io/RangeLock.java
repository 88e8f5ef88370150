package org.jmpi.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;
import org.jmpi.shared.JvmRangeLocks;

/**
 * A byte-range lock on a file held by one rank: first the JVM-wide range (other ranks running as threads of this
 * JVM), then the operating-system lock (other processes, other hosts on a shared file system that supports POSIX
 * locks). Released in the opposite order by {@link #close()}.
 *
 * <p>Threading: used by the thread that took it.
 */
final class RangeLock implements AutoCloseable {
    private final Object key;
    private final long[] token;
    private final FileLock osLock;

    private RangeLock(Object key, long[] token, FileLock osLock) {
        this.key = key;
        this.token = token;
        this.osLock = osLock;
    }

    /**
     * Locks {@code [start, end)} of the file behind {@code channel}; {@code key} names the file the same way for
     * every rank of this JVM.
     *
     * @param shared a read lock at the operating-system level (the JVM-wide part is always exclusive)
     */
    static RangeLock take(Object key, FileChannel channel, long start, long end, boolean shared, String path) {
        if (end <= start) {
            end = start + 1;
        }
        long[] token;
        try {
            token = JvmRangeLocks.lock(key, start, end);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MpiError(ErrorClass.ERR_OTHER, "interrupted while waiting for a lock on " + path);
        }
        try {
            FileLock l = channel.lock(start, end - start, shared);
            return new RangeLock(key, token, l);
        } catch (IOException | RuntimeException e) {
            JvmRangeLocks.unlock(key, token);
            if (e instanceof IOException io) {
                throw IoErrors.of(io, "locking bytes " + start + "-" + end + " of", path);
            }
            throw new MpiError(ErrorClass.ERR_IO, "cannot lock bytes " + start + "-" + end + " of " + path + ": " + e,
                    e);
        }
    }

    @Override
    public void close() {
        try {
            if (osLock.isValid()) {
                osLock.release();
            }
        } catch (IOException e) {
            // the channel closed under the lock: the operating system dropped it already
        } finally {
            JvmRangeLocks.unlock(key, token);
        }
    }
}
