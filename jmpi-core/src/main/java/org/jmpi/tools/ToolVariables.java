package org.jmpi.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jmpi.coll.Algorithm;
import org.jmpi.coll.CollConfig;
import org.jmpi.coll.Collective;
import org.jmpi.coll.Tuning;
import org.jmpi.runtime.Config;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;
import org.jmpi.transport.Traffic;
import org.jmpi.transport.select.SelectingTransport;
import org.jmpi.transport.shm.ShmConfig;
import org.jmpi.transport.tcp.TcpConfig;

/**
 * The variables behind {@link MpiT}: jmpi's tuning parameters as control variables and the counters the runtime
 * keeps as performance variables, each in one category. The lists are fixed: an index names the same variable for the
 * whole run. Values come from where the runtime takes them: before MPI starts, the parameters as {@code MPI_Init}
 * will read them (system properties, then {@code JMPI_*} environment variables, then defaults); while it runs, the
 * collectives' parameters this rank uses now and the others as they were read at start-up.
 *
 * <p>Threading: no state of its own beyond the immutable lists; {@link MpiT} calls it under its lock.
 */
final class ToolVariables {
    private ToolVariables() {}

    /** What a control variable holds. */
    enum Kind {
        /** A size or count ({@code MPI.LONG}). */
        LONG,
        /** true or false ({@code MPI.BOOLEAN}, read and written as 0 or 1). */
        BOOLEAN,
        /** Text ({@code MPI.CHAR}). */
        TEXT,
        /** One of {@link Cvar#choices} ({@code MPI.INT}, the choice's index). */
        CHOICE
    }

    /** Where a group of parameters is read. */
    enum Source {
        ENGINE, COLLECTIVES, SHARED_MEMORY, TCP, COPIES
    }

    /** A control variable: a {@code jmpi.*} parameter. */
    record Cvar(String name, Source source, Kind kind, List<String> choices, String description) {}

    /** A performance variable. */
    record Pvar(String name, int varClass, boolean perPeer, List<String> states, String description, String category) {}

    /** A category: a name, a description and its variables' indices. */
    record Category(String name, String description, int[] cvars, int[] pvars) {}

    /** The states of {@code jmpi.route} (declared before the lists that use it). */
    private static final List<String> ROUTES = List.of("none", "shm", "tcp");

    static final List<Cvar> CVARS = cvars();
    static final List<Pvar> PVARS = pvars();
    static final List<Category> CATEGORIES = categories();

    /** Performance variable indices. */
    static final int UNEXPECTED = 0;
    static final int FRAMES_SENT = 1;
    static final int BYTES_SENT = 2;
    static final int FRAMES_RECEIVED = 3;
    static final int BYTES_RECEIVED = 4;
    static final int BYTES_IN_FLIGHT = 5;
    static final int FRAMES_WAITING = 6;
    static final int ROUTE = 7;
    static final int COLL_ALGORITHM = 8;

