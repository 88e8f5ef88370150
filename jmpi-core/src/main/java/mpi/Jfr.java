package mpi;

import jdk.jfr.FlightRecorder;
import org.jmpi.runtime.events.CollectiveEvent;
import org.jmpi.runtime.events.FileEvent;
import org.jmpi.runtime.events.PointToPointEvent;
import org.jmpi.runtime.events.RmaEvent;
import org.jmpi.runtime.events.SpawnEvent;

/**
 * The facade's JDK Flight Recorder events ({@code org.jmpi.runtime.events}). Each kind has a probe instance: a call
 * asks it whether the event is enabled and allocates an event only then, so with the event disabled a call pays one
 * check and allocates nothing. Before JFR runs in this JVM ({@link FlightRecorder#isInitialized()}, one static field)
 * not even the probes exist: loading an event class makes JFR set up its metadata (about 120 classes), which a rank
 * without a recording should not pay. A recording started later (jcmd JFR.start) is seen from the next call on.
 *
 * <p>Threading: the probes only answer {@code isEnabled()}; events are per call.
 */
final class Jfr {
    /** The probes, made (and the event classes loaded and registered with JFR) once JFR runs. */
    private static final class Probes {
        static final PointToPointEvent P2P = new PointToPointEvent();
        static final CollectiveEvent COLL = new CollectiveEvent();
        static final RmaEvent RMA = new RmaEvent();
        static final FileEvent FILE = new FileEvent();
        static final SpawnEvent SPAWN = new SpawnEvent();
    }

    private Jfr() {}

    static PointToPointEvent p2p() {
        if (!FlightRecorder.isInitialized() || !Probes.P2P.isEnabled()) {
            return null;
        }
        PointToPointEvent e = new PointToPointEvent();
        e.begin();
        return e;
    }

    static void p2p(PointToPointEvent e, String call, Comm c, int peer, int tag, long count, Datatype type) {
        if (e != null) {
            p2pEnded(e, call, c, peer, tag, count, type);
        }
    }

    /*
     * The methods that take an event check it for null and call the rest, which fills it in, out of line: C1 (which
     * compiles jmpi's runtime) then inlines the check into every call, and compiles the rest only when events are on.
     */

    private static void p2pEnded(PointToPointEvent e, String call, Comm c, int peer, int tag, long count,
            Datatype type) {
        if (ended(e)) {
            e.call = call;
            e.communicator = name(c);
            e.peer = peer;
            e.tag = tag;
            e.bytes = bytes(count, type);
            e.datatype = name(type);
            e.commit();
        }
    }

    /** A receive-side event: peer, tag and bytes from what arrived. */
    static void p2pReceived(PointToPointEvent e, String call, Comm c, int source, int tag, long bytes,
            Datatype type) {
        if (e != null) {
            p2pReceivedEnded(e, call, c, source, tag, bytes, type);
        }
    }

    private static void p2pReceivedEnded(PointToPointEvent e, String call, Comm c, int source, int tag, long bytes,
            Datatype type) {
        if (ended(e)) {
            e.call = call;
            e.communicator = name(c);
            e.peer = source;
            e.tag = tag;
            e.bytes = bytes;
            e.datatype = name(type);
            e.commit();
        }
    }

    static void p2pReceived(PointToPointEvent e, String call, Comm c, Status st, Datatype type) {
        p2pReceived(e, call, c, st == null ? -1 : st.source, st == null ? -1 : st.tag, st == null ? 0 : st.bytes, type);
    }

    static CollectiveEvent coll() {
        if (!FlightRecorder.isInitialized() || !Probes.COLL.isEnabled()) {
            return null;
        }
        CollectiveEvent e = new CollectiveEvent();
        e.begin();
        return e;
    }

    /**
     * A collective's event; the algorithm is the one the call chose ({@code Tuning.lastSelected()}, which every
     * dispatch sets), except for the barrier, which chooses without it ({@code count < 0}: no data, no algorithm).
     */
    static void coll(CollectiveEvent e, String call, Comm c, int root, long count, Datatype type) {
        if (e != null) {
            collEnded(e, call, c, root, count, type);
        }
    }

    private static void collEnded(CollectiveEvent e, String call, Comm c, int root, long count, Datatype type) {
        if (ended(e)) {
            e.call = call;
            e.communicator = name(c);
            e.size = c.impl == null ? 0 : c.impl.size();
            e.root = root;
            e.bytes = count < 0 ? 0 : bytes(count, type);
            e.datatype = name(type);
            org.jmpi.coll.Algorithm a = count < 0 ? null : org.jmpi.coll.Tuning.lastSelected();
            e.algorithm = a == null ? "" : a.name().toLowerCase(java.util.Locale.ROOT);
            e.commit();
        }
    }

    static RmaEvent rma() {
        if (!FlightRecorder.isInitialized() || !Probes.RMA.isEnabled()) {
            return null;
        }
        RmaEvent e = new RmaEvent();
        e.begin();
        return e;
    }

    static void rma(RmaEvent e, String call, Win w, int target) {
        if (e != null && ended(e)) {
            e.call = call;
            e.window = w.jfrName();
            e.target = target;
            e.commit();
        }
    }

    static FileEvent file() {
        if (!FlightRecorder.isInitialized() || !Probes.FILE.isEnabled()) {
            return null;
        }
        FileEvent e = new FileEvent();
        e.begin();
        return e;
    }

    static void file(FileEvent e, String call, String file, long offset, long bytes) {
        if (e != null && ended(e)) {
            e.call = call;
            e.file = file;
            e.offset = offset;
            e.bytes = bytes;
            e.commit();
        }
    }

    static SpawnEvent spawn() {
        if (!FlightRecorder.isInitialized() || !Probes.SPAWN.isEnabled()) {
            return null;
        }
        SpawnEvent e = new SpawnEvent();
        e.begin();
        return e;
    }

    static void spawn(SpawnEvent e, String command, int processes) {
        if (e != null && ended(e)) {
            e.command = command;
            e.processes = processes;
            e.commit();
        }
    }

    /**
     * Ends the call's event and answers whether to commit it. The event must be ended first: before {@code end()} its
     * duration is 0, so {@code shouldCommit()} held every call below the event type's threshold (20 us for
     * point-to-point and collective events) and nothing was recorded unless the threshold was 0. Takes an Object so
     * that verifying this class loads no event class (passing one as a {@code jdk.jfr.Event} would). Not null.
     */
    private static boolean ended(Object event) {
        jdk.jfr.Event e = (jdk.jfr.Event) event;
        e.end();
        return e.shouldCommit();
    }

    /** {@code name#context} of a communicator ({@code #context} alone when it has no name). */
    static String name(Comm c) {
        String n = c.name;
        return (n == null ? "" : n) + "#" + (c.impl == null ? -1 : c.impl.context());
    }

    private static String name(Datatype t) {
        return t == null ? "" : t.name == null || t.name.isEmpty() ? "derived" : t.name;
    }

    private static long bytes(long count, Datatype t) {
        return t == null || count < 0 ? -1 : count * t.desc.size();
    }
}
