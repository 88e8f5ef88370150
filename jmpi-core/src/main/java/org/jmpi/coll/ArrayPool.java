package org.jmpi.coll;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.SoftReference;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

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
        return Arena.ofAuto().allocate(Math.max(1, bytes), 64);
    }

    /** Returns an array obtained from {@link #take}, or a segment from {@link #takeNative}. */
    static void give(Object array) {
        if (array instanceof MemorySegment m) {
            if (m.byteSize() >= MIN_POOLED_BYTES) {
                keep(m, m.byteSize());
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
