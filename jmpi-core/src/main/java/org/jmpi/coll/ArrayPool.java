package org.jmpi.coll;

import java.lang.ref.SoftReference;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Recycles the temporary arrays of collective schedules. A fresh Java array is zeroed by the JVM: for a 16 MiB
 * allreduce that costs about as much as the reduction itself, so large temporaries are kept (softly, so the garbage
 * collector may still take them) and handed out again.
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

    /** Returns an array obtained from {@link #take}. */
    static void give(Object array) {
        Class<?> component = array.getClass().componentType();
        if (bytes(component, Array.getLength(array)) < MIN_POOLED_BYTES) {
            return;
        }
        synchronized (KEPT) {
            int same = 0;
            int smallest = -1;
            for (int i = 0; i < KEPT.size(); i++) {
                Object a = KEPT.get(i).get();
                if (a != null && a.getClass() == array.getClass()) {
                    same++;
                    if (smallest < 0 || Array.getLength(a) < Array.getLength(KEPT.get(smallest).get())) {
                        smallest = i;
                    }
                }
            }
            if (same >= MAX_KEPT) {
                if (Array.getLength(KEPT.get(smallest).get()) >= Array.getLength(array)) {
                    return;
                }
                KEPT.remove(smallest);
            }
            KEPT.add(new SoftReference<>(array));
        }
    }

    private static long bytes(Class<?> component, int length) {
        int size = component == long.class || component == double.class ? 8
                : component == int.class || component == float.class ? 4
                : component == short.class || component == char.class ? 2 : 1;
        return (long) size * length;
    }
}
