package org.jmpi.comm;

import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;

/**
 * Agrees on context ids for new communicators so that two communicators that share a process never share a context,
 * in threads mode, processes mode and under {@code MPI_THREAD_MULTIPLE}.
 *
 * <h2>Idea (MPICH's scheme)</h2>
 * Every process keeps a bitmap of {@link #SLOTS} slots, a set bit meaning "free here". Slot {@code i} stands for
 * the four contexts starting at {@code FIRST_FREE_CONTEXT + 4 i}: point-to-point, collectives, and a pair for the
 * local group of an intercommunicator (or for {@code createGroup} over a subset). To create a communicator, the
 * processes of the parent allreduce their bitmaps with bitwise AND and all take the lowest slot set in the result:
 * free at every member, so the new context cannot be in use at any process that will use it. Processes outside the
 * parent are not asked and need not be: they never see traffic on it. Freeing a communicator sets its bit again.
 *
 * <h2>Concurrent creations</h2>
 * Two threads of one process creating communicators on different parents at the same time must not both take the
 * same slot. Only one thread at a time "owns" the bitmap and contributes it; the others contribute all zeros (no
 * slot) and a cleared ownership flag (word 0 of the reduced array), see a result without the flag, and try again.
 * Ownership goes to the waiting creation whose parent has the lowest context id, so the creation on the lowest
 * parent eventually owns the bitmap at all its members at once and succeeds; no set of creations livelocks. The
 * owner claims its slot before it gives ownership up.
 *
 * <h2>Cost</h2>
 * One allreduce of {@code SLOTS / 64 + 1} longs (520 bytes) per creation when no other thread of the process is
 * creating one: {@code O(log P)} messages per rank with recursive doubling. Contention adds rounds.
 *
 * <h2>Restrictions</h2>
 * At most {@link #SLOTS} communicators (of all kinds, counting intercommunicators) alive at one process; beyond that
 * creation fails with {@code MPI_ERR_INTERN} at every member, because all see the same empty result.
 *
 * <p>Threading: the bitmap, the owner and the waiting set are guarded by this object's monitor. A thread reads and
 * writes the bitmap only while it owns it (claims) or under the monitor (releases, which only set bits).
 */
public final class ContextIds {
    /** Number of slots (communicators alive at once per process). */
    public static final int SLOTS = 4096;

    /** Contexts per slot. */
    public static final int CONTEXTS_PER_SLOT = 4;

    private static final int WORDS = SLOTS / 64;
    private static final int NONE = Integer.MIN_VALUE;

    private static volatile ContextIds instance;

    private final JmpiRuntime runtime;
    private final long[] free = new long[WORDS];
    private int owner = NONE;
    /** Keys (parent context ids) of the creations in progress, with how many per key. */
    private final TreeMap<Integer, Integer> waiting = new TreeMap<>();
    private int inUse;

    private ContextIds(JmpiRuntime runtime) {
        this.runtime = runtime;
        java.util.Arrays.fill(free, -1L);
    }

    /** The allocator of this rank's runtime. */
    public static ContextIds get() {
        JmpiRuntime rt = JmpiRuntime.get();
        ContextIds c = instance;
        if (c == null || c.runtime != rt) {
            synchronized (ContextIds.class) {
                c = instance;
                if (c == null || c.runtime != rt) {
                    c = new ContextIds(rt);
                    instance = c;
                }
            }
        }
        return c;
    }

    /** Context id of slot {@code slot}. */
    static int contextOf(int slot) {
        return JmpiRuntime.FIRST_FREE_CONTEXT + CONTEXTS_PER_SLOT * slot;
    }

    /**
     * A context pair, not otherwise used, on which the members of a subset of {@code parent} can run collectives
     * among themselves (createGroup): the third and fourth context of the parent's slot, or fixed spare ids for the
     * predefined communicators.
     */
    public static int spareContext(Communicator parent) {
        int c = parent.context();
        if (c == JmpiRuntime.WORLD_CONTEXT) {
            return 8;
        }
        if (c == JmpiRuntime.SELF_CONTEXT) {
            return 10;
        }
        return c + 2;
    }

