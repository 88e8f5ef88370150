package org.jmpi.shared;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;

/**
 * Threads that take a lock in turns and run a body under it, for the lock tests: the even ones with {@code tryLock}
 * in a loop (as the progress owner's flush does), the odd ones with {@code lock}. Failures are collected.
 */
final class LockContention {
    private LockContention() {}

    /** Starts {@code threads} threads, each taking the lock {@code rounds} times once {@code go} opens. */
    static List<Thread> start(int threads, int rounds, BooleanSupplier tryLock, Runnable lock, Runnable unlock,
            Runnable body, CountDownLatch go, List<Throwable> errors) {
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            boolean trying = t % 2 == 0;
            all.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                    for (int i = 0; i < rounds; i++) {
                        if (trying) {
                            while (!tryLock.getAsBoolean()) {
                                Thread.onSpinWait();
                            }
                        } else {
                            lock.run();
                        }
                        try {
                            body.run();
                        } finally {
                            unlock.run();
                        }
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            }));
        }
        return all;
    }
}