    private static List<Cvar> cvars() {
        List<Cvar> l = new ArrayList<>();
        l.add(new Cvar("jmpi.eager.limit", Source.ENGINE, Kind.LONG, null, "messages up to this many bytes are sent"
                + " eagerly (copied at the receiver when unexpected); larger ones use the rendezvous"));
        l.add(new Cvar("jmpi.chunk.bytes", Source.ENGINE, Kind.LONG, null,
                "size of the data frames of a rendezvous transfer over a transport"));
        l.add(new Cvar("jmpi.spin.iterations", Source.ENGINE, Kind.LONG, null,
                "polls a waiting thread makes before it starts to yield the processor"));
        l.add(new Cvar("jmpi.yield.iterations", Source.ENGINE, Kind.LONG, null,
                "polls, each after a yield of the processor, before a waiting thread blocks"));
        l.add(new Cvar("jmpi.flow.window", Source.ENGINE, Kind.LONG, null, "bytes of eager messages (plus a fixed"
                + " overhead each) a sender may have outstanding at one receiver before it waits for credit"));
        l.add(new Cvar("jmpi.unexpected.limit", Source.ENGINE, Kind.LONG, null, "in threads mode, bytes of"
                + " unexpected eager messages a rank copies before it keeps further ones by reference"));
        for (Collective c : Collective.values()) {
            List<String> choices = new ArrayList<>();
            choices.add("auto");
            for (Algorithm a : Algorithm.of(c)) {
                choices.add(a.key());
            }
            l.add(new Cvar("jmpi.coll." + c.key() + ".algorithm", Source.COLLECTIVES, Kind.CHOICE,
                    List.copyOf(choices), "the algorithm of " + c.key() + "; auto selects by size (docs/tuning.md)"));
        }
        String[][] coll = {
            {"jmpi.coll.bcast.long", "broadcasts of at least this many bytes use scatter + allgather (8 ranks or"
                    + " more)"},
            {"jmpi.coll.bcast.pipeline", "broadcasts of at least this many bytes use the segmented pipeline"},
            {"jmpi.coll.bcast.segment", "segment size of the pipelined broadcast"},
            {"jmpi.coll.gather.short", "gathers and scatters of fewer total bytes use the binomial tree, larger ones"
                    + " the linear algorithm"},
            {"jmpi.coll.allgather.short", "allgathers of fewer total bytes use recursive doubling or Bruck, larger"
                    + " ones the ring"},
            {"jmpi.coll.alltoall.short", "all-to-alls with smaller blocks use Bruck (more than 2 ranks)"},
            {"jmpi.coll.alltoall.medium", "all-to-alls with smaller blocks post every message at once, larger ones"
                    + " go pairwise"},
            {"jmpi.coll.allreduce.short", "allreduces of fewer bytes use recursive doubling (2 ranks of one host:"
                    + " up to 256 KiB whatever this)"},
            {"jmpi.coll.allreduce.long", "allreduces of at least this many bytes on more than 2 ranks use the"
                    + " ring; in between, and on 2 ranks, Rabenseifner"},
            {"jmpi.coll.allreduce.segment", "segment size of the ring allreduce's reduce-scatter steps"},
            {"jmpi.coll.reduce.long", "reductions of at least this many bytes use Rabenseifner (commutative"
                    + " operations, more than 2 ranks)"},
            {"jmpi.coll.reduce_scatter.long", "reduce-scatters of at least this many total bytes use the ring,"
                    + " smaller ones recursive halving"},
            {"jmpi.coll.pace", "every this many calls on a communicator, the small messages of a blocking bcast,"
                    + " reduce, gather or scatter are sent synchronously; 0 never; auto (-1) by the communicator's"
                    + " size"},
        };
        for (String[] c : coll) {
            l.add(new Cvar(c[0], Source.COLLECTIVES, Kind.LONG, null, c[1]));
        }
        l.add(new Cvar("jmpi.shm.dir", Source.SHARED_MEMORY, Kind.TEXT, null,
                "where segment files are created (a memory file system)"));
        l.add(new Cvar("jmpi.shm.ring.bytes", Source.SHARED_MEMORY, Kind.LONG, null,
                "data bytes of each ring (a power of two, 16k to 64m), or auto: 1m for up to 5 ranks on the host, 512k"
                        + " up to 9, else 256k"));
        l.add(new Cvar("jmpi.shm.segment.budget", Source.SHARED_MEMORY, Kind.LONG, null,
                "with many ranks per host, rings shrink (not below 64k) so that a segment stays within this"));
        l.add(new Cvar("jmpi.shm.eager.limit", Source.SHARED_MEMORY, Kind.LONG, null, "larger messages to a rank of"
                + " this host are streamed up to jmpi.shm.stream.limit, then take the rendezvous; at most a quarter of"
                + " a ring"));
        l.add(new Cvar("jmpi.shm.chunk.bytes", Source.SHARED_MEMORY, Kind.LONG, null,
                "data chunk of a rendezvous through the ring (at most a quarter of the ring)"));
        l.add(new Cvar("jmpi.shm.single.copy", Source.SHARED_MEMORY, Kind.BOOLEAN, null,
                "use process_vm_readv when both buffers are native and the kernel allows it"));
        l.add(new Cvar("jmpi.shm.split.min", Source.SHARED_MEMORY, Kind.LONG, null,
                "single-copy messages from this size on are copied half by each process; 0 never"));
        l.add(new Cvar("jmpi.shm.stream.limit", Source.SHARED_MEMORY, Kind.LONG, null,
                "messages above the eager limit and up to this size are streamed without a handshake; 0 never"));
        l.add(new Cvar("jmpi.shm.address.min", Source.SHARED_MEMORY, Kind.LONG, null,
                "a blocking send of at least this many bytes in native memory is read by its receiver straight out of"
                        + " the sender's buffer (process_vm_readv), the send returning once it has been; 0 never"));
        l.add(new Cvar("jmpi.tcp.host", Source.TCP, Kind.TEXT, null,
                "where to listen: an address, a host name, an interface name, or * for every interface"));
        l.add(new Cvar("jmpi.tcp.port", Source.TCP, Kind.LONG, null, "the listening port; 0 picks a free one"));
        l.add(new Cvar("jmpi.tcp.socket.send.buffer", Source.TCP, Kind.LONG, null,
                "SO_SNDBUF of every connection; 0, or a size above net.core.wmem_max, leaves the system's default"));
        l.add(new Cvar("jmpi.tcp.socket.receive.buffer", Source.TCP, Kind.LONG, null,
                "SO_RCVBUF of every connection; 0, or a size above net.core.rmem_max, leaves the system's default"));
        l.add(new Cvar("jmpi.tcp.write.buffer", Source.TCP, Kind.LONG, null,
                "per-connection buffer where frames are gathered before a write (16 KiB+ payloads go alone)"));
        l.add(new Cvar("jmpi.tcp.read.buffer", Source.TCP, Kind.LONG, null,
                "initial size of the per-connection read buffer (it grows to the largest frame)"));
        l.add(new Cvar("jmpi.tcp.max.frame", Source.TCP, Kind.LONG, null,
                "largest payload a frame may carry; a longer one drops the peer"));
        l.add(new Cvar("jmpi.tcp.eager.limit", Source.TCP, Kind.LONG, null,
                "messages to a rank reached over TCP up to this many bytes are sent eagerly"));
        l.add(new Cvar("jmpi.tcp.chunk.bytes", Source.TCP, Kind.LONG, null,
                "larger messages travel over TCP in data frames of at most this many bytes"));
        l.add(new Cvar("jmpi.copy.native.min", Source.COPIES, Kind.LONG, null,
                "copies of at least this many bytes use memmove once it is linked; 0 never"));
        return List.copyOf(l);
    }

