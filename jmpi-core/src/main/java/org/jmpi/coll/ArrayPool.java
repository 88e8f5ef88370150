package org.jmpi.coll;

import java.lang.foreign.MemorySegment;
import java.lang.ref.SoftReference;
import java.lang.reflect.Array;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.jmpi.shared.NativeMemory;

/**
 * Recycles the temporary arrays (and native segments) of collective schedules. A fresh Java array or segment is zeroed:
 * for a 16 MiB allreduce that costs about as much as the reduction itself, so large temporaries are kept (softly, so
 * the garbage collector may still take them) and handed out again.
 *
 * <p>Only arrays of at least {@link #MIN_POOLED_BYTES} are kept, at most {@link #MAX_KEPT} per element type; a
 * request gets the smallest kept array that is large enough, or a new one. An array is in the pool or owned by
 * exactly one schedule, never both.
 *
 * <p>Threading: one pool per rank (a static of this class, which is per rank in threads mode), used from any thread
 * that advances a schedule: every access holds the pool's lock, briefly.
 */
final class ArrayPool {
    private ArrayPool() {}

    static final int MIN_POOLED_BYTES = 64 * 1024;
    static final int MAX_KEPT = 8;

    private static final List<SoftReference<Object>> KEPT = new ArrayList<>();

    /** An array of {@code arrayType} with at least {@code length} entries; contents undefined. */
    static Object take(Class<?> arrayType, int length) {
        Class<?> component = arrayType.componentType();
        if (bytes(component, length) >= MIN_POOLED_BYTES) {
            synchronized (KEPT) {
                Object best = null;
                SoftReference<Object> bestRef = null;
                for (Iterator<SoftReference<Object>> it = KEPT.iterator(); it.hasNext(); ) {
                    SoftReference<Object> ref = it.next();
                    Object a = ref.get();
                    if (a == null) {
                        it.remove();
                    } else if (a.getClass() == arrayType && Array.getLength(a) >= length
                            && (best == null || Array.getLength(a) < Array.getLength(best))) {
                        best = a;
                        bestRef = ref;
                    }
                }
                if (best != null) {
                    KEPT.remove(bestRef);
                    return best;
                }
            }
        }
        return Array.newInstance(component, length);
    }

    /** Native memory of at least {@code bytes} bytes, 64-byte aligned (freed by the garbage collector). */
    static MemorySegment takeNative(long bytes) {
        if (bytes >= MIN_POOLED_BYTES) {
            synchronized (KEPT) {
                MemorySegment best = null;
                SoftReference<Object> bestRef = null;
                for (Iterator<SoftReference<Object>> it = KEPT.iterator(); it.hasNext(); ) {
                    SoftReference<Object> ref = it.next();
                    Object a = ref.get();
                    if (a == null) {
                        it.remove();
                    } else if (a instanceof MemorySegment m && m.byteSize() >= bytes
                            && (best == null || m.byteSize() < best.byteSize())) {
                        best = m;
                        bestRef = ref;
                    }
                }
                if (best != null) {
                    KEPT.remove(bestRef);
                    return best;
                }
            }
        }
        int cls = smallClass(bytes);
        if (cls >= 0) {
            synchronized (SMALL) {
                ArrayDeque<MemorySegment> free = SMALL[cls];
                if (free != null && !free.isEmpty()) {
                    return free.pop();
                }
            }
            return NativeMemory.allocate(SMALLEST << cls);
        }
        return NativeMemory.allocate(Math.max(1, bytes));
    }

    /**
     * Small native temporaries (below {@link #MIN_POOLED_BYTES}) are kept per power-of-two size class: allocating
     * one ({@link NativeMemory}) costs a malloc, a direct-memory reservation and a cleaner, and freeing it wakes the
     * cleaner thread, which on a small machine takes the core from the rank's partner (a 4-byte allreduce of direct
     * buffers spent more time there than in communicating).
     */
    private static final int SMALLEST = 64;
    private static final int SMALL_KEPT = 16;
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static final ArrayDeque<MemorySegment>[] SMALL =
            new ArrayDeque[Integer.numberOfTrailingZeros(MIN_POOLED_BYTES / SMALLEST) + 1];

    /** The size class of a small native temporary of {@code bytes}, or -1 when it is not small. */
    private static int smallClass(long bytes) {
        if (bytes >= MIN_POOLED_BYTES) {
            return -1;
        }
        long rounded = Math.max(SMALLEST, Long.highestOneBit(Math.max(1, bytes) - 1) << 1);
        return Long.numberOfTrailingZeros(rounded / SMALLEST);
    }

    /** Returns an array obtained from {@link #take}, or a segment from {@link #takeNative}. */
    static void give(Object array) {
        if (array instanceof MemorySegment m) {
            if (m.byteSize() >= MIN_POOLED_BYTES) {
                keep(m, m.byteSize());
            } else {
                int cls = smallClass(m.byteSize());
                if ((SMALLEST << cls) == m.byteSize()) {
                    synchronized (SMALL) {
                        if (SMALL[cls] == null) {
                            SMALL[cls] = new ArrayDeque<>();
                        }
                        if (SMALL[cls].size() < SMALL_KEPT) {
                            SMALL[cls].push(m);
                        }
                    }
                }
            }
            return;
        }
        Class<?> component = array.getClass().componentType();
        if (bytes(component, Array.getLength(array)) < MIN_POOLED_BYTES) {
            return;
        }
        keep(array, Array.getLength(array));
    }

    /** Adds {@code array} (of {@code length} units) to the pool, evicting the smallest of its kind when full. */
    private static void keep(Object array, long length) {
        synchronized (KEPT) {
            int same = 0;
            int smallest = -1;
            long smallestLength = Long.MAX_VALUE;
            for (int i = 0; i < KEPT.size(); i++) {
                Object a = KEPT.get(i).get();
                if (a != null && sameKind(a, array)) {
                    same++;
                    long l = length(a);
                    if (l < smallestLength) {
                        smallest = i;
                        smallestLength = l;
                    }
                }
            }
            if (same >= MAX_KEPT) {
                if (smallestLength >= length) {
                    return;
                }
                KEPT.remove(smallest);
            }
            KEPT.add(new SoftReference<>(array));
        }
    }

    private static boolean sameKind(Object a, Object b) {
        return a instanceof MemorySegment ? b instanceof MemorySegment : a.getClass() == b.getClass();
    }

    private static long length(Object a) {
        return a instanceof MemorySegment m ? m.byteSize() : Array.getLength(a);
    }

    private static long bytes(Class<?> component, int length) {
        int size = component == long.class || component == double.class ? 8
                : component == int.class || component == float.class ? 4
                : component == short.class || component == char.class ? 2 : 1;
        return (long) size * length;
    }
}
