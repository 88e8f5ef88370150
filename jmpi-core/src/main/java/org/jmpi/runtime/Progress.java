package org.jmpi.runtime;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.jmpi.shared.ThreadsJob;
import org.jmpi.transport.Transport;

/**
 * The progress engine of one rank: makes waiting threads drive the transports, and decides how they wait. There
 * is no progress thread: progress happens in the threads that call MPI.
 *
 * <p>Waiting goes in three phases: spin (polling the transports, {@link Thread#onSpinWait()}), then yield, then block.
 * Blocking means: the thread that owns the progress lock sleeps in the transport's {@code await} (a select), every
 * other thread parks with a short timeout. Completing a request unparks its waiter and, when a thread may be asleep
 * in {@code await}, wakes the transport.
 *
 * <p>The spin is short (a few microseconds: a small message's reply comes within it) and the yield phase long
 * (about a tenth of a second when nothing else wants the processor). A yield costs a waiting rank about a
 * microsecond when no other thread is runnable, and hands the core over when one is. In a program's first seconds,
 * with one rank per core, those are the JIT's compiler threads: a rank that spins instead keeps them off the core
 * its partner does not need now, and they preempt the partner instead, which then stalls both ranks for a
 * scheduler's time slice. Blocking early is no better: on a virtual machine whose idle processor halts, a wake-up
 * costs 100-300 us, and two ranks exchanging small messages settle into paying one per exchange.
 *
 * <p>Threading: {@code transports} is written once before the runtime is published. The progress lock makes
 * {@code poll}/{@code await} single-threaded as the transport SPI requires. {@code selecting} is a volatile hint.
 */
public final class Progress {
    private final int spinIterations;
    private final int yieldIterations;
    /**
     * Held by the thread that polls the transport or sleeps in it; only ever tried, never waited for, so its release
     * can be a plain store (a poll per spin of every waiting thread took and released it).
     */
    private final org.jmpi.shared.LightLock progressLock = new org.jmpi.shared.LightLock();
    /** See {@link #awaited()}; written by the thread that holds {@link #progressLock}, read in its pass. */
    private RequestImpl awaited;
    private volatile Transport transport;
    private volatile boolean selecting;
    private final ThreadsJob job;
    /** Background threads (see {@link #serveInBackground}) running now; while there are none, waits are not counted. */
    private volatile int backgroundThreads;
    /** Whether waits are timed (the periodic JFR counters are on); then the two adders count, from any thread. */
    private final boolean timeWaits;
    private final java.util.concurrent.atomic.LongAdder waitedNanos;
    private final java.util.concurrent.atomic.LongAdder waitCount;
    /** Threads of this rank inside {@link #awaitUntil} while a background thread runs; see {@link #serveInBackground}. */
    private final java.util.concurrent.atomic.AtomicInteger waiters = new java.util.concurrent.atomic.AtomicInteger();
    private final BooleanSupplier waitersPresent = () -> waiters.get() > 0;
    /** Counts entries into {@link #awaitUntil} while a background thread runs (racy increments: only change matters). */
    private volatile int waitEntries;
    /** {@link #waitEntries} when the background thread last looked (read and written by that thread only). */
    private int entriesSeen;
    /** Consecutive looks of the background thread that found no wait (that thread only). */
    private int idleLooks;

    /**
     * @param spinIterations polls a waiting thread spins first
     * @param yieldIterations polls, each after a yield of the processor, before it blocks; see {@link #awaitUntil}
     */
    public Progress(ThreadsJob job, int spinIterations, int yieldIterations) {
        this(job, spinIterations, yieldIterations, false);
    }

    /**
     * @param timeWaits whether to add up the time threads spend in {@link #awaitUntil} ({@link #waitedNanos()}):
     *     two clock reads per wait, only when the periodic JFR counters are on
     */
    public Progress(ThreadsJob job, int spinIterations, int yieldIterations, boolean timeWaits) {
        this.job = job;
        this.timeWaits = timeWaits;
        this.waitedNanos = timeWaits ? new java.util.concurrent.atomic.LongAdder() : null;
        this.waitCount = timeWaits ? new java.util.concurrent.atomic.LongAdder() : null;
        this.spinIterations = spinIterations;
        this.yieldIterations = yieldIterations;
    }

    /** Whether a waiting thread spins before it yields (not when more ranks than processors share this host). */
    public boolean spins() {
        return spinIterations > 0;
    }

    public void setTransport(Transport t) {
        this.transport = t;
    }

    public Transport transport() {
        return transport;
    }

    /** One non-blocking progress pass; returns whether anything happened. */
    public boolean poll() {
        return poll(null); // one method for both, compiled once
    }

    /**
     * {@link #poll()} for a thread that waits for {@code request} (or none, null): while it reads the transport,
     * {@link #awaited()} names that request, so that the pass goes on past other completions and returns at this one.
     */
    private boolean poll(RequestImpl request) {
        if (transport == null || !progressLock.tryLock()) {
            return false;
        }
        try {
            awaited = request;
            return pollOwned();
        } finally {
            awaited = null;
            progressLock.unlock();
        }
    }

