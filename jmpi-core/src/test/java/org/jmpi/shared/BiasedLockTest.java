package org.jmpi.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class BiasedLockTest {
    /** Plain counters: only mutual exclusion gets every increment counted. */
    private long counter;
    private long other;

    @BeforeAll
    static void registered() {
        assumeTrue(Membarrier.registerPrivate(Syscall.handle()), "membarrier(PRIVATE_EXPEDITED) is available");
    }

    /** Takes the lock {@code times} times in this thread, reentrantly once each. */
    private void takeAlone(BiasedLock lock, int times) {
        for (int i = 0; i < times; i++) {
            lock.lock();
            try {
                lock.lock();
                try {
                    counter++;
                } finally {
                    lock.unlock();
                }
            } finally {
                lock.unlock();
            }
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aLoneThreadGetsTheBiasAndASecondThreadRevokesItWithoutLosingAWrite() throws Exception {
        BiasedLock lock = new BiasedLock();
        takeAlone(lock, BiasedLock.GRANT_AFTER + 1);
        assertThat(lock.isBiased()).as("biased to the only thread that took it").isTrue();
        assertThat(lock.isLocked()).isFalse();
        int rounds = 300_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        // the biased owner keeps taking it while two other threads (one with tryLock, as the progress owner's flush)
        // come in: the first of them revokes the bias while the owner may be inside
        List<Thread> others = LockContention.start(2, rounds, lock::tryLock, lock::lock, lock::unlock, () -> {
            counter++;
            other++;
        }, go, errors);
        go.countDown();
        takeAlone(lock, rounds);
        for (Thread t : others) {
            t.join();
        }
        assertThat(errors).isEmpty();
        assertThat(counter).isEqualTo(BiasedLock.GRANT_AFTER + 1 + 3L * rounds);
        assertThat(other).isEqualTo(2L * rounds);
        assertThat(lock.isBiased()).as("revoked for good").isFalse();
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aRevokerWaitsUntilTheOwnerLeaves() throws Exception {
        BiasedLock lock = new BiasedLock();
        takeAlone(lock, BiasedLock.GRANT_AFTER + 1);
        assertThat(lock.isBiased()).isTrue();
        lock.lock(); // through the bias
        AtomicBoolean inside = new AtomicBoolean(true);
        AtomicBoolean overlapped = new AtomicBoolean();
        CountDownLatch acquired = new CountDownLatch(1);
        Thread revoker = Thread.ofPlatform().start(() -> {
            lock.lock();
            overlapped.set(inside.get());
            acquired.countDown();
            lock.unlock();
        });
        assertThat(acquired.await(50, TimeUnit.MILLISECONDS)).as("the revoker waits for the owner").isFalse();
        inside.set(false);
        lock.unlock();
        assertThat(acquired.await(20, TimeUnit.SECONDS)).as("then it gets the lock").isTrue();
        revoker.join();
        assertThat(overlapped.get()).isFalse();
        assertThat(lock.isBiased()).isFalse();
        // the former owner now takes the ordinary lock, reentrantly
        takeAlone(lock, 10);
        assertThat(lock.isBiased()).as("never biased again").isFalse();
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aLockNeverBiasedBehavesAsAReentrantLock() throws Exception {
        BiasedLock lock = new BiasedLock();
        lock.lock();
        assertThat(lock.isLocked()).isTrue();
        AtomicBoolean got = new AtomicBoolean(true);
        Thread t = Thread.ofPlatform().start(() -> got.set(lock.tryLock()));
        t.join();
        assertThat(got.get()).as("tryLock fails while another thread holds it").isFalse();
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
        assertThat(lock.isBiased()).isFalse();
    }
}
