package mpi;

import java.nio.Buffer;
import org.jmpi.datatype.BufferView;
import org.jmpi.datatype.MessageData;
import org.jmpi.pt2pt.Engine;
import org.jmpi.pt2pt.RecvRequest;
import org.jmpi.pt2pt.SendMode;
import org.jmpi.pt2pt.SendRequest;
import org.jmpi.comm.GroupCollectives;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;
import org.jmpi.runtime.RequestImpl;

/**
 * A communicator: a group of processes and a communication context. Point-to-point, collective, attribute
 * and error-handler operations common to intra- and intercommunicators.
 */
public class Comm implements Freeable, Cloneable {
    /** The name given by {@link #setName}, or the predefined name; the runtime may replace it. */
    String name = "";

    /** True once the communicator has been freed or disconnected (MPI_COMM_NULL). */
    boolean nullHandle;

    /** The request of a pending {@link #iDup()}, returned by {@link #getRequest()}. */
    Request request;

    public static final int TYPE_SHARED = 0;

    /** This communicator's buffer for buffered sends (MPI 4.1), or null: the process's is used. */
    volatile BufferedSends.Pool bsendPool;
    /** The session this communicator comes from (its group's, through createFromGroup, or its parent's), else null. */
    Session session;
    /**
     * MPI 4.0's MPI_COMM_TYPE_HW_UNGUIDED for {@link Intracomm#splitType}: a strict subset at the next level of the
     * hardware (with jmpi, a host), or a null communicator when there is none.
     */
    public static final int TYPE_HW_UNGUIDED = 1;
    /**
     * MPI 4.0's MPI_COMM_TYPE_HW_GUIDED for {@link Intracomm#splitType}: the info key {@code mpi_hw_resource_type}
     * names the level; jmpi knows {@code mpi_shared_memory} (a host) and gives a null communicator for the others.
     */
    public static final int TYPE_HW_GUIDED = 2;

    /** The runtime's side of this communicator; set by Init for the predefined ones. */
    Communicator impl;

    /** The error handler in force; MPI_ERRORS_ARE_FATAL by default. */
    Errhandler errhandler = MPI.ERRORS_ARE_FATAL;

    /** The attributes set on this communicator, created on first use. */
    Attributes attributes;

    /** The info hints given by setInfo or dupWithInfo (null: none). */
    Info info;

    /** The process topology (Cartesian, graph, distributed graph), or null. */
    org.jmpi.topo.Topology topology;

    /** The helper communicator on which {@link #iDup()} agrees on contexts without blocking (made on first use). */
    Communicator idupHelper;

    static {
        org.jmpi.runtime.FacadeAccess.install(new FacadeBridge());
    }

    /** Creates a communicator object that the runtime connects to a context later. */
    Comm() {}

    /** The runtime state behind this communicator, after checking that MPI is running and the handle is valid. */
    final Communicator live() {
        JmpiRuntime.get();
        Communicator c = impl;
        if (c == null || nullHandle) {
            throw new MpiError(ErrorClass.ERR_COMM, "invalid communicator (freed or null)");
        }
        return c;
    }

    /**
     * The error of a blocking receive. ULFM: one from ANY_SOURCE that met an unacknowledged failure was withdrawn,
     * so it raises MPI_ERR_PROC_FAILED (only a non-blocking one stays pending).
     */
    static MpiError blockingReceiveError(org.jmpi.runtime.RequestImpl r) {
        int e = r.error() == ErrorClass.ERR_PROC_FAILED_PENDING ? ErrorClass.ERR_PROC_FAILED : r.error();
        return new MpiError(e, r.errorMessage());
    }

    final MPIException fail(String call, MpiError e) {
        return Errors.raise(errhandler, call, e);
    }

    static void checkType(Datatype type) {
        if (type == null || type.isNull()) {
            throw new MpiError(ErrorClass.ERR_TYPE, "invalid datatype " + (type == null ? "null" : type.name));
        }
        if (!type.committed) {
            throw new MpiError(ErrorClass.ERR_TYPE, "datatype " + type.name + " is not committed");
        }
    }

    static void checkCount(long count) {
        if (count < 0) {
            throw new MpiError(ErrorClass.ERR_COUNT, "negative count " + count);
        }
    }

    /** Checks a destination rank; returns it (PROC_NULL passes). */
    static int checkDest(Communicator c, int dest) {
        if (dest == MPI.PROC_NULL) {
            return dest;
        }
        if (dest < 0 || dest >= c.size()) {
            throw new MpiError(ErrorClass.ERR_RANK,
                    "invalid rank " + dest + " (communicator of size " + c.size() + ")");
        }
        return dest;
    }

    static int checkSource(Communicator c, int source) {
        if (source == MPI.ANY_SOURCE) {
            return Engine.ANY;
        }
        return checkDest(c, source);
    }

    static void checkSendTag(int tag) {
        if (tag < 0) {
            throw new MpiError(ErrorClass.ERR_TAG, "invalid tag " + tag + " (tags of a send are 0.." + Integer.MAX_VALUE
                    + ")");
        }
    }

    static int checkRecvTag(int tag) {
        if (tag == MPI.ANY_TAG) {
            return Engine.ANY;
        }
        if (tag < 0) {
            throw new MpiError(ErrorClass.ERR_TAG, "invalid tag " + tag + " (use 0.." + Integer.MAX_VALUE
                    + " or MPI.ANY_TAG)");
        }
        return tag;
    }

    /** The checks of a send's arguments, in the order their errors are raised. */
    private static void checkSend(Communicator c, long count, Datatype type, int dest, int tag) {
        checkCount(count);
        checkType(type);
        checkDest(c, dest);
        checkSendTag(tag);
    }

    /** Starts a send; null for PROC_NULL. */
    final RequestImpl startSend(Communicator c, Object buf, long count, Datatype type, int dest, int tag,
            SendMode mode) {
        return startSend(c, buf, count, type, dest, tag, mode, false);
    }

    /**
     * Starts a blocking standard send: done at once through the engine's lane when it can take the message (then
     * null: nothing to wait for, as for PROC_NULL), else started as {@link #startSend} starts it.
     */
    final RequestImpl startBlockingSend(Communicator c, Object buf, long count, Datatype type, int dest, int tag) {
        return startSend(c, buf, count, type, dest, tag, SendMode.STANDARD, true);
    }

    /**
     * {@link #startSend}, through the engine's lane first for a standard send: without a request when
     * {@code blocking} (a send the caller waits for), with one complete already when not.
     */
    private RequestImpl startSend(Communicator c, Object buf, long count, Datatype type, int dest, int tag,
            SendMode mode, boolean blocking) {
        checkSend(c, count, type, dest, tag);
        MessageData data = BufferView.of(buf, count, type.desc, false);
        if (dest == MPI.PROC_NULL) {
            return null;
        }
        Engine e = JmpiRuntime.get().engine();
        int w = c.worldRank(dest);
        if (blocking && e.sendNowWaiting(data, w, c.context(), c.rank(), tag)) {
            return null;
        }
        RequestImpl now = blocking || mode != SendMode.STANDARD ? null
                : e.isendNow(data, w, c.context(), c.rank(), tag);
        return now != null ? now : e.isend(data, w, c.context(), c.rank(), tag, mode);
    }

    /** Send modes as the API names them; BUFFERED is handled here, the others by the engine. */
    enum Mode {
        STANDARD(SendMode.STANDARD), SYNCHRONOUS(SendMode.SYNCHRONOUS), READY(SendMode.READY), BUFFERED(null);

        final SendMode engineMode;

        Mode(SendMode engineMode) {
            this.engineMode = engineMode;
        }
    }

    /**
     * Starts a send in any mode; returns the request to wait on (null for PROC_NULL). A buffered send's request is
     * already complete: its data was copied.
     */
    final RequestImpl startSend(Communicator c, Object buf, long count, Datatype type, int dest, int tag, Mode mode) {
        if (mode != Mode.BUFFERED) {
            return startSend(c, buf, count, type, dest, tag, mode.engineMode);
        }
        checkSend(c, count, type, dest, tag);
        MessageData data = BufferView.of(buf, count, type.desc, false);
        if (dest == MPI.PROC_NULL) {
            return null;
        }
        BufferedSends.start(bsendPool, session == null ? null : session.bsendPool, c, data, dest, tag);
        return RequestImpl.completed(JmpiRuntime.get().progress(), dest, tag, data.bytes());
    }