    private static List<Pvar> pvars() {
        List<String> algorithms = new ArrayList<>();
        algorithms.add("none");
        for (Algorithm a : Algorithm.values()) {
            algorithms.add(a.collective().key() + ":" + a.key());
        }
        String p2p = "jmpi.point_to_point";
        String traffic = "jmpi.traffic";
        return List.of(
                new Pvar("jmpi.unexpected.messages", MpiT.PVAR_CLASS_LEVEL, false, null,
                        "messages that arrived before a matching receive was posted, queued now", p2p),
                new Pvar("jmpi.frames.sent", MpiT.PVAR_CLASS_COUNTER, true, null,
                        "frames sent to each world rank over a transport (shared memory or TCP)", traffic),
                new Pvar("jmpi.bytes.sent", MpiT.PVAR_CLASS_COUNTER, true, null,
                        "payload bytes sent to each world rank over a transport", traffic),
                new Pvar("jmpi.frames.received", MpiT.PVAR_CLASS_COUNTER, true, null,
                        "frames received from each world rank over a transport", traffic),
                new Pvar("jmpi.bytes.received", MpiT.PVAR_CLASS_COUNTER, true, null,
                        "payload bytes received from each world rank over a transport", traffic),
                new Pvar("jmpi.flow.bytes_in_flight", MpiT.PVAR_CLASS_LEVEL, true, null,
                        "bytes sent eagerly to each world rank and not yet returned as credit", p2p),
                new Pvar("jmpi.flow.frames_waiting", MpiT.PVAR_CLASS_LEVEL, true, null,
                        "frames to each world rank waiting for credit", p2p),
                new Pvar("jmpi.route", MpiT.PVAR_CLASS_STATE, true, ROUTES,
                        "the transport that reaches each world rank (none: not used yet, or threads mode)", traffic),
                new Pvar("jmpi.coll.algorithm", MpiT.PVAR_CLASS_STATE, false, List.copyOf(algorithms),
                        "the algorithm this rank chose for its last collective call", "jmpi.collectives"));
    }

    private static List<Category> categories() {
        String[][] names = {
            {"jmpi.point_to_point", "the point-to-point engine: eager limit, flow control, waiting, queues"},
            {"jmpi.collectives", "algorithm selection of the collectives"},
            {"jmpi.shared_memory", "the shared-memory transport between ranks of one host"},
            {"jmpi.tcp", "the TCP transport between hosts"},
            {"jmpi.copies", "how large pieces of memory are copied"},
            {"jmpi.traffic", "frames and bytes per peer, and the transport that reaches it"},
        };
        Source[] sources = {Source.ENGINE, Source.COLLECTIVES, Source.SHARED_MEMORY, Source.TCP, Source.COPIES, null};
        List<Category> l = new ArrayList<>();
        for (int k = 0; k < names.length; k++) {
            Source s = sources[k];
            String name = names[k][0];
            int[] cv = java.util.stream.IntStream.range(0, CVARS.size()).filter(i -> CVARS.get(i).source() == s)
                    .toArray();
            int[] pv = java.util.stream.IntStream.range(0, PVARS.size())
                    .filter(i -> PVARS.get(i).category().equals(name)).toArray();
            l.add(new Category(name, names[k][1], s == null ? new int[0] : cv, pv));
        }
        return List.copyOf(l);
    }

