package org.jmpi.shared;

import java.util.ArrayList;
import java.util.List;

/**
 * A map from {@code long} keys other than 0 to values: open addressing with linear probing, deletion by shifting the
 * run back (no tombstones), every method {@code synchronized}. It holds the requests a rank has in flight under ids it
 * hands out itself (the point-to-point engine's rendezvous sends and receives), a handful at a time.
 *
 * <p>Why not a {@code ConcurrentHashMap<Long, V>}: the ids come from a counter, so most are boxed anew, and each
 * operation runs through some ten JDK methods ({@code Long.valueOf}, {@code hashCode}, {@code equals}, the map's
 * {@code putVal}, {@code replaceNode}, {@code addCount}, ...). A program's first message above the eager limit sets the
 * JIT compiling all of them, twice (with profiling, then C2), while the ranks wait for each other; this class is a
 * few small methods the runtime's own tier compiles once.
 *
 * <p>Threading: safe for any number of threads; the lock is held for a probe or a shift, never while calling out.
 *
 * @param <V> the values
 */
public final class LongTable<V> {
    private long[] keys = new long[16];
    private Object[] values = new Object[16];
    private int size;

    /** Maps {@code key} (not 0) to {@code value} (not null), replacing what it was mapped to. */
    public synchronized void put(long key, V value) {
        if (key == 0 || value == null) {
            throw new IllegalArgumentException("key 0 or null value");
        }
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (keys[i] != 0 && keys[i] != key) {
            i = (i + 1) & mask;
        }
        if (keys[i] == 0) {
            keys[i] = key;
            size++;
        }
        values[i] = value;
    }

    /** The value of {@code key}, or null. */
    public synchronized V get(long key) {
        int i = find(key);
        return i < 0 ? null : value(i);
    }

    /** Removes {@code key}; its value, or null if it had none. */
    public synchronized V remove(long key) {
        int i = find(key);
        if (i < 0) {
            return null;
        }
        V v = value(i);
        delete(i);
        return v;
    }

    /** Removes {@code key} if it maps to {@code value} (the same object); whether it did. */
    public synchronized boolean remove(long key, V value) {
        int i = find(key);
        if (i < 0 || values[i] != value) {
            return false;
        }
        delete(i);
        return true;
    }

    /** Whether no key is mapped. */
    public synchronized boolean isEmpty() {
        return size == 0;
    }

    /** The values now mapped, in no particular order (a copy: the table may change while the caller walks it). */
    public synchronized List<V> values() {
        List<V> all = new ArrayList<>(size);
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != 0) {
                all.add(value(i));
            }
        }
        return all;
    }

    private static int slot(long key, int mask) {
        return (int) (key ^ key >>> 32) & mask; // ids are consecutive: consecutive slots
    }

    private int find(long key) {
        if (key == 0) {
            return -1;
        }
        int mask = keys.length - 1;
        for (int i = slot(key, mask); keys[i] != 0; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return i;
            }
        }
        return -1;
    }

    @SuppressWarnings("unchecked")
    private V value(int i) {
        return (V) values[i];
    }

    /** Empties slot {@code i} and moves back the entries after it that their own slots no longer reach. */
    private void delete(int i) {
        int mask = keys.length - 1;
        int gap = i;
        for (int j = (i + 1) & mask; keys[j] != 0; j = (j + 1) & mask) {
            int home = slot(keys[j], mask);
            // the entry at j may fill the gap unless its home lies cyclically in (gap, j]
            if (((j - home) & mask) >= ((j - gap) & mask)) {
                keys[gap] = keys[j];
                values[gap] = values[j];
                gap = j;
            }
        }
        keys[gap] = 0;
        values[gap] = null;
        size--;
    }

    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new Object[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int k = 0; k < oldKeys.length; k++) {
            if (oldKeys[k] != 0) {
                int i = slot(oldKeys[k], mask);
                while (keys[i] != 0) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[k];
                values[i] = oldValues[k];
            }
        }
    }
}
