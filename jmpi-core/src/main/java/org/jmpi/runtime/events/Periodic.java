package org.jmpi.runtime.events;

import java.util.function.Consumer;
import jdk.jfr.FlightRecorder;
import org.jmpi.pt2pt.Engine;
import org.jmpi.transport.Traffic;
import org.jmpi.transport.select.SelectingTransport;

/**
 * Registers the periodic {@link TrafficEvent}, {@link QueuesEvent} and {@link WaitingEvent} of a rank (when {@code jmpi.jfr.counters} / {@code JMPI_JFR_COUNTERS}
 * is set, as {@code jmpirun --jfr} does: registering touches the JFR machinery, which a rank without a recording should
 * not load) and removes it when the rank finalizes.
 *
 * <p>Threading: the hook runs on JFR's periodic thread and only reads the counters.
 */
public final class Periodic {
    private Periodic() {}

    /**
     * @param transport the rank's transport (counters and routes)
     * @param engine the rank's engine (flow control and the unexpected queue)
     * @param progress the rank's progress engine (time spent waiting)
     * @param onFinalize registers an action run at MPI_Finalize
     */
    public static void register(SelectingTransport transport, Engine engine, org.jmpi.runtime.Progress progress,
            Consumer<Runnable> onFinalize) {
        Traffic t = transport.traffic();
        Runnable queues = () -> {
            QueuesEvent q = new QueuesEvent();
            q.unexpectedMessages = engine.unexpectedMessages();
            q.commit();
        };
        Runnable hook = () -> {
            for (int p = 0; p < t.ranks(); p++) {
                long[] c = t.of(p);
                if (c[0] == 0 && c[2] == 0) {
                    continue;
                }
                long[] flow = engine.flowState(p);
                TrafficEvent e = new TrafficEvent();
                e.bytesInFlight = flow[0];
                e.framesWaiting = flow[1];
                e.peer = p;
                e.transport = transport.routeName(p);
                e.framesSent = c[0];
                e.bytesSent = c[1];
                e.framesReceived = c[2];
                e.bytesReceived = c[3];
                e.commit();
            }
        };
        FlightRecorder.addPeriodicEvent(TrafficEvent.class, hook);
        FlightRecorder.addPeriodicEvent(QueuesEvent.class, queues);
        Runnable waiting = () -> {
            WaitingEvent w = new WaitingEvent();
            w.timeWaiting = progress.waitedNanos();
            w.waits = progress.waits();
            w.commit();
        };
        FlightRecorder.addPeriodicEvent(WaitingEvent.class, waiting);
        onFinalize.accept(() -> {
            hook.run(); // the totals, once more at the end
            queues.run();
            waiting.run();
            FlightRecorder.removePeriodicEvent(hook);
            FlightRecorder.removePeriodicEvent(queues);
            FlightRecorder.removePeriodicEvent(waiting);
        });
    }
}