    private void blockingSend(String call, Object buf, long count, Datatype type, int dest, int tag, Mode mode)
            throws MPIException {
        org.jmpi.runtime.events.PointToPointEvent ev = Jfr.p2p();
        try {
            RequestImpl s = startSend(live(), buf, count, type, dest, tag, mode);
            if (s != null) {
                awaitOk(s);
                JmpiRuntime.get().engine().release(s);
            }
            Jfr.p2p(ev, call, this, dest, tag, count, type);
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    /**
     * The non-blocking sends: small, so that C2 inlines them into the caller, where escape analysis can drop a
     * {@code Request} that does not leave the caller (the work is in {@link #startSendOutOfLine}, which jmpirun's JIT
     * hints keep out of line; see {@link #recv(Object, int, Datatype, int, int)}).
     */
    private Request nonBlockingSend(String call, Object buf, long count, Datatype type, int dest, int tag, Mode mode)
            throws MPIException {
        return Request.ofOwned(this, startSendOutOfLine(call, buf, count, type, dest, tag, mode), call);
    }

    private RequestImpl startSendOutOfLine(String call, Object buf, long count, Datatype type, int dest, int tag,
            Mode mode) throws MPIException {
        try {
            return startSend(live(), buf, count, type, dest, tag, mode);
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    private Prequest persistent(String call, Prequest.Kind kind, Object buf, int count, Datatype type, int peer,
            int tag) throws MPIException {
        try {
            Communicator c = live();
            checkCount(count);
            checkType(type);
            if (kind == Prequest.Kind.RECV) {
                checkSource(c, peer);
                checkRecvTag(tag);
            } else {
                checkDest(c, peer);
                checkSendTag(tag);
            }
            BufferView.of(buf, count, type.desc, kind == Prequest.Kind.RECV); // check the buffer now
            return new Prequest(this, call, kind, buf, count, type, peer, tag);
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    /** Posts a receive; null for PROC_NULL. */
    final RecvRequest startRecv(Communicator c, Object buf, long count, Datatype type, int source, int tag) {
        checkCount(count);
        checkType(type);
        int src = checkSource(c, source);
        int t = checkRecvTag(tag);
        MessageData data = BufferView.of(buf, count, type.desc, true);
        if (source == MPI.PROC_NULL) {
            return null;
        }
        return JmpiRuntime.get().engine().irecvFromApplication(data, c.context(), src, t);
    }

    /** Waits for a request and raises its error, if any, through this communicator's handler. */
    static void awaitOk(RequestImpl r) {
        JmpiRuntime.get().progress().await(r);
        if (r.error() != 0) {
            throw blockingReceiveError(r);
        }
    }

    static Status procNullStatus() {
        Status s = new Status();
        s.source = MPI.PROC_NULL;
        s.tag = MPI.ANY_TAG;
        return s;
    }

    /** Like {@link #dup()}, for {@code Cloneable}: an error becomes a RuntimeException (as in Open MPI). */
    public Comm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /** A new, unconnected object of this communicator's class, for dup and its kin. */
    Comm blank() {
        return new Comm();
    }

    /** A duplicate: same group, new context; inherits the error handler, attributes, info and topology. */
    public Comm dup() throws MPIException {
        return CommOps.dup(this, blank(), null, "MPI_Comm_dup");
    }

    /**
     * Starts a duplication and returns at once; the duplicate may be used once its request ({@link #getRequest()} of
     * the result) completes.
     */
    public Comm iDup() throws MPIException {
        return CommOps.iDup(this, blank());
    }

    public Comm dupWithInfo(Info info) throws MPIException {
        return CommOps.dup(this, blank(), info, "MPI_Comm_dup_with_info");
    }

    /** MPI_Comm_idup_with_info (MPI 4.0): {@link #iDup()} whose duplicate takes {@code info} as its hints. */
    public Comm iDupWithInfo(Info info) throws MPIException {
        return CommOps.iDup(this, blank(), info, "MPI_Comm_idup_with_info");
    }

    public final Request getRequest() {
        return request != null ? request : new Request();
    }

    public final int getSize() throws MPIException {
        try {
            return live().localSize();
        } catch (MpiError e) {
            throw fail("MPI_Comm_size", e);
        }
    }

    public final int getRank() throws MPIException {
        try {
            return live().rank();
        } catch (MpiError e) {
            throw fail("MPI_Comm_rank", e);
        }
    }

    /** {@link MPI#IDENT}, {@link MPI#CONGRUENT}, {@link MPI#SIMILAR} or {@link MPI#UNEQUAL}. */
    public static int compare(Comm comm1, Comm comm2) throws MPIException {
        try {
            if (comm1 == null || comm2 == null) {
                throw new MpiError(ErrorClass.ERR_COMM, "invalid communicator (null)");
            }
            return CommOps.compare(comm1.live(), comm2.live());
        } catch (MpiError e) {
            throw (comm1 != null ? comm1 : MPI.COMM_WORLD).fail("MPI_Comm_compare", e);
        }
    }

    /** Frees the communicator (its context returns to the pool); {@link #isNull()} is true afterwards. */
    public final void free() throws MPIException {
        try {
            CommOps.free(this);
        } catch (MpiError e) {
            throw fail("MPI_Comm_free", e);
        }
    }

    public final boolean isNull() {
        return nullHandle;
    }

    /** Sets the communicator's hints (a copy of {@code info}); jmpi reads none of them but returns them. */
    public final void setInfo(Info info) throws MPIException {
        try {
            live();
            if (info == null) {
                throw new MpiError(ErrorClass.ERR_INFO, "null info object");
            }
            this.info = info.isNull() ? null : info.dup();
        } catch (MpiError e) {
            throw fail("MPI_Comm_set_info", e);
        }
    }

    /** A new info object holding the hints set on this communicator. */
    public final Info getInfo() throws MPIException {
        try {
            live();
            return info != null ? info.dup() : new Info();
        } catch (MpiError e) {
            throw fail("MPI_Comm_get_info", e);
        }
    }

    /**
     * MPI_Comm_disconnect: waits for the communicator's pending traffic (a barrier over both groups of an
     * intercommunicator), frees it, and for one made by connect, accept or spawn closes the connections to the other
     * job's processes that no other such communicator holds.
     */
    public final void disconnect() throws MPIException {
        try {
            Communicator c = live();
            org.jmpi.dpm.DynamicProcesses.disconnect(c);
            CommOps.free(this);
        } catch (MpiError e) {
            throw fail("MPI_Comm_disconnect", e);
        }
    }

    public final Group getGroup() throws MPIException {
        try {
            Communicator c = live();
            int[] local = c.localWorldRanks();
            return new Group(local, local[c.rank()]);
        } catch (MpiError e) {
            throw fail("MPI_Comm_group", e);
        }
    }

    public final boolean isInter() throws MPIException {
        try {
            return live().isInter();
        } catch (MpiError e) {
            throw fail("MPI_Comm_test_inter", e);
        }
    }

    /**
     * MPI_Intercomm_create, called on the peer communicator (significant at the local leader only, which must reach
     * the remote leader through it): every process of {@code localComm} calls it.
     */
    public final Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader, int tag) throws MPIException {
        try {
            if (localComm == null) {
                throw new MpiError(ErrorClass.ERR_COMM, "invalid local communicator (null)");
            }
            Communicator local = localComm.live();
            if (local.isInter()) {
                throw new MpiError(ErrorClass.ERR_COMM, "the local communicator must be an intracommunicator");
            }
            if (localLeader < 0 || localLeader >= local.size()) {
                throw new MpiError(ErrorClass.ERR_RANK, "invalid local leader " + localLeader
                        + " (communicator of size " + local.size() + ")");
            }
            Communicator peer = null;
            if (local.rank() == localLeader) {
                peer = live();
                checkDest(peer, remoteLeader);
                checkSendTag(tag);
                if (remoteLeader == MPI.PROC_NULL) {
                    throw new MpiError(ErrorClass.ERR_RANK, "invalid remote leader PROC_NULL");
                }
            }
            Communicator inter = org.jmpi.comm.Intercomms.create(local, localLeader, peer, remoteLeader, tag);
            return CommOps.adopt(localComm, new Intercomm(), inter, false);
        } catch (MpiError e) {
            throw fail("MPI_Intercomm_create", e);
        }
    }

    public final void send(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        org.jmpi.runtime.events.PointToPointEvent ev = Jfr.p2p();
        try {
            RequestImpl s = startBlockingSend(live(), buf, count, type, dest, tag);
            if (s != null) {
                awaitOk(s);
                JmpiRuntime.get().engine().release(s);
            }
            Jfr.p2p(ev, "MPI_Send", this, dest, tag, count, type);
        } catch (MpiError e) {
            throw fail("MPI_Send", e);
        }
    }

    public final Status recv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        return receive(buf, count, type, source, tag, "MPI_Recv");
    }

    // MPI 4.0's large counts (the _c calls): a long count, for more than 2^31 - 1 elements of a memory segment (any
    // buffer takes them, with the usual checks). The buffer stays an Object, so that a call with an int count still
    // has one most specific method (the int one, a Buffer form before it) and existing programs compile unchanged.

    /** MPI_Send_c: {@link #send(Object, int, Datatype, int, int)} with a {@code long} count. */
    public final void send(Object buf, long count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend("MPI_Send_c", buf, count, type, dest, tag, Mode.STANDARD);
    }

    /**
     * MPI_Recv_c: {@link #recv(Object, int, Datatype, int, int)} with a {@code long} count; the status's
     * {@link Status#getCountLong} tells how many elements came.
     */
    public final Status recv(Object buf, long count, Datatype type, int source, int tag) throws MPIException {
        return receive(buf, count, type, source, tag, "MPI_Recv_c");
    }

    /** MPI_Isend_c: {@link #iSend(Object, int, Datatype, int, int)} with a {@code long} count. */
    public final Request iSend(Object buf, long count, Datatype type, int dest, int tag) throws MPIException {
        return nonBlockingSend("MPI_Isend_c", buf, count, type, dest, tag, Mode.STANDARD);
    }

    /** MPI_Irecv_c: {@link #iRecv(Object, int, Datatype, int, int)} with a {@code long} count. */
    public final Request iRecv(Object buf, long count, Datatype type, int source, int tag) throws MPIException {
        return nonBlockingRecv(buf, count, type, source, tag);
    }

    /**
     * MPI_Recv, or the receive of an MPI_Sendrecv ({@code call}) whose send is done. Small on purpose: compiled on its
     * own it stays small, so C2 inlines it into the caller, and a Status the caller ignores (the usual case) is then
     * never allocated (escape analysis). The work is in the out-of-line calls: the lane first, else the usual way.
     */
    private Status receive(Object buf, long count, Datatype type, int source, int tag, String call)
            throws MPIException {
        long n = receiveNowOutOfLine(buf, count, type, source, tag, call);
        if (n >= 0) {
            Status s = new Status();
            s.source = source;
            s.tag = tag;
            s.bytes = n;
            return s;
        }
        RecvRequest r = awaitReceiveOutOfLine(buf, count, type, source, tag, call);
        if (r == null) {
            return procNullStatus();
        }
        Status s = Status.of(r);
        releaseReceiveOutOfLine(r, type, call);
        return s;
    }

    /**
     * A blocking receive ({@code call}: MPI_Recv or MPI_Sendrecv) done through the engine's lane: the bytes received,
     * or -1 when the lane did not take it (nothing received; the caller receives the usual way, which checks the
     * arguments again and raises their errors). Only receives with an exact source and tag try the lane.
     */
    private long receiveNowOutOfLine(Object buf, long count, Datatype type, int source, int tag, String call)
            throws MPIException {
        if (source < 0 || tag < 0 || count < 0 || type == null || type.isNull()) {
            return -1; // wildcards, PROC_NULL and bad arguments: the usual way
        }
        org.jmpi.runtime.events.PointToPointEvent ev = Jfr.p2p();
        try {
            Communicator c = live();
            if (source >= c.size()) {
                return -1;
            }
            MessageData data = BufferView.of(buf, count, type.desc, true);
            long n = JmpiRuntime.get().engine().receiveNow(data, c.context(), c.worldRank(source), source, tag);
            if (n >= 0) {
                Jfr.p2pReceived(ev, call, this, source, tag, n, type);
            }
            return n;
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }


    /** MPI_Recv up to the data's arrival: the request, done and without error, or null for MPI.PROC_NULL. */
    private RecvRequest awaitReceiveOutOfLine(Object buf, long count, Datatype type, int source, int tag,
            String call) throws MPIException {
        org.jmpi.runtime.events.PointToPointEvent ev = Jfr.p2p();
        try {
            RecvRequest r = startRecv(live(), buf, count, type, source, tag);
            if (r == null) {
                return null;
            }
            JmpiRuntime.get().progress().await(r);
            if (r.error() != 0) {
                throw blockingReceiveError(r);
            }
            r.apiEvent(ev);
            return r;
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    /**
     * MPI_Recv or MPI_Sendrecv ({@code call}) after its Status was taken: the flight recorder's event, and the request
     * back to the engine.
     */
    private void releaseReceiveOutOfLine(RecvRequest r, Datatype type, String call) {
        Object ev = r.apiEvent();
        if (ev != null) {
            r.apiEvent(null);
            Jfr.p2pReceived((org.jmpi.runtime.events.PointToPointEvent) ev, call, this, r.source(), r.tag(),
                    r.bytes(), type);
        }
        JmpiRuntime.get().engine().release(r);
    }

    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag, Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag) throws MPIException {
        // Small, as recv: a Status the caller ignores is then never allocated
        long sent = sendNowOutOfLine(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                source, recvtag);
        if (sent == 0) {
            // the receive's arguments are checked: from MPI.PROC_NULL (a halo's edge) nothing comes
            return source == MPI.PROC_NULL ? procNullStatus()
                    : receive(recvbuf, recvcount, recvtype, source, recvtag, "MPI_Sendrecv");
        }
        if (sent > 0) {
            try {
                return receive(recvbuf, recvcount, recvtype, source, recvtag, "MPI_Sendrecv");
            } finally {
                awaitReadOutOfLine(dest, sent);
            }
        }
        return sendRecvUsual("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                recvtype, source, recvtag);
    }

    /**
     * MPI_Sendrecv_c: {@link #sendRecv(Object, int, Datatype, int, int, Object, int, Datatype, int, int)} with
     * {@code long} counts.
     */
    public final Status sendRecv(Object sendbuf, long sendcount, Datatype sendtype, int dest, int sendtag,
            Object recvbuf, long recvcount, Datatype recvtype, int source, int recvtag) throws MPIException {
        return sendRecvUsual("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                recvtype, source, recvtag);
    }

    /** MPI_Sendrecv ({@code call}) the usual way: the receive posted, the send done, then the receive awaited. */
    private Status sendRecvUsual(String call, Object sendbuf, long sendcount, Datatype sendtype, int dest,
            int sendtag, Object recvbuf, long recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        RecvRequest r = sendRecvOutOfLine(call, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                recvtype, source, recvtag);
        if (r == null) {
            return procNullStatus();
        }
        Status st = Status.of(r);
        releaseReceiveOutOfLine(r, recvtype, call);
        return st;
    }

    /**
     * The send of an MPI_Sendrecv, if the engine's lane takes it at once (an eager message: it needs no receive posted
     * first): 0, and the caller receives as MPI_Recv does; or the ticket of a message the lane took by address
     * ({@link org.jmpi.pt2pt.Engine#sendNowDeferred}: a large one in native memory, which the peer copies straight out
     * of {@code sendbuf}), and the caller receives, then waits until the peer has read it
     * ({@link #awaitReadOutOfLine}); else -1, nothing done (the caller posts the receive and sends the usual way). The
     * receive's arguments are checked first, so that an error comes before any send. Exact source and tag only.
     */
    private long sendNowOutOfLine(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
            Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag) throws MPIException {
        if (dest < MPI.PROC_NULL || source == MPI.ANY_SOURCE || source < MPI.PROC_NULL || recvtag < 0) {
            return -1; // wildcards (and bad arguments): the usual way
        }
        try {
            Communicator c = live();
            checkSend(c, sendcount, sendtype, dest, sendtag);
            checkCount(recvcount);
            checkType(recvtype);
            checkSource(c, source);
            BufferView.check(recvbuf, recvcount, recvtype.desc, true);
            if (dest == MPI.PROC_NULL) {
                BufferView.check(sendbuf, sendcount, sendtype.desc, false);
                return 0;
            }
            MessageData out = BufferView.of(sendbuf, sendcount, sendtype.desc, false);
            return JmpiRuntime.get().engine().sendNowDeferred(out, c.worldRank(dest), c.context(), c.rank(), sendtag);
        } catch (MpiError e) {
            throw fail("MPI_Sendrecv", e);
        }
    }

    /** Waits until {@code dest} has read the message {@link #sendNowOutOfLine} sent by address with {@code ticket}. */
    private void awaitReadOutOfLine(int dest, long ticket) {
        JmpiRuntime.get().engine().awaitRead(impl.worldRank(dest), ticket);
    }

    /**
     * MPI_Sendrecv up to the received data's arrival: the receive request, done and without error (the send's request
     * already back to the engine), or null when the source is MPI.PROC_NULL.
     */
    private RecvRequest sendRecvOutOfLine(String call, Object sendbuf, long sendcount, Datatype sendtype, int dest,
            int sendtag, Object recvbuf, long recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        org.jmpi.runtime.events.PointToPointEvent ev = Jfr.p2p();
        try {
            Communicator c = live();
            checkSend(c, sendcount, sendtype, dest, sendtag);
            RecvRequest r = startRecv(c, recvbuf, recvcount, recvtype, source, recvtag);
            RequestImpl s = startSend(c, sendbuf, sendcount, sendtype, dest, sendtag, SendMode.STANDARD);
            if (s != null) {
                awaitOk(s);
                JmpiRuntime.get().engine().release(s);
            }
            if (r == null) {
                return null;
            }
            JmpiRuntime.get().progress().await(r);
            if (r.error() != 0) {
                throw blockingReceiveError(r);
            }
            r.apiEvent(ev);
            return r;
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag, int source, int recvtag) throws MPIException {
        if (replaceNowOutOfLine(buf, count, type, dest, sendtag, source, recvtag)) {
            return receive(buf, count, type, source, recvtag, "MPI_Sendrecv_replace");
        }
        try {
            RequestImpl[] sr = startReplace(live(), buf, count, type, dest, sendtag, source, recvtag);
            if (sr[0] != null) {
                awaitOk(sr[0]);
            }
            RequestImpl r = sr[1];
            if (r == null) {
                return procNullStatus();
            }
            JmpiRuntime.get().progress().await(r);
            Status st = Status.of(r);
            if (r.error() != 0) {
                throw blockingReceiveError(r);
            }
            return st;
        } catch (MpiError e) {
            throw fail("MPI_Sendrecv_replace", e);
        }
    }

    /**
     * The send of an MPI_Sendrecv_replace, if the engine's lane takes it at once as an eager message
     * ({@link org.jmpi.pt2pt.Engine#sendNow}: written into the peer's ring, never read from {@code buf} later): true,
     * and the caller receives into {@code buf} as MPI_Recv does, with no copy of the outgoing data and no request.
     * Else false, nothing done: the usual way copies the data, then sends and receives. The receive's arguments are
     * checked first. Exact source and tag only.
     */
    private boolean replaceNowOutOfLine(Object buf, int count, Datatype type, int dest, int sendtag, int source,
            int recvtag) throws MPIException {
        if (dest < 0 || source < 0 || recvtag < 0) {
            return false; // wildcards, MPI.PROC_NULL (and bad arguments): the usual way
        }
        try {
            Communicator c = live();
            checkSend(c, count, type, dest, sendtag);
            checkSource(c, source);
            MessageData data = BufferView.of(buf, count, type.desc, true);
            return JmpiRuntime.get().engine().sendNow(data, c.worldRank(dest), c.context(), c.rank(), sendtag);
        } catch (MpiError e) {
            throw fail("MPI_Sendrecv_replace", e);
        }
    }

    /**
     * Checks the arguments of a sendrecv-replace and starts both halves: the send of a copy of the data (the receive
     * overwrites the buffer) and the receive; each null for PROC_NULL.
     */
    private static RequestImpl[] startReplace(Communicator c, Object buf, int count, Datatype type, int dest,
            int sendtag, int source, int recvtag) {
        checkCount(count);
        checkType(type);
        checkDest(c, dest);
        checkSendTag(sendtag);
        int src = checkSource(c, source);
        int rtag = checkRecvTag(recvtag);
        MessageData data = BufferView.of(buf, count, type.desc, true);
        Engine engine = JmpiRuntime.get().engine();
        SendRequest s = dest == MPI.PROC_NULL ? null : engine.isend(copyOf(data), c.worldRank(dest), c.context(),
                c.rank(), sendtag, SendMode.STANDARD);
        RecvRequest r = source == MPI.PROC_NULL ? null : engine.irecvFromApplication(data, c.context(), src, rtag);
        return new RequestImpl[] {s, r};
    }

    /**
     * MPI_Isendrecv (MPI 4.0): starts a send and a receive together; the request completes when both have, and its
     * status is the receive's. Buffers may be Java arrays or java.nio buffers; neither may be touched until then.
     */
    public final Request iSendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag, Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag) throws MPIException {
        try {
            Communicator c = live();
            checkSend(c, sendcount, sendtype, dest, sendtag);
            RecvRequest r = startRecv(c, recvbuf, recvcount, recvtype, source, recvtag);
            RequestImpl s = startSend(c, sendbuf, sendcount, sendtype, dest, sendtag, SendMode.STANDARD);
            return Request.of(this, new org.jmpi.pt2pt.SendRecvRequest(JmpiRuntime.get().progress(), s, r),
                    "MPI_Isendrecv");
        } catch (MpiError e) {
            throw fail("MPI_Isendrecv", e);
        }
    }

    /**
     * MPI_Isendrecv_replace (MPI 4.0): sends the contents of {@code buf} and receives into it. The outgoing data is
     * copied at the call, so the receive may land at once.
     */
    public final Request iSendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag, int source, int recvtag) throws MPIException {
        try {
            RequestImpl[] sr = startReplace(live(), buf, count, type, dest, sendtag, source, recvtag);
            return Request.of(this, new org.jmpi.pt2pt.SendRecvRequest(JmpiRuntime.get().progress(), sr[0], sr[1]),
                    "MPI_Isendrecv_replace");
        } catch (MpiError e) {
            throw fail("MPI_Isendrecv_replace", e);
        }
    }

    /** The packed bytes of {@code data}, copied (the send half of a sendrecv-replace). */
    private static MessageData copyOf(MessageData data) {
        long n = data.bytes();
        if (n > Integer.MAX_VALUE - 8) {
            throw new MpiError(ErrorClass.ERR_COUNT, "sendRecvReplace of more than 2 GiB is not supported");
        }
        java.lang.foreign.MemorySegment copy = java.lang.foreign.MemorySegment.ofArray(new byte[(int) n]);
        data.packTo(0, copy, 0, n);
        return new MessageData.SegmentData(copy);
    }

    /**
     * MPI_Psend_init (MPI 4.0): a partitioned send of {@code partitions} parts of {@code count} elements each, from
     * {@code buf} (a Java array, a java.nio buffer or a MemorySegment). After each {@link Prequest#start()}, every
     * partition is marked ready once ({@link Prequest#pReady}) and travels then. Tags below 2^30.
     */
    public final Prequest pSendInit(Object buf, int partitions, int count, Datatype type, int dest, int tag) throws MPIException {
        return partitionedInit("MPI_Psend_init", true, buf, partitions, count, type, dest, tag);
    }

    /**
     * MPI_Precv_init (MPI 4.0): a partitioned receive into {@code partitions} parts of {@code count} elements; it
     * matches a partitioned send of the same size in bytes (the two may have different partition counts), in init
     * order. {@link Prequest#pArrived} tells when a part has arrived.
     */
    public final Prequest pRecvInit(Object buf, int partitions, int count, Datatype type, int source, int tag) throws MPIException {
        return partitionedInit("MPI_Precv_init", false, buf, partitions, count, type, source, tag);
    }

    private Prequest partitionedInit(String call, boolean send, Object buf, int partitions, int count, Datatype type,
            int peer, int tag) throws MPIException {
        try {
            Communicator c = live(); // on an intercommunicator, peer is a rank of the remote group
            checkCount(count);
            checkType(type);
            if (partitions < 1) {
                throw new MpiError(ErrorClass.ERR_ARG, "partitions must be 1 or more, not " + partitions);
            }
            long total = (long) partitions * count;
            if (total > Integer.MAX_VALUE) {
                throw new MpiError(ErrorClass.ERR_COUNT, partitions + " partitions of " + count
                        + " elements are more than 2^31 - 1 elements");
            }
            if (send) {
                checkDest(c, peer);
                checkSendTag(tag);
            } else {
                if (peer == MPI.ANY_SOURCE) {
                    throw new MpiError(ErrorClass.ERR_RANK, "a partitioned receive takes no MPI.ANY_SOURCE");
                }
                if (tag == MPI.ANY_TAG) {
                    throw new MpiError(ErrorClass.ERR_TAG, "a partitioned receive takes no MPI.ANY_TAG");
                }
                checkSource(c, peer);
                checkRecvTag(tag);
            }
            MessageData data = BufferView.of(buf, (int) total, type.desc, !send);
            long partBytes = (long) count * type.desc.size();
            org.jmpi.pt2pt.Partitioned part = send
                    ? org.jmpi.pt2pt.Partitioned.sendInit(c, data, partitions, partBytes, peer, tag)
                    : org.jmpi.pt2pt.Partitioned.recvInit(c, data, partitions, partBytes, peer, tag);
            return new Prequest(this, call, part);
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    /**
     * MPI_Comm_attach_buffer (MPI 4.1): a buffer for this communicator's buffered sends, used instead of the
     * process's ({@link MPI#attachBuffer}).
     */
    public final void attachBuffer(byte[] buffer) throws MPIException {
        try {
            live();
            synchronized (this) {
                if (bsendPool == null) {
                    bsendPool = new BufferedSends.Pool();
                }
            }
            bsendPool.attach(buffer);
        } catch (MpiError e) {
            throw fail("MPI_Comm_attach_buffer", e);
        }
    }

    /** MPI_Comm_detach_buffer (MPI 4.1): waits until its buffered messages have left, then returns the buffer. */
    public final byte[] detachBuffer() throws MPIException {
        try {
            live();
            BufferedSends.Pool p = bsendPool;
            if (p == null) {
                throw new MpiError(ErrorClass.ERR_BUFFER, "no buffer is attached to this communicator");
            }
            return p.detach();
        } catch (MpiError e) {
            throw fail("MPI_Comm_detach_buffer", e);
        }
    }

    /**
     * MPI_Comm_flush_buffer (MPI 4.1): waits until every message buffered in this communicator's buffer has left
     * (nothing to wait for when it has none).
     */
    public final void flushBuffer() throws MPIException {
        try {
            live();
            BufferedSends.Pool p = bsendPool;
            if (p != null) {
                p.flush();
            }
        } catch (MpiError e) {
            throw fail("MPI_Comm_flush_buffer", e);
        }
    }

    /** Buffered send: copies the data into the attached buffer's space and returns; ERR_BUFFER if it does not fit. */
    public final void bSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend("MPI_Bsend", buf, count, type, dest, tag, Mode.BUFFERED);
    }

    /** Synchronous send: returns only once the matching receive has started. */
    public final void sSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend("MPI_Ssend", buf, count, type, dest, tag, Mode.SYNCHRONOUS);
    }

    /** Ready send: the matching receive must already be posted; behaves as a standard send. */
    public final void rSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend("MPI_Rsend", buf, count, type, dest, tag, Mode.READY);
    }

    /** MPI_Bsend_c: {@link #bSend(Object, int, Datatype, int, int)} with a {@code long} count. */
    public final void bSend(Object buf, long count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend("MPI_Bsend_c", buf, count, type, dest, tag, Mode.BUFFERED);
    }

    /** MPI_Ssend_c: {@link #sSend(Object, int, Datatype, int, int)} with a {@code long} count. */
    public final void sSend(Object buf, long count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend("MPI_Ssend_c", buf, count, type, dest, tag, Mode.SYNCHRONOUS);
    }

    /** MPI_Rsend_c: {@link #rSend(Object, int, Datatype, int, int)} with a {@code long} count. */
    public final void rSend(Object buf, long count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend("MPI_Rsend_c", buf, count, type, dest, tag, Mode.READY);
    }

    /** MPI_Ibsend_c: {@link #ibSend(Object, int, Datatype, int, int)} with a {@code long} count. */
    public final Request ibSend(Object buf, long count, Datatype type, int dest, int tag) throws MPIException {
        return nonBlockingSend("MPI_Ibsend_c", buf, count, type, dest, tag, Mode.BUFFERED);
    }

    /** MPI_Issend_c: {@link #isSend(Object, int, Datatype, int, int)} with a {@code long} count. */
    public final Request isSend(Object buf, long count, Datatype type, int dest, int tag) throws MPIException {
        return nonBlockingSend("MPI_Issend_c", buf, count, type, dest, tag, Mode.SYNCHRONOUS);
    }

    /** MPI_Irsend_c: {@link #irSend(Object, int, Datatype, int, int)} with a {@code long} count. */
    public final Request irSend(Object buf, long count, Datatype type, int dest, int tag) throws MPIException {
        return nonBlockingSend("MPI_Irsend_c", buf, count, type, dest, tag, Mode.READY);
    }

    /**
     * Starts a standard send. Heap and direct buffers are both accepted; the buffer must not be modified until the
     * request completes.
     */
    public final Request iSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonBlockingSend("MPI_Isend", buf, count, type, dest, tag, Mode.STANDARD);
    }

    /**
     * Starts a standard send from a Java array (a jmpi extension, as in MVAPICH2-J): the array must not be modified
     * until the request completes.
     */
    public final Request iSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonBlockingSend("MPI_Isend", buf, count, type, dest, tag, Mode.STANDARD);
    }

    public final Request ibSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonBlockingSend("MPI_Ibsend", buf, count, type, dest, tag, Mode.BUFFERED);
    }

    /** {@link #ibSend(Buffer, int, Datatype, int, int)} from a Java array (jmpi extension). */
    public final Request ibSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonBlockingSend("MPI_Ibsend", buf, count, type, dest, tag, Mode.BUFFERED);
    }

    public final Request isSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonBlockingSend("MPI_Issend", buf, count, type, dest, tag, Mode.SYNCHRONOUS);
    }

    /** {@link #isSend(Buffer, int, Datatype, int, int)} from a Java array (jmpi extension). */
    public final Request isSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonBlockingSend("MPI_Issend", buf, count, type, dest, tag, Mode.SYNCHRONOUS);
    }

