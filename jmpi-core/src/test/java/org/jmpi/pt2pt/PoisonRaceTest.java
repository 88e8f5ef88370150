package org.jmpi.pt2pt;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;
import org.jmpi.datatype.MessageData;
import org.jmpi.runtime.Config;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.Progress;
import org.jmpi.transport.FrameLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ULFM's poisoning of a context (a failure notice handled by one thread) while another thread posts receives on it:
 * every receive on the context ends failed, none stays posted. A receive that checked the poison just before it was
 * set, and was posted just after poison() had failed the posted ones, used to wait for ever (a survivor hung in a
 * collective, seen in CI). The same for messages that arrive while the context is being poisoned: none may stay as an
 * unexpected entry, which nobody could take any more and which would hold its sender's flow-control credit.
 */
class PoisonRaceTest {
    private static final int CONTEXT = 40;
    private static final int POSTS = 64;

    @Test
    @Timeout(120)
    void everyReceiveOnAPoisonedContextFails() throws Exception {
        for (int round = 0; round < 3000; round++) {
            Engine e = new Engine(0, 1, new Progress(null, 10, 10), null, Config.defaults());
            RecvRequest[] posted = new RecvRequest[POSTS];
            AtomicInteger count = new AtomicInteger();
            Thread poster = new Thread(() -> {
                for (int i = 0; i < POSTS; i++) {
                    posted[i] = e.irecv(MessageData.EMPTY, CONTEXT, 0, i);
                    count.incrementAndGet();
                }
            });
            poster.start();
            int at = round % (POSTS / 2); // poison at a different point of the stream each round
            while (count.get() < at && poster.isAlive()) {
                Thread.onSpinWait();
            }
            e.poison(CONTEXT, ErrorClass.ERR_PROC_FAILED);
            poster.join();
            for (int i = 0; i < POSTS; i++) {
                RecvRequest r = posted[i];
                assertThat(r.isDone()).as("round %d, receive %d of %d (poisoned after %d)", round, i, POSTS, at)
                        .isTrue();
                assertThat(r.error()).isEqualTo(ErrorClass.ERR_PROC_FAILED);
            }
        }
    }

    /**
     * An eager message that checked the poison before it was set and takes the matching lock after poison() purged
     * the unexpected entries. The test holds the lock to stop the message there, then poisons in its own thread (the
     * lock is reentrant), then lets it go.
     */
    @Test
    @Timeout(60)
    void aMessageArrivingWhileTheContextIsPoisonedIsDropped() throws Exception {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment payload = arena.allocate(8);
            MemorySegment header = arena.allocate(FrameLayout.HEADER_BYTES);
            FrameLayout.putInt(header, FrameLayout.KIND, Protocol.EAGER);
            FrameLayout.putInt(header, FrameLayout.PAYLOAD, 8);
            FrameLayout.putInt(header, FrameLayout.CONTEXT, CONTEXT);
            FrameLayout.putLong(header, FrameLayout.TOTAL, 8);
            for (int round = 0; round < 20; round++) {
                Engine e = new Engine(0, 1, new Progress(null, 10, 10), null, Config.defaults());
                Thread arrival = new Thread(() -> e.onFrame(0, header, payload, 0, 8));
                synchronized (e.lock) {
                    arrival.start();
                    while (arrival.getState() != Thread.State.BLOCKED) { // past its poison check, waiting for the lock
                        Thread.onSpinWait();
                    }
                    e.poison(CONTEXT, ErrorClass.ERR_PROC_FAILED);
                }
                arrival.join();
                assertThat(e.unexpectedMessages()).as("round %d", round).isZero();
            }
        }
    }
}