    /**
     * The request that the thread in the current progress pass waits for, null when it waits for none in particular
     * (a condition, a test): a pass returns as soon as it completes that one (or, for none, any receive), so that its
     * waiter sees it at once, and reads on past others. Progress owner only.
     */
    public RequestImpl awaited() {
        return awaited;
    }

    /**
     * Takes the right to read the transport, as a progress pass does, for a caller that reads it directly (the
     * point-to-point lane); false when another thread has it. Release with {@link #disown()}.
     */
    public boolean tryOwn() {
        return progressLock.tryLock();
    }

    public void disown() {
        progressLock.unlock();
    }

    /** A progress pass ({@link #poll()}) by a thread that owns the transport ({@link #tryOwn()}). */
    public boolean pollOwned() {
        Transport t = transport;
        return t != null && t.poll();
    }

    /** A background thread that will call {@link #serveInBackground} starts (counted until {@link #backgroundStopped}). */
    public synchronized void backgroundStarted() {
        backgroundThreads++;
    }

    public synchronized void backgroundStopped() {
        backgroundThreads--;
    }

    /**
     * One pass for a background progress thread (RMA's passive-target server): while a thread of this rank waits in
     * MPI it drives progress itself, spinning, and the background thread stays out of its way (parks, not holding the
     * progress lock); otherwise polls, and when nothing was ready blocks in the transport for up to {@code maxNanos}
     * without spinning, until a frame arrives or a thread of this rank starts waiting.
     *
     * <p>Why: a background thread that blocks in the transport holds the progress lock, so a waiting thread cannot
     * poll, and every message it waits for (a flush's acknowledgement, a barrier's) had to wake the background thread
     * first: a wake-up of 100-300 us on this VM per message, where spinning costs a microsecond.
     */
    public void serveInBackground(long maxNanos) {
        int entries = waitEntries;
        boolean idle = waiters.get() == 0 && entries == entriesSeen;
        idleLooks = idle ? idleLooks + 1 : 0;
        entriesSeen = entries;
        if (idleLooks < IDLE_LOOKS) {
            // a thread of this rank waits in MPI, or did since the last look: the rank is in an MPI phase and drives
            // progress itself. The background thread serves only once a whole park has passed without a wait: while
            // it polls it contends for the progress lock with the rank's own threads, and while it sleeps in the
            // transport it holds that lock, so a thread that starts waiting must wake it and wait for it to get a CPU
            // (which two spinning ranks on two cores do not leave it) before it can poll. The park is long because
            // every wake-up of this thread took a core from a spinning rank: with a 1 ms park, a loop of put + flush
            // had calls of 1.1 ms (the park's length) several times per 2,500 calls; with 10 ms, far fewer
            LockSupport.parkNanos(this, Math.min(maxNanos, BACKGROUND_YIELD_NANOS));
            return;
        }
        if (!poll()) {
            blockInTransport(waitersPresent, null, maxNanos, maxNanos);
        }
    }

    /** Consecutive looks without a wait after which the background thread serves (one: a whole park). */
    private static final int IDLE_LOOKS = 1;

    /**
     * How long a background thread parks while threads of its rank wait in MPI, before it looks again; so also how
     * long a rank that stops calling MPI (to compute) leaves passive-target requests waiting, at most about twice this.
     */
    private static final long BACKGROUND_YIELD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** Whether this rank talks to other processes (false in threads mode and for a singleton). */
    public boolean hasTransport() {
        return transport != null;
    }

    /** Wakes the thread blocked in the transport, if any (a background thread that should look at its state). */
    public void wakeTransport() {
        Transport t = transport;
        if (t != null) {
            t.wakeup();
        }
    }

    /** Wakes a thread waiting for a request that just completed. */
    void wake(Thread waiter) {
        if (waiter != Thread.currentThread()) { // a thread completing its own request is awake: skip the syscall path
            LockSupport.unpark(waiter);
        }
        if (selecting) {
            Transport t = transport;
            if (t != null) {
                t.wakeup();
            }
        }
    }

    /**
     * Waits until {@code r} is complete. The thread registers as the request's waiter only when it is about to block:
     * while it spins, whoever completes the request sees no waiter and spares itself the unpark (a mutex and possibly
     * a system call on the completing thread's critical path, in threads mode the sender's).
     */
    public void await(RequestImpl r) {
        if (r.isDone()) {
            return;
        }
        awaitUntil(null, r, null);
    }

    /** Waits until any of the requests is complete (nulls are skipped). */
    public void awaitAny(RequestImpl[] rs) {
        Thread me = Thread.currentThread();
        for (RequestImpl r : rs) {
            if (r != null && r.isDone()) {
                return;
            }
        }
        Runnable register = () -> {
            for (RequestImpl r : rs) {
                if (r != null) {
                    r.setWaiter(me);
                }
            }
        };
        awaitUntil(() -> {
            for (RequestImpl r : rs) {
                if (r != null && r.isDone()) {
                    return true;
                }
            }
            return false;
        }, null, register);
    }

