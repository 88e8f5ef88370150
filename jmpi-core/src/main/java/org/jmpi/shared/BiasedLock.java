package org.jmpi.shared;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A reentrant lock that one thread takes without any atomic instruction once it has been the only one to take it
 * for a while: the lock is then <em>biased</em> to that thread. The first time another thread wants it, the bias is
 * revoked for good and the lock is an ordinary {@link ReentrantLock} from then on.
 *
 * <p>Why: on the path of every message a locked instruction (a compare-and-set, or the full fence of a volatile
 * store) waits until this core's earlier stores have reached the other cores. Right after the store of a
 * shared-memory record, a cache line the receiving rank is polling, that wait is a round trip between the cores
 * per message; a program that sends from one thread, which is most of them, takes the ring's and the peer's flow lock
 * for every message and paid it twice (its small-message rate was 0.5-0.8 of MPICH's before 2026-11-25). MPICH's
 * path, built for one thread per process, has none.
 *
 * <p>How: the owner marks itself inside ({@code holds}, a plain store), then reads {@code revoked}; a revoker, holding
 * the underlying lock, sets {@code revoked}, runs {@link Membarrier#privateBarrier()}, which makes every running
 * thread of the process execute a full barrier, and then waits until the owner is not inside. The barrier gives the
 * owner's store-then-load the order its own fence would: either the revoker sees the owner inside and waits, or the
 * owner sees the revocation and takes the underlying lock. A lock is biased only once {@link Membarrier} is
 * registered, to a thread that took it {@link #GRANT_AFTER} times in a row, and never again after a revocation.
 *
 * <p>Use it for locks held briefly and never across a blocking wait: a revoker waits for the owner to leave.
 * Reentrant, as {@code synchronized} is: a thread that holds it may take it again.
 */
public final class BiasedLock {
    /** Consecutive acquisitions by one thread after which the lock is biased to it. */
    static final int GRANT_AFTER = 64;

    private static final VarHandle HOLDS;

    static {
        try {
            HOLDS = MethodHandles.lookup().findVarHandle(BiasedLock.class, "holds", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    /** The thread the lock is biased to, or null. Set and cleared only while {@link #lock} is held. */
    private volatile Thread owner;
    /** Set once by the first revocation; the lock is never biased again. */
    private volatile boolean revoked;
    /** How often the owner holds the lock through its bias (written by the owner only; read by a revoker). */
    @SuppressWarnings("unused") // through HOLDS as well
    private int holds;
    /** The thread that took {@link #lock} last and how often in a row (while {@link #lock} is held). */
    private Thread last;
    private int run;
    /** Takes the lock, waiting as long as it takes. */
    public void lock() {
        if (owner == Thread.currentThread() && enterBiased()) {
            return;
        }
        lock.lock();
        afterLocked();
    }

    /** Takes the lock if no other thread holds it now (revoking a bias to another thread, which waits for it). */
    public boolean tryLock() {
        if (owner == Thread.currentThread() && enterBiased()) {
            return true;
        }
        if (!lock.tryLock()) {
            return false;
        }
        afterLocked();
        return true;
    }

    /** Gives the lock back (once per {@link #lock()} or successful {@link #tryLock()}). */
    public void unlock() {
        if (owner == Thread.currentThread()) {
            int h = holds;
            if (h > 0) {
                HOLDS.setRelease(this, h - 1); // everything written under the lock comes before it
                return;
            }
        }
        lock.unlock();
    }

    /** Whether some thread holds the lock now (a snapshot, for tests and assertions). */
    public boolean isLocked() {
        return lock.isLocked() || (int) HOLDS.getVolatile(this) > 0;
    }

    /** Whether {@code t} waits for the lock (tests; a thread revoking a bias does not count). */
    public boolean hasQueuedThread(Thread t) {
        return lock.hasQueuedThread(t);
    }

    /** Whether the lock is biased to a thread now (tests). */
    public boolean isBiased() {
        return owner != null;
    }

    /** The owner's path: no atomic instruction. False if the bias was revoked (then take {@link #lock}). */
    private boolean enterBiased() {
        int h = holds;
        if (h > 0) {
            holds = h + 1; // held already: no revoker can be past its wait
            return true;
        }
        HOLDS.setOpaque(this, 1);
        // No instruction on x86: a fence node keeps the compiler from moving the load of revoked above the store
        // (the processor's order is the revoker's barrier's work).
        VarHandle.acquireFence();
        if (!revoked) {
            return true;
        }
        HOLDS.setRelease(this, 0);
        return false;
    }

    /** With {@link #lock} held: revokes another thread's bias, or biases the lock to this thread. */
    private void afterLocked() {
        Thread me = Thread.currentThread();
        Thread o = owner;
        if (o != null) {
            if (o != me) {
                revoke();
            }
            return;
        }
        // Nothing is written here unless a bias may follow: where it never can (no barrier, e.g. threads mode, whose
        // ranks' threads take each other's locks on every message) or no more (revoked), a write per acquisition
        // would move this object's cache line between the threads as well (8 B threads-mode latency 0.8 -> 1.1 us).
        if (revoked || !Membarrier.privateReady()) {
            return;
        }
        if (last != me) {
            last = me;
            run = 1;
        } else if (++run >= GRANT_AFTER) {
            owner = me;
        }
    }

    /** With {@link #lock} held: ends the bias for good, after the owner has left the lock. */
    private void revoke() {
        revoked = true;
        if (!Membarrier.privateBarrier()) {
            // Refused once registered (not seen): a store that the owner made before it read revoked leaves its
            // core's store buffer within nanoseconds, so a generous grace period stands in for the barrier.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        for (int spins = 0; (int) HOLDS.getAcquire(this) != 0; spins++) {
            if (spins < 1_000) {
                Thread.onSpinWait();
            } else {
                Thread.yield(); // the owner may have been descheduled inside
            }
        }
        owner = null;
    }
}
