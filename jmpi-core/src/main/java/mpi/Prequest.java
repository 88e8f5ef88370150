package mpi;

import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * A persistent communication request: created once with the arguments of a send or receive, or of a collective
 * operation (MPI 4.0's persistent collectives: {@link Comm#allReduceInit} and the others), then started any number of
 * times ({@link #start()}, {@link #startAll}). Between activations it is inactive: waiting on it returns an empty
 * status at once. {@link #free()} ends it.
 *
 * <p>A persistent collective is built once, at its init call: algorithm, schedule, temporary buffers and tag are
 * fixed then, so a start allocates nothing and only runs the schedule again. Like every collective, the init calls
 * on one communicator come in the same order on every rank; the starts of different persistent collectives may come
 * in any order, and a started one is a non-blocking collective that every rank of the communicator must start and
 * complete.
 */
public final class Prequest extends Request {
    /** What the request does when started. */
    enum Kind {
        SEND, BSEND, SSEND, RSEND, RECV,
        /** A persistent collective: {@link #schedule} runs it. */
        COLLECTIVE,
        /** A persistent neighbourhood or intercommunicator collective: {@link #neighbors} starts one activation. */
        NEIGHBOR,
        /** A partitioned send or receive (MPI 4.0): {@link #partitioned} runs it. */
        PARTITIONED
    }

    private final Kind kind;
    private final Object buf;
    private final int count;
    private final Datatype type;
    private final int peer;
    private final int tag;
    /** The schedule of a persistent collective (kind COLLECTIVE), built once. */
    private final org.jmpi.coll.Schedule schedule;
    /** Starts one activation of a persistent neighbourhood or intercommunicator collective (kind NEIGHBOR). */
    private final java.util.function.Supplier<org.jmpi.runtime.RequestImpl> neighbors;
    /** A partitioned send or receive (kind PARTITIONED). */
    private final org.jmpi.pt2pt.Partitioned partitioned;

    Prequest() {
        this(null, "MPI_Prequest", Kind.SEND, null, 0, MPI.BYTE, MPI.PROC_NULL, 0);
    }

    Prequest(Comm comm, String call, Kind kind, Object buf, int count, Datatype type, int peer, int tag) {
        this.comm = comm;
        this.call = call;
        this.kind = kind;
        this.buf = buf;
        this.count = count;
        this.type = type;
        this.peer = peer;
        this.tag = tag;
        this.schedule = null;
        this.neighbors = null;
        this.partitioned = null;
        this.nullHandle = false;
        this.impl = null;
    }

    /** A persistent collective whose schedule {@code s} was built by its init call. */
    Prequest(Comm comm, String call, org.jmpi.coll.Schedule s) {
        this(comm, call, Kind.COLLECTIVE, s, null);
    }

    /** A persistent neighbourhood or intercommunicator collective; {@code start} starts one activation. */
    Prequest(Comm comm, String call, java.util.function.Supplier<org.jmpi.runtime.RequestImpl> start) {
        this(comm, call, Kind.NEIGHBOR, null, start);
    }

    private Prequest(Comm comm, String call, Kind kind, org.jmpi.coll.Schedule s,
            java.util.function.Supplier<org.jmpi.runtime.RequestImpl> start) {
        this.comm = comm;
        this.call = call;
        this.kind = kind;
        this.buf = null;
        this.count = 0;
        this.type = null;
        this.peer = MPI.PROC_NULL;
        this.tag = 0;
        this.schedule = s;
        this.neighbors = start;
        this.partitioned = null;
        this.nullHandle = false;
        this.impl = null;
    }

    /** A partitioned send or receive (MPI 4.0). */
    Prequest(Comm comm, String call, org.jmpi.pt2pt.Partitioned p) {
        this.comm = comm;
        this.call = call;
        this.kind = Kind.PARTITIONED;
        this.buf = null;
        this.count = 0;
        this.type = null;
        this.peer = MPI.PROC_NULL;
        this.tag = 0;
        this.schedule = null;
        this.neighbors = null;
        this.partitioned = p;
        this.nullHandle = false;
        this.impl = null;
    }

    @Override
    boolean persistent() {
        return true;
    }

    @Override
    void inactive() {
        impl = null;
        if (partitioned != null) {
            partitioned.inactive();
        }
    }

    private void startOne() {
        if (freed || nullHandle) {
            throw new MpiError(ErrorClass.ERR_REQUEST, "start of a freed persistent request");
        }
        if (impl != null) {
            throw new MpiError(ErrorClass.ERR_REQUEST, "start of a persistent request that is still active");
        }
        Communicator c = comm.live();
        impl = switch (kind) {
            case COLLECTIVE -> schedule.restart();
            case NEIGHBOR -> neighbors.get();
            case PARTITIONED -> partitioned.start();
            case RECV -> comm.startRecv(c, buf, count, type, peer, tag);
            case SEND -> comm.startSend(c, buf, count, type, peer, tag, Comm.Mode.STANDARD);
            case BSEND -> comm.startSend(c, buf, count, type, peer, tag, Comm.Mode.BUFFERED);
            case SSEND -> comm.startSend(c, buf, count, type, peer, tag, Comm.Mode.SYNCHRONOUS);
            case RSEND -> comm.startSend(c, buf, count, type, peer, tag, Comm.Mode.READY);
        };
        if (impl == null) { // PROC_NULL
            impl = org.jmpi.runtime.RequestImpl.completed(org.jmpi.runtime.JmpiRuntime.get().progress(),
                    MPI.PROC_NULL, MPI.ANY_TAG, 0);
        }
    }

    // ------------------------------------------------------------------ MPI 4.0: partitioned communication

    private org.jmpi.pt2pt.Partitioned partitioned(String name) {
        if (partitioned == null) {
            throw new MpiError(ErrorClass.ERR_REQUEST, name + " on a request that is not partitioned (" + call + ")");
        }
        if (freed) {
            throw new MpiError(ErrorClass.ERR_REQUEST, name + " on a freed request");
        }
        return partitioned;
    }

    /**
     * MPI_Pready: partition {@code partition} of this started partitioned send may go (its data is final). Each
     * partition once per activation; threads may mark different partitions at the same time.
     */
    public void pReady(int partition) throws MPIException {
        try {
            partitioned("MPI_Pready").ready(partition);
        } catch (MpiError e) {
            throw fail("MPI_Pready", e);
        }
    }

    /** MPI_Pready_range: partitions {@code low} to {@code high}, both included. */
    public void pReadyRange(int low, int high) throws MPIException {
        try {
            org.jmpi.pt2pt.Partitioned p = partitioned("MPI_Pready_range");
            if (low > high) {
                throw new MpiError(ErrorClass.ERR_ARG, "low " + low + " above high " + high);
            }
            for (int i = low; i <= high; i++) {
                p.ready(i);
            }
        } catch (MpiError e) {
            throw fail("MPI_Pready_range", e);
        }
    }

    /** MPI_Pready_list: the listed partitions. */
    public void pReadyList(int[] partitions) throws MPIException {
        try {
            org.jmpi.pt2pt.Partitioned p = partitioned("MPI_Pready_list");
            if (partitions == null) {
                throw new MpiError(ErrorClass.ERR_ARG, "null partition list");
            }
            for (int i : partitions) {
                p.ready(i);
            }
        } catch (MpiError e) {
            throw fail("MPI_Pready_list", e);
        }
    }

    /**
     * MPI_Parrived: whether partition {@code partition} of this started partitioned receive has arrived (its data may
     * be read before the whole request completes). Polls progress when it has not.
     */
    public boolean pArrived(int partition) throws MPIException {
        try {
            return partitioned("MPI_Parrived").arrived(partition);
        } catch (MpiError e) {
            throw fail("MPI_Parrived", e);
        }
    }

    /**
     * Frees the request. A persistent collective must be inactive (MPI 4.0: freeing an active one is erroneous):
     * its temporary buffers go back to the pool.
     */
    @Override
    public void free() throws MPIException {
        if (schedule != null && !freed) {
            if (impl != null && !impl.isDone()) {
                throw fail("MPI_Request_free", new MpiError(ErrorClass.ERR_REQUEST,
                        "free of an active persistent collective request (" + call + "): complete it first"));
            }
            schedule.release();
        }
        super.free();
    }

    /** Starts one activation of the operation. */
    public void start() throws MPIException {
        try {
            startOne();
        } catch (MpiError e) {
            throw fail(call.replace("_init", "") + " (MPI_Start)", e);
        }
    }

    /** Starts every request of the array (null entries are skipped). */
    public static void startAll(Prequest[] requests) throws MPIException {
        if (requests == null) {
            throw Errors.raise("MPI_Startall", new MpiError(ErrorClass.ERR_ARG, "null request array"));
        }
        for (Prequest p : requests) {
            if (p != null) {
                try {
                    p.startOne();
                } catch (MpiError e) {
                    throw p.fail("MPI_Startall", e);
                }
            }
        }
    }
}
