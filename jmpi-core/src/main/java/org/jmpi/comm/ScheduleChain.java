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
 * <p>A persistent intercommunicator collective (MPI 4.0) is a chain of persistent schedules built at its init call
 * and run again, schedule by schedule, by {@link #restart} at each start.
 *
 * <p>Threading: the position advances in completion callbacks, which may run in any thread but never two at once
 * for one chain (a schedule completes once, and the next starts only then; a callback that runs twice, as a
 * restarted schedule's may when it completes while its callback is registered, advances once); {@code complete()}
 * publishes the result.
 */
public final class ScheduleChain extends RequestImpl {
    private final List<Schedule> parts;
    private final boolean again;
    private final AtomicInteger next = new AtomicInteger();

    private ScheduleChain(List<Schedule> parts, boolean again) {
        super(JmpiRuntime.get().progress());
        this.parts = parts;
        this.again = again;
    }

    /** Starts the schedules in order; returns the chain. */
    public static ScheduleChain start(List<Schedule> parts) {
        ScheduleChain c = new ScheduleChain(parts, false);
        c.advance(0);
        return c;
    }

    /**
     * Runs persistent schedules ({@link Schedule#persistent()}) again in order, each once its previous activation
     * has completed (the caller's, a persistent request's, rule); returns the chain of this activation.
     */
    public static ScheduleChain restart(List<Schedule> parts) {
        ScheduleChain c = new ScheduleChain(parts, true);
        c.advance(0);
        return c;
    }

    private void advance(int i) {
        if (!next.compareAndSet(i, i + 1)) {
            return; // this schedule's callback ran already
        }
        if (i == parts.size()) {
            complete();
            return;
        }
        Schedule s = parts.get(i);
        Runnable done = () -> {
            if (next.get() == i + 1) {
                if (s.error() != 0 && error == 0) {
                    error = s.error();
                    errorMessage = s.errorMessage();
                }
                advance(i + 1);
            }
        };
        if (again) {
            s.restart(); // resets the schedule's callback: registered after, run at once if it completed already
            s.whenDone(done);
        } else {
            s.whenDone(done);
            s.start();
        }
    }
}