    /**
     * Waits until {@code condition} holds; the caller registered itself as waiter where completions happen. The loop
     * may test the condition again after it held (a spin ends, a sleep is skipped): a condition with an effect (one
     * that takes a message) must keep answering true once it has.
     */
    public void awaitUntil(BooleanSupplier condition) {
        awaitUntil(condition, null, null);
    }

    /**
     * The waiting loop. {@code register} (may be null) runs once, before the first block: it makes this thread the
     * waiter of the requests {@code condition} watches (a volatile write), and the condition is checked again after
     * it, so a completion that saw no waiter is not missed (the completer writes done, then reads the waiter).
     * With a {@code request} (and no condition or registration: waiting for one request, the common case, allocates
     * nothing) the condition is its completion and the registration makes this thread its waiter.
     */
    private void awaitUntil(BooleanSupplier condition, RequestImpl request, Runnable register) {
        if (backgroundThreads == 0) {
            awaitLoop(condition, request, register);
            return;
        }
        // a background thread serves this rank: tell it to step aside (and wake it when it sleeps in the transport,
        // holding the progress lock) while this thread drives progress; see serveInBackground
        waiters.incrementAndGet();
        waitEntries++;
        if (selecting) {
            wakeTransport();
        }
        try {
            awaitLoop(condition, request, register);
        } finally {
            waiters.decrementAndGet();
        }
    }

    private void awaitLoop(BooleanSupplier condition, RequestImpl request, Runnable register) {
        if (timeWaits) {
            long start = System.nanoTime();
            try {
                awaitLoopUntimed(condition, request, register);
            } finally {
                waitedNanos.add(System.nanoTime() - start);
                waitCount.increment();
            }
            return;
        }
        awaitLoopUntimed(condition, request, register);
    }

    /** Time spent in waits since MPI_Init, in nanoseconds (0 unless constructed with {@code timeWaits}). */
    public long waitedNanos() {
        return timeWaits ? waitedNanos.sum() : 0;
    }

    /** Waits since MPI_Init (0 unless constructed with {@code timeWaits}). */
    public long waits() {
        return timeWaits ? waitCount.sum() : 0;
    }

    private void awaitLoopUntimed(BooleanSupplier condition, RequestImpl request, Runnable register) {
        int idle = 0;
        long parkNanos = 1_000;
        boolean toRegister = request != null || register != null;
        while (!holds(condition, request)) {
            if (job != null) {
                job.checkAborted();
            }
            if (poll(request)) {
                idle = 0;
                parkNanos = 1_000;
                continue;
            }
            if (idle < spinIterations) {
                idle += spinQuietly(condition, request);
            } else if (idle < spinIterations + yieldIterations) {
                idle++;
                Thread.yield();
            } else if (toRegister) {
                if (request != null) {
                    request.setWaiter(Thread.currentThread());
                } else {
                    register.run();
                }
                toRegister = false; // and check the condition once more before blocking
            } else {
                block(condition, request, parkNanos);
                parkNanos = Math.min(parkNanos * 2, TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
    }

    /** Spins {@link #spinQuietly} takes at most before the waiting loop looks at its phases again. */
    static final int QUIET_SPINS = 64;

    /**
     * Spins while the wait's condition does not hold and the transport has nothing for a poll (a look at memory),
     * up to {@link #QUIET_SPINS} times; the spins done (at least 1). The waiting loop's spinning happens here, in a
     * loop of a few bytecodes, so that the code the JIT compiles on the spot while a rank waits (on-stack
     * replacement) is this loop, not the whole progress pass. Without a transport, one spin.
     */
    private int spinQuietly(BooleanSupplier condition, RequestImpl request) {
        Transport t = transport;
        boolean quiet = t != null;
        int spins = 0;
        do {
            Thread.onSpinWait();
            spins++;
        } while (quiet && spins < QUIET_SPINS && !t.mayHaveWork() && !holds(condition, request));
        return spins;
    }

    private static boolean holds(BooleanSupplier condition, RequestImpl request) {
        return request != null ? request.isDone() : condition.getAsBoolean();
    }

    private void block(BooleanSupplier condition, RequestImpl request, long parkNanos) {
        blockInTransport(condition, request, TimeUnit.MILLISECONDS.toNanos(50), parkNanos);
    }

    /**
     * Sleeps in the transport for up to {@code awaitNanos} unless the condition (or {@code request}) already holds, when
     * this thread can own it; else parks for {@code parkNanos}.
     */
    private void blockInTransport(BooleanSupplier condition, RequestImpl request, long awaitNanos, long parkNanos) {
        Transport t = transport;
        if (t != null && progressLock.tryLock()) {
            try {
                selecting = true;
                if (!holds(condition, request)) {
                    t.await(awaitNanos);
                }
                t.poll();
            } finally {
                selecting = false;
                progressLock.unlock();
            }
        } else {
            LockSupport.parkNanos(this, parkNanos);
        }
    }
}
