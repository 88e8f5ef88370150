package org.jmpi.shared;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class LightLockTest {
    /** A plain counter is not thread-safe: only mutual exclusion gets every increment counted. */
    private long counter;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void threadsTakeTurnsAndEveryWriteUnderTheLockIsSeenByTheNextHolder() throws Exception {
        LightLock lock = new LightLock();
        int threads = 4;
        int rounds = 200_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> all = LockContention.start(threads, rounds, lock::tryLock, lock::lock, lock::unlock,
                () -> counter++, go, errors);
        go.countDown();
        for (Thread t : all) {
            t.join();
        }
        assertThat(errors).isEmpty();
        assertThat(counter).isEqualTo((long) threads * rounds);
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void tryLockFailsWhileHeldAndAWaiterGetsTheLockOnceReleased() throws Exception {
        LightLock lock = new LightLock();
        lock.lock();
        assertThat(lock.isLocked()).isTrue();
        assertThat(lock.tryLock()).isFalse();
        CountDownLatch waiting = new CountDownLatch(1);
        CountDownLatch acquired = new CountDownLatch(1);
        Thread waiter = Thread.ofPlatform().start(() -> {
            waiting.countDown();
            lock.lock(); // spins, yields, then parks in growing steps: no one unparks it
            acquired.countDown();
            lock.unlock();
        });
        waiting.await();
        assertThat(acquired.await(50, TimeUnit.MILLISECONDS)).as("the waiter waits while the lock is held").isFalse();
        lock.unlock();
        assertThat(acquired.await(20, TimeUnit.SECONDS)).as("the waiter takes the released lock").isTrue();
        waiter.join();
        assertThat(lock.tryLock()).isTrue();
        lock.unlock();
    }
}
