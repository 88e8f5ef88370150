package org.jmpi.shared;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The rounds of a two-thread litmus test: the main thread starts each round, the partner thread waits for it; each
 * then spins a random short while before its half, so that the two halves overlap in every way, and the main thread
 * waits for the partner's half to end before it judges the round.
 */
public final class LitmusRounds {
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger finished = new AtomicInteger();

    /** The partner: waits until round {@code round} has started, then spins a random short while. */
    public void partnerBegins(int round, SplittableRandom random) {
        while (started.get() <= round) {
            Thread.onSpinWait();
        }
        jitter(random);
    }

    /** The partner: its half of the round is done. */
    public void partnerEnds() {
        finished.incrementAndGet();
    }

    /** The main thread: starts the next round and spins a random short while. */
    public void begin(SplittableRandom random) {
        started.incrementAndGet();
        jitter(random);
    }

    /** The main thread: waits until the partner's half of round {@code round} is done. */
    public void awaitPartner(int round) {
        while (finished.get() <= round) {
            Thread.onSpinWait();
        }
    }

    private static void jitter(SplittableRandom random) {
        for (int spin = random.nextInt(16); spin > 0; spin--) {
            Thread.onSpinWait();
        }
    }
}