    /** Allocates a context agreed by the members of the intracommunicator {@code parent}; collective over it. */
    public int allocate(Communicator parent) {
        return allocate(parent.context(), m -> GroupCollectives.allreduceBand(parent, m));
    }

    /**
     * Allocates a context agreed by a set of processes: {@code andReduce} takes this process's array and returns the
     * bitwise AND of the arrays of every process of the set (the same result at all of them); it is a collective over
     * the set, called once per attempt (see {@link Intercomms} for a set of two groups).
     *
     * @param key orders concurrent creations of this process (the parent's context id)
     */
    public int allocate(int key, UnaryOperator<long[]> andReduce) {
        enter(key);
        try {
            long[] mine = new long[WORDS + 1];
            while (true) {
                boolean own = prepare(key, mine);
                long[] res;
                try {
                    res = andReduce.apply(mine);
                } catch (RuntimeException | Error e) {
                    settle(null, own);
                    throw e;
                }
                int context = settle(res, own);
                if (context >= 0) {
                    return context;
                }
                Thread.onSpinWait();
            }
        } finally {
            leave(key);
        }
    }

    /** Length of the arrays an attempt reduces. */
    static int arrayLength() {
        return WORDS + 1;
    }

    /** Registers a creation in progress (before its first attempt). */
    synchronized void enter(int key) {
        waiting.merge(key, 1, Integer::sum);
    }

    /** Ends a creation (after its last attempt, whatever the outcome). */
    synchronized void leave(int key) {
        waiting.merge(key, -1, (a, b) -> a + b == 0 ? null : a + b);
    }

    /**
     * Fills this process's contribution to one attempt: the bitmap and the owner flag when this creation may own the
     * bitmap now, zeros otherwise.
     *
     * @return whether this creation owns the bitmap until {@link #settle}
     */
    synchronized boolean prepare(int key, long[] mine) {
        boolean own = owner == NONE && waiting.firstKey() == key;
        if (own) {
            owner = key;
            mine[0] = 1;
            System.arraycopy(free, 0, mine, 1, WORDS);
        } else {
            java.util.Arrays.fill(mine, 0L);
        }
        return own;
    }

    /**
     * Ends an attempt with its reduced array ({@code null} when it failed): claims the slot when every process owned
     * its bitmap, and gives ownership up.
     *
     * @return the new context, or -1 to try again
     * @throws MpiError ERR_INTERN when every process contributed and no slot is free at all of them
     */
    synchronized int settle(long[] res, boolean own) {
        if (own) {
            owner = NONE;
        }
        if (res == null || res[0] == 0) {
            return -1;
        }
        int slot = lowestSet(res);
        if (slot < 0) {
            throw new MpiError(ErrorClass.ERR_INTERN, "no free context id: " + SLOTS
                    + " communicators are alive at some process; free some");
        }
        // every process owned its bitmap, this one too, so the bit is still set here
        free[slot >>> 6] &= ~(1L << (slot & 63));
        inUse++;
        return contextOf(slot);
    }

    /** Gives back the context of a freed communicator. */
    public synchronized void release(int context) {
        int slot = (context - JmpiRuntime.FIRST_FREE_CONTEXT) / CONTEXTS_PER_SLOT;
        if (context < JmpiRuntime.FIRST_FREE_CONTEXT || slot >= SLOTS
                || (context - JmpiRuntime.FIRST_FREE_CONTEXT) % CONTEXTS_PER_SLOT != 0) {
            return; // a predefined or borrowed context
        }
        long bit = 1L << (slot & 63);
        // a revoked or failed communicator's contexts are poisoned; the next communicator of the slot starts clean
        for (int k = 0; k < CONTEXTS_PER_SLOT; k++) {
            runtime.engine().unpoison(context + k);
        }
        if ((free[slot >>> 6] & bit) == 0) {
            free[slot >>> 6] |= bit;
            inUse--;
        }
    }

    /** Number of contexts this process holds (for leak tests). */
    public synchronized int inUse() {
        return inUse;
    }

    private static int lowestSet(long[] res) {
        for (int w = 1; w < res.length; w++) {
            if (res[w] != 0) {
                return (w - 1) * 64 + Long.numberOfTrailingZeros(res[w]);
            }
        }
        return -1;
    }
}
