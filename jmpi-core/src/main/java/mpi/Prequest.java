package mpi;

import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * A persistent communication request: created once with the arguments of a send or receive, then started any
 * number of times ({@link #start()}, {@link #startAll}). Between activations it is inactive: waiting on it returns
 * an empty status at once. {@link #free()} ends it.
 */
public final class Prequest extends Request {
    /** What the request does when started. */
    enum Kind {
        SEND, BSEND, SSEND, RSEND, RECV
    }

    private final Kind kind;
    private final Object buf;
    private final int count;
    private final Datatype type;
    private final int peer;
    private final int tag;

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