    public final Request irSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonBlockingSend("MPI_Irsend", buf, count, type, dest, tag, Mode.READY);
    }

    /** {@link #irSend(Buffer, int, Datatype, int, int)} from a Java array (jmpi extension). */
    public final Request irSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonBlockingSend("MPI_Irsend", buf, count, type, dest, tag, Mode.READY);
    }

    /**
     * Starts a receive into a heap or direct buffer; the buffer must not be read or modified until the request
     * completes.
     */
    public final Request iRecv(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        return nonBlockingRecv(buf, count, type, source, tag);
    }

    /** Starts a receive into a Java array (jmpi extension); see {@link #iRecv(Buffer, int, Datatype, int, int)}. */
    public final Request iRecv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        return nonBlockingRecv(buf, count, type, source, tag);
    }

    /** Small, as {@link #nonBlockingSend}. */
    private Request nonBlockingRecv(Object buf, long count, Datatype type, int source, int tag) throws MPIException {
        return Request.ofOwned(this, startRecvOutOfLine(buf, count, type, source, tag), "MPI_Irecv");
    }

    private RecvRequest startRecvOutOfLine(Object buf, long count, Datatype type, int source, int tag)
            throws MPIException {
        try {
            return startRecv(live(), buf, count, type, source, tag);
        } catch (MpiError e) {
            throw fail("MPI_Irecv", e);
        }
    }

    public final Prequest sendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistent("MPI_Send_init", Prequest.Kind.SEND, buf, count, type, dest, tag);
    }

    /** {@link #sendInit(Buffer, int, Datatype, int, int)} over a Java array (jmpi extension). */
    public final Prequest sendInit(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistent("MPI_Send_init", Prequest.Kind.SEND, buf, count, type, dest, tag);
    }

    public final Prequest bSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistent("MPI_Bsend_init", Prequest.Kind.BSEND, buf, count, type, dest, tag);
    }

    /** {@link #bSendInit(Buffer, int, Datatype, int, int)} over a Java array (jmpi extension). */
    public final Prequest bSendInit(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistent("MPI_Bsend_init", Prequest.Kind.BSEND, buf, count, type, dest, tag);
    }

    public final Prequest sSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistent("MPI_Ssend_init", Prequest.Kind.SSEND, buf, count, type, dest, tag);
    }

    /** {@link #sSendInit(Buffer, int, Datatype, int, int)} over a Java array (jmpi extension). */
    public final Prequest sSendInit(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistent("MPI_Ssend_init", Prequest.Kind.SSEND, buf, count, type, dest, tag);
    }

    public final Prequest rSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistent("MPI_Rsend_init", Prequest.Kind.RSEND, buf, count, type, dest, tag);
    }

    /** {@link #rSendInit(Buffer, int, Datatype, int, int)} over a Java array (jmpi extension). */
    public final Prequest rSendInit(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistent("MPI_Rsend_init", Prequest.Kind.RSEND, buf, count, type, dest, tag);
    }

    public final Prequest recvInit(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        return persistent("MPI_Recv_init", Prequest.Kind.RECV, buf, count, type, source, tag);
    }

    /** {@link #recvInit(Buffer, int, Datatype, int, int)} over a Java array (jmpi extension). */
    public final Prequest recvInit(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        return persistent("MPI_Recv_init", Prequest.Kind.RECV, buf, count, type, source, tag);
    }

    /** Packs {@code incount} elements into {@code outbuf} at {@code position}; returns the new position. */
    public final int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position) throws MPIException {
        try {
            live();
            return Packing.pack(inbuf, incount, type, outbuf, position);
        } catch (MpiError e) {
            throw fail("MPI_Pack", e);
        }
    }

    /** Unpacks {@code outcount} elements from {@code inbuf} at {@code position}; returns the new position. */
    public final int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type) throws MPIException {
        try {
            live();
            return Packing.unpack(inbuf, position, outbuf, outcount, type);
        } catch (MpiError e) {
            throw fail("MPI_Unpack", e);
        }
    }

    /** The bytes {@link #pack} needs for {@code incount} elements of {@code type}. */
    public final int packSize(int incount, Datatype type) throws MPIException {
        try {
            live();
            return Packing.packSize(incount, type);
        } catch (MpiError e) {
            throw fail("MPI_Pack_size", e);
        }
    }

    public final Status iProbe(int source, int tag) throws MPIException {
        try {
            Communicator c = live();
            int src = checkSource(c, source);
            int t = checkRecvTag(tag);
            if (source == MPI.PROC_NULL) {
                return procNullStatus();
            }
            Engine engine = JmpiRuntime.get().engine();
            RequestImpl found = engine.iprobe(c.context(), src, t);
            if (found == null) {
                engine.checkProbe(c.context(), src);
                return null;
            }
            return Status.of(found);
        } catch (MpiError e) {
            throw fail("MPI_Iprobe", e);
        }
    }

    public final Status probe(int source, int tag) throws MPIException {
        org.jmpi.runtime.events.PointToPointEvent ev = Jfr.p2p();
        try {
            Communicator c = live();
            int src = checkSource(c, source);
            int t = checkRecvTag(tag);
            if (source == MPI.PROC_NULL) {
                return procNullStatus();
            }
            Engine engine = JmpiRuntime.get().engine();
            RequestImpl[] found = new RequestImpl[1];
            JmpiRuntime.get().progress().awaitUntil(() -> (found[0] = engine.iprobe(c.context(), src, t)) != null
                    || engine.probeFailure(c.context(), src) != 0);
            if (found[0] == null) {
                engine.checkProbe(c.context(), src);
            }
            Status st = Status.of(found[0]);
            Jfr.p2pReceived(ev, "MPI_Probe", this, st, null);
            return st;
        } catch (MpiError e) {
            throw fail("MPI_Probe", e);
        }
    }

    /** A new communicator attribute key (no callbacks; values are copied on dup, as in Open MPI). */
    public static int createKeyval() throws MPIException {
        try {
            JmpiRuntime.get();
            return Attributes.COMM.create();
        } catch (MpiError e) {
            throw Errors.raise("MPI_Comm_create_keyval", e);
        }
    }

    public static void freeKeyval(int keyval) throws MPIException {
        try {
            JmpiRuntime.get();
            Attributes.COMM.free(keyval);
        } catch (MpiError e) {
            throw Errors.raise("MPI_Comm_free_keyval", e);
        }
    }

    /** Attaches {@code value} (stored serialised: it must be {@link java.io.Serializable}). */
    public final void setAttr(int keyval, Object value) throws MPIException {
        try {
            live();
            attributes().set(keyval, value);
        } catch (MpiError e) {
            throw fail("MPI_Comm_set_attr", e);
        }
    }

    /**
     * The value under {@code keyval} (a copy), or null when none is set. The predefined keys read as Open MPI's
     * do: {@code MPI.TAG_UB}, {@code HOST}, {@code IO}, {@code APPNUM}, {@code LASTUSEDCODE}, {@code UNIVERSE_SIZE}
     * as Integer, {@code WTIME_IS_GLOBAL} as Boolean.
     */
    public final Object getAttr(int keyval) throws MPIException {
        try {
            live();
            if (Attributes.isPredefined(keyval)) {
                return Attributes.predefined(keyval, JmpiRuntime.get().size());
            }
            return attributes().get(keyval);
        } catch (MpiError e) {
            throw fail("MPI_Comm_get_attr", e);
        }
    }

    public final void deleteAttr(int keyval) throws MPIException {
        try {
            live();
            attributes().delete(keyval);
        } catch (MpiError e) {
            throw fail("MPI_Comm_delete_attr", e);
        }
    }

    private synchronized Attributes attributes() {
        if (attributes == null) {
            attributes = new Attributes(Attributes.COMM);
        }
        return attributes;
    }

    /** {@link MPI#CART}, {@link MPI#GRAPH}, {@link MPI#DIST_GRAPH} or {@link MPI#UNDEFINED}. */
    public final int getTopology() throws MPIException {
        try {
            live();
            return topology instanceof org.jmpi.topo.CartTopology ? MPI.CART
                    : topology instanceof org.jmpi.topo.GraphTopology ? MPI.GRAPH
                    : topology instanceof org.jmpi.topo.DistGraphTopology ? MPI.DIST_GRAPH : MPI.UNDEFINED;
        } catch (MpiError e) {
            throw fail("MPI_Topo_test", e);
        }
    }

    public final void abort(int errorcode) throws MPIException {
        JmpiRuntime rt;
        try {
            rt = JmpiRuntime.get();
        } catch (MpiError e) {
            throw fail("MPI_Abort", e);
        }
        String line = "jmpi: rank " + rt.rank() + ": MPI_Abort called with error code " + errorcode;
        System.out.flush();
        System.err.println(line);
        System.err.flush();
        rt.abort(errorcode, line);
    }

    public final void setErrhandler(Errhandler errhandler) throws MPIException {
        try {
            live();
            if (errhandler == null) {
                throw new MpiError(ErrorClass.ERR_ARG, "null error handler");
            }
            this.errhandler = errhandler;
        } catch (MpiError e) {
            throw fail("MPI_Comm_set_errhandler", e);
        }
    }

    public final Errhandler getErrhandler() throws MPIException {
        try {
            live();
            return errhandler;
        } catch (MpiError e) {
            throw fail("MPI_Comm_get_errhandler", e);
        }
    }

    public void callErrhandler(int errorCode) throws MPIException {
        try {
            live();
        } catch (MpiError e) {
            throw fail("MPI_Comm_call_errhandler", e);
        }
        if (errhandler == MPI.ERRORS_RETURN) {
            // the handler "returns the error": the call itself returns normally (MPI-4.1, 9.3.4)
            return;
        }
        throw fail("MPI_Comm_call_errhandler",
                new MpiError(errorCode, "error raised by the application (code " + errorCode + ")"));
    }

    public final void barrier() throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Barrier", call -> InterCollectives.barrier(ic, call));
            return;
        }
        CollectiveCalls.barrier(this);
    }

    public final Request iBarrier() throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Ibarrier", call -> InterCollectives.barrier(ic, call));
        }
        return CollectiveCalls.iBarrier(this);
    }

    public final void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Bcast", call -> InterCollectives.bcast(ic, call, buf, count, type, root));
            return;
        }
        CollectiveCalls.bcastBlocking(this, buf, count, type, root);
    }

    /**
     * MPI_Bcast_c: {@link #bcast(Object, int, Datatype, int)} with a {@code long} count (above 2^31 - 1 elements, in
     * pieces: every rank passes the same datatype, see docs/mpi-4.md).
     */
    public final void bcast(Object buf, long count, Datatype type, int root) throws MPIException {
        LargeCounts.run(this, "MPI_Bcast_c", type, count, buf, null, (a, b, n) -> bcast(a, n, type, root));
    }

    public final Request iBcast(Buffer buf, int count, Datatype type, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Ibcast", call -> InterCollectives.bcast(ic, call, buf, count, type, root));
        }
        return CollectiveCalls.begin(this, "MPI_Ibcast", CollectiveCalls.bcast(buf, count, type, root));
    }

    public final void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Gather", call ->
                    InterCollectives.gather(ic, call, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                    recvtype, root));
            return;
        }
        CollectiveCalls.gatherBlocking(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, false);
    }

    public final void gather(Object buf, int count, Datatype type, int root) throws MPIException {
        CollectiveCalls.gatherBlocking(this, null, 0, null, buf, count, type, root, true);
    }

    public final Request iGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Igather", call ->
                    InterCollectives.gather(ic, call, sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype, root));
        }
        return CollectiveCalls.begin(this, "MPI_Igather",
                CollectiveCalls.gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, false));
    }

    public final Request iGather(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return CollectiveCalls.begin(this, "MPI_Igather",
                CollectiveCalls.gather(null, 0, null, buf, count, type, root, true));
    }

    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Gatherv", call ->
                    InterCollectives.gatherv(ic, call, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs,
                    recvtype, root));
            return;
        }
        CollectiveCalls.run(this, "MPI_Gatherv",
                CollectiveCalls.gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root, 0));
    }

    public final void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        CollectiveCalls.run(this, "MPI_Gatherv",
                CollectiveCalls.gatherv(null, 0, null, recvbuf, recvcount, displs, recvtype, root, 1));
    }

    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Gatherv", call ->
                    InterCollectives.gatherv(ic, call, sendbuf, sendcount, sendtype, null, null, null, null,
                    root));
            return;
        }
        CollectiveCalls.run(this, "MPI_Gatherv",
                CollectiveCalls.gatherv(sendbuf, sendcount, sendtype, null, null, null, null, root, 2));
    }

    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Igatherv", call ->
                    InterCollectives.gatherv(ic, call, sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, displs, recvtype, root));
        }
        return CollectiveCalls.begin(this, "MPI_Igatherv",
                CollectiveCalls.gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root, 0));
    }

    public final Request iGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        return CollectiveCalls.begin(this, "MPI_Igatherv",
                CollectiveCalls.gatherv(null, 0, null, recvbuf, recvcount, displs, recvtype, root, 1));
    }

    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Igatherv", call ->
                    InterCollectives.gatherv(ic, call, sendbuf, sendcount, sendtype, null, null,
                    null, null, root));
        }
        return CollectiveCalls.begin(this, "MPI_Igatherv",
                CollectiveCalls.gatherv(sendbuf, sendcount, sendtype, null, null, null, null, root, 2));
    }

    public final void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Scatter", call -> InterCollectives.scatter(ic, call, sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype, root));
            return;
        }
        CollectiveCalls.scatterBlocking(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, false);
    }

    public final void scatter(Object buf, int count, Datatype type, int root) throws MPIException {
        CollectiveCalls.scatterBlocking(this, buf, count, type, null, 0, null, root, true);
    }

    public final Request iScatter(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Iscatter", call ->
                    InterCollectives.scatter(ic, call, sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype, root));
        }
        return CollectiveCalls.begin(this, "MPI_Iscatter",
                CollectiveCalls.scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, false));
    }

    public final Request iScatter(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return CollectiveCalls.begin(this, "MPI_Iscatter",
                CollectiveCalls.scatter(buf, count, type, null, 0, null, root, true));
    }

    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Scatterv", call ->
                    InterCollectives.scatterv(ic, call, sendbuf, sendcount, displs, sendtype, recvbuf, recvcount,
                    recvtype, root));
            return;
        }
        CollectiveCalls.run(this, "MPI_Scatterv",
                CollectiveCalls.scatterv(sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype, root, 0));
    }

    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root) throws MPIException {
        CollectiveCalls.run(this, "MPI_Scatterv",
                CollectiveCalls.scatterv(sendbuf, sendcount, displs, sendtype, null, 0, null, root, 1));
    }

    public final void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Scatterv", call ->
                    InterCollectives.scatterv(ic, call, null, null, null, null, recvbuf, recvcount, recvtype,
                    root));
            return;
        }
        CollectiveCalls.run(this, "MPI_Scatterv",
                CollectiveCalls.scatterv(null, null, null, null, recvbuf, recvcount, recvtype, root, 2));
    }

    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Iscatterv", call ->
                    InterCollectives.scatterv(ic, call, sendbuf, sendcount, displs, sendtype,
                    recvbuf, recvcount, recvtype, root));
        }
        return CollectiveCalls.begin(this, "MPI_Iscatterv",
                CollectiveCalls.scatterv(sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype, root, 0));
    }

    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root) throws MPIException {
        return CollectiveCalls.begin(this, "MPI_Iscatterv",
                CollectiveCalls.scatterv(sendbuf, sendcount, displs, sendtype, null, 0, null, root, 1));
    }

    public final Request iScatterv(Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Iscatterv", call ->
                    InterCollectives.scatterv(ic, call, null, null, null, null, recvbuf,
                    recvcount, recvtype, root));
        }
        return CollectiveCalls.begin(this, "MPI_Iscatterv",
                CollectiveCalls.scatterv(null, null, null, null, recvbuf, recvcount, recvtype, root, 2));
    }

    public final void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Allgather", call ->
                    InterCollectives.allGather(ic, call, sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype));
            return;
        }
        CollectiveCalls.allGatherBlocking(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, false);
    }

    public final void allGather(Object buf, int count, Datatype type) throws MPIException {
        CollectiveCalls.allGatherBlocking(this, null, 0, null, buf, count, type, true);
    }

    public final Request iAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Iallgather", call ->
                    InterCollectives.allGather(ic, call, sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype));
        }
        return CollectiveCalls.begin(this, "MPI_Iallgather",
                CollectiveCalls.allGather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, false));
    }

    public final Request iAllGather(Buffer buf, int count, Datatype type) throws MPIException {
        return CollectiveCalls.begin(this, "MPI_Iallgather",
                CollectiveCalls.allGather(null, 0, null, buf, count, type, true));
    }

    public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Allgatherv", call ->
                    InterCollectives.allGatherv(ic, call, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                    displs, recvtype));
            return;
        }
        CollectiveCalls.run(this, "MPI_Allgatherv",
                CollectiveCalls.allGatherv(sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, false));
    }

    public final void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        CollectiveCalls.run(this, "MPI_Allgatherv",
                CollectiveCalls.allGatherv(null, 0, null, recvbuf, recvcount, displs, recvtype, true));
    }

    public final Request iAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Iallgatherv", call ->
                    InterCollectives.allGatherv(ic, call, sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, displs, recvtype));
        }
        return CollectiveCalls.begin(this, "MPI_Iallgatherv",
                CollectiveCalls.allGatherv(sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, false));
    }

    public final Request iAllGatherv(Buffer buf, int[] count, int[] displs, Datatype type) throws MPIException {
        return CollectiveCalls.begin(this, "MPI_Iallgatherv",
                CollectiveCalls.allGatherv(null, 0, null, buf, count, displs, type, true));
    }

    public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Alltoall", call -> InterCollectives.allToAll(ic, call, sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype));
            return;
        }
        CollectiveCalls.allToAllBlocking(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    }

    public final Request iAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Ialltoall", call ->
                    InterCollectives.allToAll(ic, call, sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype));
        }
        return CollectiveCalls.begin(this, "MPI_Ialltoall",
                CollectiveCalls.allToAll(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    public final void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Alltoallv", call ->
                    InterCollectives.allToAllv(ic, call, sendbuf, sendcount, sdispls, sendtype, recvbuf,
                    recvcount, rdispls, recvtype));
            return;
        }
        CollectiveCalls.run(this, "MPI_Alltoallv",
                CollectiveCalls.allToAllv(sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls,
                        recvtype));
    }

    public final Request iAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Ialltoallv", call ->
                    InterCollectives.allToAllv(ic, call, sendbuf, sendcount, sdispls, sendtype,
                    recvbuf, recvcount, rdispls, recvtype));
        }
        return CollectiveCalls.begin(this, "MPI_Ialltoallv",
                CollectiveCalls.allToAllv(sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls,
                        recvtype));
    }

    public final void allToAllw(Object sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes, Object recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Alltoallw", call ->
                    InterCollectives.allToAllw(ic, call, sendBuf, sendCount, sDispls, sendTypes, recvBuf,
                    recvCount, rDispls, recvTypes));
            return;
        }
        CollectiveCalls.run(this, "MPI_Alltoallw",
                CollectiveCalls.allToAllw(sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls,
                        recvTypes));
    }

    public final Request iAllToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes, Buffer recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Ialltoallw", call ->
                    InterCollectives.allToAllw(ic, call, sendBuf, sendCount, sDispls, sendTypes,
                    recvBuf, recvCount, rDispls, recvTypes));
        }
        return CollectiveCalls.begin(this, "MPI_Ialltoallw",
                CollectiveCalls.allToAllw(sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls,
                        recvTypes));
    }

    public final void neighborAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        neighborWait("MPI_Neighbor_allgather", () -> CommOps.allGather(this, sendbuf, sendcount, sendtype, recvbuf,
                recvcount, null, null, recvtype));
    }

    public final Request iNeighborAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        return neighborStart("MPI_Ineighbor_allgather", () -> CommOps.allGather(this, sendbuf, sendcount, sendtype,
                recvbuf, recvcount, null, null, recvtype));
    }

    public final void neighborAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        neighborWait("MPI_Neighbor_allgatherv", () -> CommOps.allGather(this, sendbuf, sendcount, sendtype, recvbuf,
                0, recvcount, displs, recvtype));
    }

    public final Request iNeighborAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        return neighborStart("MPI_Ineighbor_allgatherv", () -> CommOps.allGather(this, sendbuf, sendcount, sendtype,
                recvbuf, 0, recvcount, displs, recvtype));
    }

    public final void neighborAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        neighborWait("MPI_Neighbor_alltoall", () -> CommOps.allToAll(this, sendbuf, sendcount, null, null, sendtype,
                recvbuf, recvcount, null, null, recvtype));
    }

    public final Request iNeighborAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        return neighborStart("MPI_Ineighbor_alltoall", () -> CommOps.allToAll(this, sendbuf, sendcount, null, null,
                sendtype, recvbuf, recvcount, null, null, recvtype));
    }

    public final void neighborAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        neighborWait("MPI_Neighbor_alltoallv", () -> CommOps.allToAll(this, sendbuf, 0, sendcount, sdispls, sendtype,
                recvbuf, 0, recvcount, rdispls, recvtype));
    }

    public final Request iNeighborAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        return neighborStart("MPI_Ineighbor_alltoallv", () -> CommOps.allToAll(this, sendbuf, 0, sendcount, sdispls,
                sendtype, recvbuf, 0, recvcount, rdispls, recvtype));
    }

    /** Runs a blocking intercommunicator collective, raising its errors through this communicator's handler. */
    private void interColl(String call, java.util.function.Function<String, InterCollectives.Chain> build)
            throws MPIException {
        try {
            InterCollectives.run(build.apply(call));
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    /** Starts a non-blocking intercommunicator collective. */
    private Request interStart(String call, java.util.function.Function<String, InterCollectives.Chain> build)
            throws MPIException {
        try {
            return Request.of(this, build.apply(call).start(), call);
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    /**
     * A persistent intercommunicator collective (MPI 4.0): its chain of schedules is built now, so its collective
     * sequence numbers are those of the init call, and run again at each start.
     */
    private Prequest interInit(String call, java.util.function.Function<String, InterCollectives.Chain> build)
            throws MPIException {
        try {
            java.util.List<org.jmpi.coll.Schedule> parts = build.apply(call).persistentParts();
            return new Prequest(this, call, () -> org.jmpi.comm.ScheduleChain.restart(parts));
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    private void neighborWait(String call, java.util.function.Supplier<RequestImpl> start) throws MPIException {
        try {
            awaitOk(start.get());
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    // ------------------------------------------------------------------ MPI 4.0: persistent collectives

    /*
     * MPI 4.0 section 6.13. Each init call is a collective call (every rank, same order as the communicator's other
     * collectives) that builds the operation once and returns an inactive request; Prequest.start()/startAll start
     * it, the Request calls complete it, and it may be started again once complete. Buffers may be Java arrays or
     * java.nio buffers; their contents are read and written at each activation, not at init. On an intercommunicator the
     * forms of the blocking and non-blocking intercommunicator collectives (no in-place forms, no scans).
     */

    /** MPI_Barrier_init. */
    public final Prequest barrierInit() throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Barrier_init", call -> InterCollectives.barrier(ic, call));
        }
        return CollectiveCalls.persistent(this, "MPI_Barrier_init", (s, c) -> org.jmpi.coll.Collectives.barrier(s));
    }

    /** MPI_Bcast_init. */
    public final Prequest bcastInit(Object buf, int count, Datatype type, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Bcast_init", call -> InterCollectives.bcast(ic, call, buf, count, type, root));
        }
        return CollectiveCalls.persistent(this, "MPI_Bcast_init", CollectiveCalls.bcast(buf, count, type, root));
    }

    /** MPI_Reduce_init. */
    public final Prequest reduceInit(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Reduce_init", call ->
                    InterCollectives.reduce(ic, call, sendbuf, recvbuf, count, type, op, root));
        }
        return CollectiveCalls.persistent(this, "MPI_Reduce_init",
                CollectiveCalls.reduce(sendbuf, recvbuf, count, type, op, root, false));
    }

    /** MPI_Reduce_init in place: the root's {@code buf} holds its input and receives the result. */
    public final Prequest reduceInit(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        return CollectiveCalls.persistent(this, "MPI_Reduce_init",
                CollectiveCalls.reduce(null, buf, count, type, op, root, true));
    }

    /** MPI_Allreduce_init. */
    public final Prequest allReduceInit(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Allreduce_init", call ->
                    InterCollectives.allReduce(ic, call, sendbuf, recvbuf, count, type, op));
        }
        return CollectiveCalls.persistent(this, "MPI_Allreduce_init",
                CollectiveCalls.allReduce(sendbuf, recvbuf, count, type, op, false));
    }

    /** MPI_Allreduce_init in place. */
    public final Prequest allReduceInit(Object buf, int count, Datatype type, Op op) throws MPIException {
        return CollectiveCalls.persistent(this, "MPI_Allreduce_init",
                CollectiveCalls.allReduce(null, buf, count, type, op, true));
    }

    /** MPI_Gather_init. */
    public final Prequest gatherInit(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Gather_init", call -> InterCollectives.gather(ic, call, sendbuf, sendcount,
                    sendtype, recvbuf, recvcount, recvtype, root));
        }
        return CollectiveCalls.persistent(this, "MPI_Gather_init",
                CollectiveCalls.gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, false));
    }

    /** MPI_Gather_init in place (the form of {@link #gather(Object, int, Datatype, int)}). */
    public final Prequest gatherInit(Object buf, int count, Datatype type, int root) throws MPIException {
        return CollectiveCalls.persistent(this, "MPI_Gather_init",
                CollectiveCalls.gather(null, 0, null, buf, count, type, root, true));
    }

    /** MPI_Gatherv_init. */
    public final Prequest gathervInit(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Gatherv_init", call -> InterCollectives.gatherv(ic, call, sendbuf, sendcount,
                    sendtype, recvbuf, recvcount, displs, recvtype, root));
        }
        return CollectiveCalls.persistent(this, "MPI_Gatherv_init",
                CollectiveCalls.gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root, 0));
    }

    /** MPI_Gatherv_init, the root's in-place form. */
    public final Prequest gathervInit(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        return CollectiveCalls.persistent(this, "MPI_Gatherv_init",
                CollectiveCalls.gatherv(null, 0, null, recvbuf, recvcount, displs, recvtype, root, 1));
    }

    /** MPI_Gatherv_init, the form for ranks other than the root. */
    public final Prequest gathervInit(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Gatherv_init", call -> InterCollectives.gatherv(ic, call, sendbuf, sendcount,
                    sendtype, null, null, null, null, root));
        }
        return CollectiveCalls.persistent(this, "MPI_Gatherv_init",
                CollectiveCalls.gatherv(sendbuf, sendcount, sendtype, null, null, null, null, root, 2));
    }

    /** MPI_Scatter_init. */
    public final Prequest scatterInit(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Scatter_init", call -> InterCollectives.scatter(ic, call, sendbuf, sendcount,
                    sendtype, recvbuf, recvcount, recvtype, root));
        }
        return CollectiveCalls.persistent(this, "MPI_Scatter_init",
                CollectiveCalls.scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, false));
    }

    /** MPI_Scatter_init in place (the form of {@link #scatter(Object, int, Datatype, int)}). */
    public final Prequest scatterInit(Object buf, int count, Datatype type, int root) throws MPIException {
        return CollectiveCalls.persistent(this, "MPI_Scatter_init",
                CollectiveCalls.scatter(buf, count, type, null, 0, null, root, true));
    }

    /** MPI_Scatterv_init. */
    public final Prequest scattervInit(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Scatterv_init", call -> InterCollectives.scatterv(ic, call, sendbuf, sendcount,
                    displs, sendtype, recvbuf, recvcount, recvtype, root));
        }
        return CollectiveCalls.persistent(this, "MPI_Scatterv_init",
                CollectiveCalls.scatterv(sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype, root, 0));
    }

    /** MPI_Scatterv_init, the root's in-place form. */
    public final Prequest scattervInit(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root) throws MPIException {
        return CollectiveCalls.persistent(this, "MPI_Scatterv_init",
                CollectiveCalls.scatterv(sendbuf, sendcount, displs, sendtype, null, 0, null, root, 1));
    }

    /** MPI_Scatterv_init, the form for ranks other than the root. */
    public final Prequest scattervInit(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Scatterv_init", call -> InterCollectives.scatterv(ic, call, null, null, null,
                    null, recvbuf, recvcount, recvtype, root));
        }
        return CollectiveCalls.persistent(this, "MPI_Scatterv_init",
                CollectiveCalls.scatterv(null, null, null, null, recvbuf, recvcount, recvtype, root, 2));
    }

    /** MPI_Allgather_init. */
    public final Prequest allGatherInit(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Allgather_init", call -> InterCollectives.allGather(ic, call, sendbuf, sendcount,
                    sendtype, recvbuf, recvcount, recvtype));
        }
        return CollectiveCalls.persistent(this, "MPI_Allgather_init",
                CollectiveCalls.allGather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, false));
    }

    /** MPI_Allgather_init in place. */
    public final Prequest allGatherInit(Object buf, int count, Datatype type) throws MPIException {
        return CollectiveCalls.persistent(this, "MPI_Allgather_init",
                CollectiveCalls.allGather(null, 0, null, buf, count, type, true));
    }

    /** MPI_Allgatherv_init. */
    public final Prequest allGathervInit(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Allgatherv_init", call -> InterCollectives.allGatherv(ic, call, sendbuf,
                    sendcount, sendtype, recvbuf, recvcount, displs, recvtype));
        }
        return CollectiveCalls.persistent(this, "MPI_Allgatherv_init",
                CollectiveCalls.allGatherv(sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, false));
    }

    /** MPI_Allgatherv_init in place. */
    public final Prequest allGathervInit(Object buf, int[] count, int[] displs, Datatype type) throws MPIException {
        return CollectiveCalls.persistent(this, "MPI_Allgatherv_init",
                CollectiveCalls.allGatherv(null, 0, null, buf, count, displs, type, true));
    }

    /** MPI_Alltoall_init. */
    public final Prequest allToAllInit(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Alltoall_init", call -> InterCollectives.allToAll(ic, call, sendbuf, sendcount,
                    sendtype, recvbuf, recvcount, recvtype));
        }
        return CollectiveCalls.persistent(this, "MPI_Alltoall_init",
                CollectiveCalls.allToAll(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    }

    /** MPI_Alltoallv_init. */
    public final Prequest allToAllvInit(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Alltoallv_init", call -> InterCollectives.allToAllv(ic, call, sendbuf, sendcount,
                    sdispls, sendtype, recvbuf, recvcount, rdispls, recvtype));
        }
        return CollectiveCalls.persistent(this, "MPI_Alltoallv_init",
                CollectiveCalls.allToAllv(sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls,
                        recvtype));
    }

    /** MPI_Alltoallw_init (displacements in bytes). */
    public final Prequest allToAllwInit(Object sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes, Object recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Alltoallw_init", call -> InterCollectives.allToAllw(ic, call, sendBuf, sendCount,
                    sDispls, sendTypes, recvBuf, recvCount, rDispls, recvTypes));
        }
        return CollectiveCalls.persistent(this, "MPI_Alltoallw_init",
                CollectiveCalls.allToAllw(sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls,
                        recvTypes));
    }

    /** MPI_Reduce_scatter_init. */
    public final Prequest reduceScatterInit(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Reduce_scatter_init", call -> InterCollectives.reduceScatter(ic, call, sendbuf,
                    recvbuf, recvcounts, type, op));
        }
        return CollectiveCalls.persistent(this, "MPI_Reduce_scatter_init",
                CollectiveCalls.reduceScatter(sendbuf, recvbuf, recvcounts, type, op, false));
    }

    /** MPI_Reduce_scatter_init in place. */
    public final Prequest reduceScatterInit(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        return CollectiveCalls.persistent(this, "MPI_Reduce_scatter_init",
                CollectiveCalls.reduceScatter(null, buf, counts, type, op, true));
    }

    /** MPI_Reduce_scatter_block_init. */
    public final Prequest reduceScatterBlockInit(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interInit("MPI_Reduce_scatter_block_init", call -> InterCollectives.reduceScatterBlock(ic, call,
                    sendbuf, recvbuf, recvcount, type, op));
        }
        return CollectiveCalls.persistent(this, "MPI_Reduce_scatter_block_init",
                CollectiveCalls.reduceScatterBlock(sendbuf, recvbuf, recvcount, type, op, false));
    }

    /** MPI_Reduce_scatter_block_init in place. */
    public final Prequest reduceScatterBlockInit(Object buf, int count, Datatype type, Op op) throws MPIException {
        return CollectiveCalls.persistent(this, "MPI_Reduce_scatter_block_init",
                CollectiveCalls.reduceScatterBlock(null, buf, count, type, op, true));
    }

    /** MPI_Neighbor_allgather_init. */
    public final Prequest neighborAllGatherInit(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        return neighborInit("MPI_Neighbor_allgather_init", () -> CommOps.allGatherInit(this, sendbuf, sendcount,
                sendtype, recvbuf, recvcount, null, null, recvtype));
    }

    /** MPI_Neighbor_allgatherv_init. */
    public final Prequest neighborAllGathervInit(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        return neighborInit("MPI_Neighbor_allgatherv_init", () -> CommOps.allGatherInit(this, sendbuf, sendcount,
                sendtype, recvbuf, 0, recvcount, displs, recvtype));
    }

    /** MPI_Neighbor_alltoall_init. */
    public final Prequest neighborAllToAllInit(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        return neighborInit("MPI_Neighbor_alltoall_init", () -> CommOps.allToAllInit(this, sendbuf, sendcount, null,
                null, sendtype, recvbuf, recvcount, null, null, recvtype));
    }

    /** MPI_Neighbor_alltoallv_init. */
    public final Prequest neighborAllToAllvInit(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        return neighborInit("MPI_Neighbor_alltoallv_init", () -> CommOps.allToAllInit(this, sendbuf, 0, sendcount,
                sdispls, sendtype, recvbuf, 0, recvcount, rdispls, recvtype));
    }

    private Prequest neighborInit(String call,
            java.util.function.Supplier<java.util.function.Supplier<org.jmpi.topo.NeighborExchange>> init)
            throws MPIException {
        try {
            java.util.function.Supplier<org.jmpi.topo.NeighborExchange> start = init.get();
            return new Prequest(this, call, () -> start.get());
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    private Request neighborStart(String call, java.util.function.Supplier<RequestImpl> start) throws MPIException {
        try {
            return Request.of(this, start.get(), call);
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Reduce", call -> InterCollectives.reduce(ic, call, sendbuf, recvbuf, count, type, op, root));
            return;
        }
        CollectiveCalls.reduceBlocking(this, sendbuf, recvbuf, count, type, op, root, false);
    }

    public final void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        CollectiveCalls.reduceBlocking(this, null, buf, count, type, op, root, true);
    }

    /**
     * MPI_Reduce_c: {@link #reduce(Object, Object, int, Datatype, Op, int)} with a {@code long} count
     * (above 2^31 - 1 elements, in pieces: every rank passes the same datatype).
     */
    public final void reduce(Object sendbuf, Object recvbuf, long count, Datatype type, Op op, int root)
            throws MPIException {
        LargeCounts.run(this, "MPI_Reduce_c", type, count, sendbuf, recvbuf,
                (a, b, n) -> reduce(a, b, n, type, op, root));
    }

    /** MPI_Reduce_c in place: {@link #reduce(Object, int, Datatype, Op, int)} with a {@code long} count. */
    public final void reduce(Object buf, long count, Datatype type, Op op, int root) throws MPIException {
        LargeCounts.run(this, "MPI_Reduce_c", type, count, buf, null,
                (a, b, n) -> reduce(a, n, type, op, root));
    }

    public final Request iReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op, int root) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Ireduce", call ->
                    InterCollectives.reduce(ic, call, sendbuf, recvbuf, count, type, op, root));
        }
        return CollectiveCalls.begin(this, "MPI_Ireduce",
                CollectiveCalls.reduce(sendbuf, recvbuf, count, type, op, root, false));
    }

    public final Request iReduce(Buffer buf, int count, Datatype type, Op op, int root) throws MPIException {
        return CollectiveCalls.begin(this, "MPI_Ireduce",
                CollectiveCalls.reduce(null, buf, count, type, op, root, true));
    }

    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Allreduce", call -> InterCollectives.allReduce(ic, call, sendbuf, recvbuf, count, type, op));
            return;
        }
        CollectiveCalls.allReduceBlocking(this, sendbuf, recvbuf, count, type, op, false);
    }

    public final void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        CollectiveCalls.allReduceBlocking(this, null, buf, count, type, op, true);
    }

    /**
     * MPI_Allreduce_c: {@link #allReduce(Object, Object, int, Datatype, Op)} with a {@code long} count
     * (above 2^31 - 1 elements, in pieces: every rank passes the same datatype).
     */
    public final void allReduce(Object sendbuf, Object recvbuf, long count, Datatype type, Op op)
            throws MPIException {
        LargeCounts.run(this, "MPI_Allreduce_c", type, count, sendbuf, recvbuf,
                (a, b, n) -> allReduce(a, b, n, type, op));
    }

    /** MPI_Allreduce_c in place: {@link #allReduce(Object, int, Datatype, Op)} with a {@code long} count. */
    public final void allReduce(Object buf, long count, Datatype type, Op op) throws MPIException {
        LargeCounts.run(this, "MPI_Allreduce_c", type, count, buf, null,
                (a, b, n) -> allReduce(a, n, type, op));
    }

    public final Request iAllReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Iallreduce", call ->
                    InterCollectives.allReduce(ic, call, sendbuf, recvbuf, count, type, op));
        }
        return CollectiveCalls.begin(this, "MPI_Iallreduce",
                CollectiveCalls.allReduce(sendbuf, recvbuf, count, type, op, false));
    }

    public final Request iAllReduce(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return CollectiveCalls.begin(this, "MPI_Iallreduce",
                CollectiveCalls.allReduce(null, buf, count, type, op, true));
    }

    public final void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op) throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Reduce_scatter", call ->
                    InterCollectives.reduceScatter(ic, call, sendbuf, recvbuf, recvcounts, type,
                    op));
            return;
        }
        CollectiveCalls.run(this, "MPI_Reduce_scatter",
                CollectiveCalls.reduceScatter(sendbuf, recvbuf, recvcounts, type, op, false));
    }

    public final void reduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        CollectiveCalls.run(this, "MPI_Reduce_scatter",
                CollectiveCalls.reduceScatter(null, buf, counts, type, op, true));
    }

    public final Request iReduceScatter(Buffer sendbuf, Buffer recvbuf, int[] recvcounts, Datatype type, Op op) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Ireduce_scatter", call ->
                    InterCollectives.reduceScatter(ic, call, sendbuf, recvbuf, recvcounts, type,
                    op));
        }
        return CollectiveCalls.begin(this, "MPI_Ireduce_scatter",
                CollectiveCalls.reduceScatter(sendbuf, recvbuf, recvcounts, type, op, false));
    }

    public final Request iReduceScatter(Buffer buf, int[] counts, Datatype type, Op op) throws MPIException {
        return CollectiveCalls.begin(this, "MPI_Ireduce_scatter",
                CollectiveCalls.reduceScatter(null, buf, counts, type, op, true));
    }

    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op) throws MPIException {
        if (this instanceof Intercomm ic) {
            interColl("MPI_Reduce_scatter_block", call ->
                    InterCollectives.reduceScatterBlock(ic, call, sendbuf, recvbuf,
                    recvcount, type, op));
            return;
        }
        CollectiveCalls.run(this, "MPI_Reduce_scatter_block",
                CollectiveCalls.reduceScatterBlock(sendbuf, recvbuf, recvcount, type, op, false));
    }

    public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        CollectiveCalls.run(this, "MPI_Reduce_scatter_block",
                CollectiveCalls.reduceScatterBlock(null, buf, count, type, op, true));
    }

    public final Request iReduceScatterBlock(Buffer sendbuf, Buffer recvbuf, int recvcount, Datatype type, Op op) throws MPIException {
        if (this instanceof Intercomm ic) {
            return interStart("MPI_Ireduce_scatter_block", call ->
                    InterCollectives.reduceScatterBlock(ic, call, sendbuf, recvbuf, recvcount,
                    type, op));
        }
        return CollectiveCalls.begin(this, "MPI_Ireduce_scatter_block",
                CollectiveCalls.reduceScatterBlock(sendbuf, recvbuf, recvcount, type, op, false));
    }

    public final Request iReduceScatterBlock(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return CollectiveCalls.begin(this, "MPI_Ireduce_scatter_block",
                CollectiveCalls.reduceScatterBlock(null, buf, count, type, op, true));
    }

    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op) throws MPIException {
        CollectiveCalls.reduceLocal(inBuf, inOutBuf, count, type, op);
    }

    public final void setName(String name) throws MPIException {
        try {
            live();
            if (name == null) {
                throw new MpiError(ErrorClass.ERR_ARG, "null name");
            }
            this.name = name.length() >= MPI.MAX_OBJECT_NAME ? name.substring(0, MPI.MAX_OBJECT_NAME - 1) : name;
        } catch (MpiError e) {
            throw fail("MPI_Comm_set_name", e);
        }
    }

    /** The name set by {@link #setName}, the predefined name, or the empty string. */
    public final String getName() throws MPIException {
        try {
            live();
            return name;
        } catch (MpiError e) {
            throw fail("MPI_Comm_get_name", e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