    // ============================================================================================ control variables

    /** Whether MPI runs in this rank now (the values of a running runtime apply). */
    static boolean running() {
        return JmpiRuntime.current() != null;
    }

    /**
     * The values of {@code source}'s parameters now.
     *
     * @throws MpiError ERR_ARG when a parameter is set to a value MPI_Init would refuse
     */
    static Map<String, String> values(Source source) {
        JmpiRuntime rt = JmpiRuntime.current();
        return switch (source) {
            case ENGINE -> rt != null ? rt.config().describe() : Config.fromEnvironment().describe();
            // Tuning reads its parameters on first use: before MPI runs it must not, or it would keep them
            case COLLECTIVES -> rt != null ? Tuning.config().describe() : CollConfig.fromEnvironment().describe();
            case SHARED_MEMORY -> ShmConfig.fromEnvironment().describe();
            case TCP -> TcpConfig.fromEnvironment().describe();
            case COPIES -> Map.of("jmpi.copy.native.min", Long.toString(Config.copyNativeMin()));
        };
    }

    /** The text of a control variable's value now. */
    static String read(Cvar v) {
        return values(v.source()).get(v.name());
    }

    /**
     * Sets a control variable: before MPI runs, as the system property MPI_Init will read (after checking that it
     * would accept it); while it runs, the collectives' parameters for this rank's next calls. Other parameters are
     * read once at start-up and cannot change while MPI runs.
     */
    static void write(Cvar v, String text) {
        if (running()) {
            if (v.source() != Source.COLLECTIVES) {
                throw new MpiError(ErrorClass.T_ERR_CVAR_SET_NOT_NOW, v.name() + " is read when MPI starts and cannot"
                        + " change while it runs (set it before MPI_Init, or as -D" + v.name() + "=...)");
            }
            Map<String, String> now = Tuning.config().describe();
            CollConfig next = checked(v, () -> CollConfig.from(n -> n.equals(v.name()) ? text : now.get(n)));
            Tuning.useConfig(next);
            return;
        }
        String before = System.getProperty(v.name());
        System.setProperty(v.name(), text);
        boolean ok = false;
        try {
            checked(v, () -> values(v.source()));
            ok = true;
        } finally {
            if (!ok) {
                if (before == null) {
                    System.clearProperty(v.name());
                } else {
                    System.setProperty(v.name(), before);
                }
            }
        }
    }

    private static <T> T checked(Cvar v, java.util.function.Supplier<T> parse) {
        try {
            return parse.get();
        } catch (MpiError | IllegalArgumentException e) {
            throw new MpiError(ErrorClass.T_ERR_INVALID, "cannot set " + v.name() + ": " + e.getMessage());
        }
    }

    // ============================================================================================ performance variables

    /** The runtime's values of a performance variable now: one per world rank, or one. */
    static long[] sample(int index, JmpiRuntime rt) {
        int size = rt.size();
        long[] out = new long[PVARS.get(index).perPeer() ? size : 1];
        switch (index) {
            case UNEXPECTED -> out[0] = rt.engine().unexpectedMessages();
            case FRAMES_SENT, BYTES_SENT, FRAMES_RECEIVED, BYTES_RECEIVED -> {
                Traffic t = rt.progress().transport() instanceof SelectingTransport st ? st.traffic() : null;
                int column = index - FRAMES_SENT;
                for (int p = 0; t != null && p < Math.min(size, t.ranks()); p++) {
                    out[p] = t.of(p)[column];
                }
            }
            case BYTES_IN_FLIGHT, FRAMES_WAITING -> {
                for (int p = 0; p < size; p++) {
                    out[p] = rt.engine().flowState(p)[index - BYTES_IN_FLIGHT];
                }
            }
            case ROUTE -> {
                SelectingTransport st = rt.progress().transport() instanceof SelectingTransport s ? s : null;
                for (int p = 0; st != null && p < size; p++) {
                    out[p] = Math.max(0, ROUTES.indexOf(st.routeName(p)));
                }
            }
            case COLL_ALGORITHM -> {
                Algorithm a = Tuning.lastSelected();
                out[0] = a == null ? 0 : a.ordinal() + 1;
            }
            default -> throw new IllegalStateException("no performance variable " + index);
        }
        return out;
    }
}
