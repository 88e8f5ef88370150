package org.jmpi.transport.tcp;

import java.lang.foreign.MemorySegment;
import org.jmpi.transport.FrameLayout;

/**
 * The frames of one connection that could not be put into its write buffer at once: a growable ring of reusable
 * entries, each with its own copy of the header. Used only when a connection is busy (another thread is writing,
 * or the socket is full); an idle connection takes frames straight into its write buffer.
 *
 * <p>Threading: {@link #add} may be called by any thread; {@link #peek} and {@link #removeHead} only by the thread
 * that holds the connection's writer flag, so the head entry cannot change under it. Every method takes the lock
 * briefly (no I/O, no callbacks inside it); the entry fields written under the lock in {@code add} are read after
 * taking it in {@code peek}. {@link #isEmpty} reads the volatile size without the lock.
 */
final class SendQueue {
    /** A queued frame. Fields are written in {@link #add} and cleared in {@link #removeHead}, under the lock. */
    static final class Entry {
        final MemorySegment header = MemorySegment.ofArray(new byte[FrameLayout.HEADER_BYTES]);
        MemorySegment payload;
        Runnable onWritten;
    }

    /** A monitor: C1 takes and gives it back inline (a {@code ReentrantLock}'s methods are calls into the JDK). */
    private final Object lock = new Object();
    private Entry[] ring;
    private int head;
    private volatile int size;
    /** Set by {@link #retire} (under the lock). */
    private boolean retired;

    SendQueue(int initialCapacity) {
        ring = new Entry[Integer.highestOneBit(Math.max(2, initialCapacity - 1)) << 1];
        for (int i = 0; i < ring.length; i++) {
            ring[i] = new Entry();
        }
    }

    boolean isEmpty() {
        return size == 0;
    }

    /**
     * Appends a frame; false, having done nothing, once the queue is retired ({@link #retire}): the frame belongs on
     * the connection that took over.
     */
    boolean add(MemorySegment header, MemorySegment payload, Runnable onWritten) {
        synchronized (lock) {
            if (retired) {
                return false;
            }
            append(header, payload, onWritten);
            return true;
        }
    }

    /** Appends {@code header} (a frame without payload) as the last frame: {@link #add} refuses every later one. */
    void retire(MemorySegment header) {
        synchronized (lock) {
            append(header, null, null);
            retired = true;
        }
    }

    private void append(MemorySegment header, MemorySegment payload, Runnable onWritten) {
        int n = size;
        if (n == ring.length) {
            grow();
        }
        Entry e = ring[(head + n) & (ring.length - 1)];
        MemorySegment.copy(header, 0, e.header, 0, FrameLayout.HEADER_BYTES);
        e.payload = payload;
        e.onWritten = onWritten;
        size = n + 1;
    }

    /** The oldest entry, or {@code null}; it stays valid until {@link #removeHead} (entries are never copied). */
    Entry peek() {
        if (size == 0) {
            return null;
        }
        synchronized (lock) {
            return size == 0 ? null : ring[head];
        }
    }

    void removeHead() {
        synchronized (lock) {
            Entry e = ring[head];
            e.payload = null;
            e.onWritten = null;
            head = (head + 1) & (ring.length - 1);
            size = size - 1;
        }
    }

    /** Forgets every entry without running its callback (the connection died). */
    void clear() {
        synchronized (lock) {
            for (Entry e : ring) {
                e.payload = null;
                e.onWritten = null;
            }
            head = 0;
            size = 0;
        }
    }

    private void grow() {
        Entry[] bigger = new Entry[ring.length * 2];
        for (int i = 0; i < ring.length; i++) {
            bigger[i] = ring[(head + i) & (ring.length - 1)];
        }
        for (int i = ring.length; i < bigger.length; i++) {
            bigger[i] = new Entry();
        }
        ring = bigger;
        head = 0;
    }
}
