package mpi;

import java.nio.Buffer;
import org.jmpi.datatype.BufferView;
import org.jmpi.datatype.MessageData;
import org.jmpi.pt2pt.Engine;
import org.jmpi.pt2pt.MatchedMessage;
import org.jmpi.pt2pt.RecvRequest;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;

/**
 * A message matched by {@link #mProbe} or {@link #imProbe} and received later with {@link #mRecv} or
 * {@link #imRecv} (MPI_Message).
 */
public final class Message {
    /** True for MPI_MESSAGE_NULL: no matched message is attached. */
    boolean nullHandle;

    /** True for MPI_MESSAGE_NO_PROC: the message matched a probe on {@link MPI#PROC_NULL}. */
    boolean noProc;

    /** The communicator of the probe (its error handler applies), and the message it took. */
    private Comm comm;
    private MatchedMessage matched;

    public Message() {
        this.nullHandle = true;
    }

    public boolean isNull() {
        return nullHandle;
    }

    public boolean isNoProc() {
        return noProc;
    }

    /**
     * Blocks until a message matching (source, tag) on {@code comm} is there, and takes it: no other receive can
     * match it; receive it with {@link #mRecv} or {@link #imRecv}. For {@code MPI.PROC_NULL} this becomes
     * MPI_MESSAGE_NO_PROC.
     */
    public Status mProbe(int source, int tag, Comm comm) throws MPIException {
        return probe(source, tag, comm, true);
    }

    private Status probe(int source, int tag, Comm comm, boolean block) throws MPIException {
        if (comm == null) {
            throw Errors.raise("MPI_Mprobe", new MpiError(ErrorClass.ERR_COMM, "null communicator"));
        }
        String call = block ? "MPI_Mprobe" : "MPI_Improbe";
        try {
            Communicator c = comm.live();
            int src = Comm.checkSource(c, source);
            int t = Comm.checkRecvTag(tag);
            if (source == MPI.PROC_NULL) {
                attach(comm, null);
                noProc = true;
                nullHandle = false;
                return Comm.procNullStatus();
            }
            Engine engine = JmpiRuntime.get().engine();
            MatchedMessage[] found = {engine.improbe(c.context(), src, t)};
            if (found[0] == null) {
                if (!block) {
                    engine.checkProbe(c.context(), src);
                    return null;
                }
                // the waiting loop may test its condition again after it held (spinning, before sleeping): once a
                // message is taken it must stay the answer, or it would be lost (taken from the queue, never received)
                JmpiRuntime.get().progress().awaitUntil(
                        () -> found[0] != null || (found[0] = engine.improbe(c.context(), src, t)) != null
                                || engine.probeFailure(c.context(), src) != 0);
                if (found[0] == null) {
                    engine.checkProbe(c.context(), src);
                }
            }
            attach(comm, found[0]);
            Status s = new Status();
            s.source = found[0].source();
            s.tag = found[0].tag();
            s.bytes = found[0].bytes();
            return s;
        } catch (MpiError e) {
            throw comm.fail(call, e);
        }
    }

    private void attach(Comm c, MatchedMessage m) {
        this.comm = c;
        this.matched = m;
        this.noProc = false;
        this.nullHandle = m == null;
    }

    /** Like {@link #mProbe} but returns null at once when no matching message is there. */
    public Status imProbe(int source, int tag, Comm comm) throws MPIException {
        return probe(source, tag, comm, false);
    }

    /** Receives the message taken by the last probe; the handle becomes MPI_MESSAGE_NULL. */
    public Status mRecv(Object buf, int count, Datatype type) throws MPIException {
        return receive("MPI_Mrecv", buf, count, type);
    }

    /** MPI_Mrecv_c: {@link #mRecv(Object, int, Datatype)} with a {@code long} count. */
    public Status mRecv(Object buf, long count, Datatype type) throws MPIException {
        return receive("MPI_Mrecv_c", buf, count, type);
    }

    private Status receive(String call, Object buf, long count, Datatype type) throws MPIException {
        Comm c = comm != null ? comm : MPI.COMM_WORLD;
        try {
            RecvRequest r = start(buf, count, type);
            if (r == null) {
                return Comm.procNullStatus();
            }
            JmpiRuntime.get().progress().await(r);
            Status s = Status.of(r);
            if (r.error() != 0) {
                throw new MpiError(r.error(), r.errorMessage());
            }
            return s;
        } catch (MpiError e) {
            throw c.fail(call, e);
        }
    }

    /** Starts receiving the matched message; null for MPI_MESSAGE_NO_PROC. Leaves this handle null. */
    private RecvRequest start(Object buf, long count, Datatype type) {
        if (nullHandle) {
            throw new MpiError(ErrorClass.ERR_REQUEST, "no matched message (MPI_MESSAGE_NULL): call mProbe first");
        }
        Comm.checkCount(count);
        Comm.checkType(type);
        MessageData data = BufferView.of(buf, count, type.desc, true);
        if (noProc) {
            nullHandle = true;
            noProc = false;
            return null;
        }
        MatchedMessage m = matched;
        matched = null;
        nullHandle = true;
        return JmpiRuntime.get().engine().mrecv(m, data);
    }

    /** Starts receiving the matched message into a heap or direct buffer; the handle becomes MPI_MESSAGE_NULL. */
    public Request imRecv(Buffer buf, int count, Datatype type) throws MPIException {
        return startReceive("MPI_Imrecv", buf, count, type);
    }

    /**
     * MPI_Imrecv_c: {@link #imRecv(Buffer, int, Datatype)} with a {@code long} count, into any buffer (a memory
     * segment for more than 2^31 - 1 elements).
     */
    public Request imRecv(Object buf, long count, Datatype type) throws MPIException {
        return startReceive("MPI_Imrecv_c", buf, count, type);
    }

    private Request startReceive(String call, Object buf, long count, Datatype type) throws MPIException {
        Comm c = comm != null ? comm : MPI.COMM_WORLD;
        try {
            return Request.ofOwned(c, start(buf, count, type), call);
        } catch (MpiError e) {
            throw c.fail(call, e);
        }
    }
}
