package org.jmpi.shared;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A lock taken with a compare-and-set and given back with a release store. Unlike
 * {@link java.util.concurrent.locks.ReentrantLock}, whose release is a volatile store (a locked instruction on x86),
 * giving it back does not wait for this core's earlier stores to reach the other cores, and C1 (which compiles jmpi's
 * runtime) compiles both inline, where a {@code ReentrantLock}'s are calls into JDK methods that the JIT then compiles
 * on their own. Used for the progress engine's lock, which every poll tries and nobody waits for, and for the
 * shared-memory rings' locks, taken on every message and held only while a frame is written.
 *
 * <p>The price is that a release cannot wake a thread that waits: a thread that finds the lock taken in
 * {@link #lock()} spins, then yields, then parks for short, growing intervals and tries again. So it suits locks that
 * are held briefly, never while calling out or blocking, and that are rarely contended, or taken only with
 * {@link #tryLock()}. Not reentrant.
 */
public final class LightLock {
    /** Spins before a waiter yields, and yields before it parks. */
    private static final int SPINS = 128;
    private static final int YIELDS = 64;
    /** A waiter's parks start at this and double up to {@link #PARK_MAX_NANOS}. */
    private static final long PARK_MIN_NANOS = 1_000;
    private static final long PARK_MAX_NANOS = 200_000;

    /**
     * 0 free, 1 held. An atomic object rather than a var handle on a field: its methods are plain calls down to
     * {@code Unsafe}, cheap before the JIT compiles them, where a var handle's invocation goes through method-handle
     * linkage (the lock is taken on every lane receive, from a program's first message).
     */
    private final AtomicInteger state = new AtomicInteger();

    /** Takes the lock if it is free; never waits. */
    public boolean tryLock() {
        return state.getOpaque() == 0 && state.compareAndSet(0, 1);
    }

    /** Takes the lock, waiting as long as it takes. */
    public void lock() {
        if (!state.compareAndSet(0, 1)) {
            lockContended();
        }
    }

    private void lockContended() {
        long park = PARK_MIN_NANOS;
        for (int i = 0; ; i++) {
            if (tryLock()) {
                return;
            }
            if (i < SPINS) {
                Thread.onSpinWait();
            } else if (i < SPINS + YIELDS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(this, park); // no one unparks: the holder's release is a plain store
                park = Math.min(park * 2, PARK_MAX_NANOS);
            }
        }
    }

    /**
     * Gives the lock back: a release store, so that everything written under the lock is seen by the next holder
     * (whose compare-and-set has acquire semantics). Only the holder may call it.
     */
    public void unlock() {
        state.setRelease(0);
    }

    /** Whether the lock is held by some thread now (a snapshot, for tests and assertions). */
    public boolean isLocked() {
        return state.get() != 0;
    }
}
