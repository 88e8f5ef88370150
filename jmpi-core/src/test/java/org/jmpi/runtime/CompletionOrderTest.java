package org.jmpi.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.jmpi.shared.LitmusRounds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Completion against registration as a store-buffering litmus test, with the very methods the engine uses: one
 * thread completes the request ({@link RequestImpl#complete()}) while another registers a callback
 * ({@link RequestImpl#whenDone}), which then looks at {@code done}. The outcome "the completer sees no callback and the registering thread sees the request not done"
 * is a lost completion: a callback that never runs (a waiter registers the same way, {@code registered()}). Both
 * threads start each round together, each after a random short spin, so that their halves overlap in every way.
 */
class CompletionOrderTest {

    /** A request one thread completes and another watches. */
    private static final class Owned extends RequestImpl {
        Owned() {
            super(null);
        }

        void finish() {
            complete();
        }

        void again() {
            recycle();
        }
    }

    private static int lostCallbacks(int rounds) throws InterruptedException {
        Owned request = new Owned();
        LitmusRounds litmus = new LitmusRounds();
        int[] ran = new int[rounds];
        Thread owner = Thread.ofPlatform().start(() -> {
            SplittableRandom random = new SplittableRandom(7);
            for (int r = 0; r < rounds; r++) {
                litmus.partnerBegins(r, random);
                request.finish();
                litmus.partnerEnds();
            }
        });
        SplittableRandom random = new SplittableRandom(11);
        int lost = 0;
        for (int r = 0; r < rounds; r++) {
            int round = r;
            litmus.begin(random);
            request.whenDone(() -> ran[round]++); // runs it here if it sees the request done
            litmus.awaitPartner(r);
            if (ran[r] == 0) {
                lost++;
            }
            while (!request.settled()) {
                Thread.onSpinWait();
            }
            request.again();
        }
        owner.join();
        return lost;
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aRegistrationByAnotherThreadIsNotMissed() throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two threads run at once");
        // with a release store of done instead of the volatile one (and no barrier on the registering side), 5,815 of
        // these 400,000 rounds lost their callback on the project's machine
        assertThat(lostCallbacks(400_000)).as("callbacks that never ran").isZero();
    }
}
