package org.jmpi.shared;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Each thread sees its own value, made once, whichever thread came first. */
@Timeout(30)
class FirstThreadLocalTest {
    @Test
    void theFirstThreadKeepsItsValueAndOthersGetTheirOwn() throws Exception {
        AtomicInteger made = new AtomicInteger();
        FirstThreadLocal<int[]> local = new FirstThreadLocal<>(() -> new int[] {made.incrementAndGet()});
        int[] mine = local.get();
        assertThat(local.get()).isSameAs(mine);
        int[][] theirs = new int[2][];
        Thread other = Thread.ofPlatform().start(() -> {
            theirs[0] = local.get();
            theirs[1] = local.get();
        });
        other.join();
        assertThat(theirs[0]).isNotSameAs(mine).isSameAs(theirs[1]);
        assertThat(local.get()).isSameAs(mine);
        assertThat(made).hasValue(2);
    }

    @Test
    void threadsThatRaceForTheFirstPlaceEachGetOneValueOfTheirOwn() throws Exception {
        int threads = 7;
        FirstThreadLocal<Object> local = new FirstThreadLocal<>(Object::new);
        CountDownLatch start = new CountDownLatch(1);
        ConcurrentLinkedQueue<Object> seen = new ConcurrentLinkedQueue<>();
        List<Thread> all = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            all.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                Object first = local.get();
                for (int k = 0; k < 1000; k++) {
                    if (local.get() != first) {
                        seen.add("changed");
                    }
                }
                seen.add(first);
            }));
        }
        start.countDown();
        for (Thread t : all) {
            t.join();
        }
        assertThat(seen).hasSize(threads).doesNotContain("changed").doesNotHaveDuplicates();
    }
}
