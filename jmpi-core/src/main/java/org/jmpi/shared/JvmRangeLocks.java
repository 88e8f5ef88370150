package org.jmpi.shared;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Byte-range locks on files, shared by every thread of the JVM. Operating-system file locks
 * ({@link java.nio.channels.FileChannel#lock}) belong to a process: two ranks running as threads of one JVM do not
 * exclude each other through them, and the JDK refuses a second overlapping lock in the same JVM. MPI-IO therefore
 * takes a range here first (excluding the other threads of this JVM) and then the operating-system lock (excluding
 * other processes and hosts). This class lives in {@code org.jmpi.shared} because in threads mode each rank has its
 * own copy of the runtime classes; only classes of this package are loaded once per JVM.
 *
 * <p>Locks are exclusive (a shared request waits for any overlapping holder too: simple, and never wrong) and not
 * reentrant. A file is named by a key that is the same for every path to it (its device and inode).
 *
 * <p>Threading: all state is guarded by the monitor of {@link #TABLE}; waiters wait on it and every release wakes
 * them all.
 */
public final class JvmRangeLocks {
    /** Held ranges {@code [start, end)} per file key. */
    private static final Map<Object, List<long[]>> TABLE = new HashMap<>();

    private JvmRangeLocks() {}

    /**
     * Takes {@code [start, end)} of the file named {@code key}, waiting while another thread holds an overlapping
     * range.
     *
     * @return the token to give to {@link #unlock}
     * @throws InterruptedException when the waiting thread is interrupted (the job is being torn down)
     */
    public static long[] lock(Object key, long start, long end) throws InterruptedException {
        long[] range = {start, end};
        synchronized (TABLE) {
            // look the list up again after every wait: an unlock that empties it removes it from the table
            while (overlaps(TABLE.get(key), start, end)) {
                TABLE.wait();
            }
            TABLE.computeIfAbsent(key, k -> new ArrayList<>()).add(range);
        }
        return range;
    }

    /** Releases a range taken by {@link #lock}. */
    public static void unlock(Object key, long[] token) {
        synchronized (TABLE) {
            List<long[]> held = TABLE.get(key);
            if (held != null) {
                held.remove(token);
                if (held.isEmpty()) {
                    TABLE.remove(key);
                }
            }
            TABLE.notifyAll();
        }
    }

    private static boolean overlaps(List<long[]> held, long start, long end) {
        if (held == null) {
            return false;
        }
        for (long[] r : held) {
            if (r[0] < end && start < r[1]) {
                return true;
            }
        }
        return false;
    }
}
