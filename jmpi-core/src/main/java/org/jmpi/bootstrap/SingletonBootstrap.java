package org.jmpi.bootstrap;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bootstrap of a process that no launcher started: rank 0 of a job of one, with a key-value space in memory.
 * Puts become visible at the next {@link #fence()}, as under a real process manager, so code that forgets the fence
 * fails here too.
 *
 * <p>{@link #abort} has no process manager to tell: it records the code and returns; the caller ends the process.
 *
 * <p>Threading: the two maps and the flags are guarded by {@code lock}; any thread may call any method.
 */
public final class SingletonBootstrap implements Bootstrap {
    private static final AtomicInteger COUNTER = new AtomicInteger();

    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, String> pending = new HashMap<>();
    private final Map<String, String> visible = new HashMap<>();
    private final String jobId = "s" + ProcessHandle.current().pid() + "-" + COUNTER.incrementAndGet();
    private Integer abortCode;
    private boolean finalized;

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public int size() {
        return 1;
    }

    @Override
    public String jobId() {
        return jobId;
    }

    @Override
    public void put(String key, String value) {
        if (key == null || value == null) {
            throw new IllegalArgumentException("key and value must not be null");
        }
        lock.lock();
        try {
            pending.put(key, value);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void fence() {
        lock.lock();
        try {
            visible.putAll(pending);
            pending.clear();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String get(String key) {
        lock.lock();
        try {
            return visible.get(key);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void abort(int exitCode, String message) {
        lock.lock();
        try {
            if (abortCode == null) {
                abortCode = exitCode;
            }
        } finally {
            lock.unlock();
        }
    }

    /** The code of the first {@link #abort}, or null when none happened. */
    public Integer abortCode() {
        lock.lock();
        try {
            return abortCode;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void finalizeJob() {
        lock.lock();
        try {
            finalized = true;
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@link #finalizeJob()} was called. */
    public boolean finalized() {
        lock.lock();
        try {
            return finalized;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        // nothing to release
    }
}
