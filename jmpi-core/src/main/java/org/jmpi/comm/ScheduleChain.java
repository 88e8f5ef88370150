package org.jmpi.comm;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jmpi.coll.Schedule;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.RequestImpl;

/**
 * Collective schedules run one after the other, as one request: each starts in the completion callback of the one
 * before, so the chain progresses without a helper thread. An intercommunicator collective is such a chain: a
 * schedule inside the local group, one between the groups, another inside the group. All schedules of a chain are
 * built (and take their collective sequence numbers) when the call is made, so the numbers agree across processes
 * whatever happens later.
 *
 * <p>Cost: that of its schedules, run in sequence. An error in one schedule is recorded and the rest still run, so
 * that the other processes are not left waiting; the first error becomes the chain's.
 *
 * <p>Threading: the position advances in completion callbacks, which may run in any thread but never two at once
 * for one chain (a schedule completes once, and the next starts only then); {@code complete()} publishes the result.
 */
public final class ScheduleChain extends RequestImpl {
    private final List<Schedule> parts;
    private final AtomicInteger next = new AtomicInteger();

    private ScheduleChain(List<Schedule> parts) {
        super(JmpiRuntime.get().progress());
        this.parts = parts;
    }

    /** Starts the schedules in order; returns the chain. */
    public static ScheduleChain start(List<Schedule> parts) {
        ScheduleChain c = new ScheduleChain(parts);
        c.advance();
        return c;
    }

    private void advance() {
        int i = next.getAndIncrement();
        if (i == parts.size()) {
            complete();
            return;
        }
        Schedule s = parts.get(i);
        s.whenDone(() -> {
            if (s.error() != 0 && error == 0) {
                error = s.error();
                errorMessage = s.errorMessage();
            }
            advance();
        });
        s.start();
    }
}
