package mpi;

/**
 * A communicator of the mpiJava 1.2 API. Every buffer argument is an array (or a {@code java.nio} buffer) followed by
 * an element offset; counts, offsets and displacements are in elements. Errors throw the unchecked
 * {@link MPIException}. Duplication is {@link #clone()}.
 */
public class Comm {
    private static final int STANDARD = 0;
    private static final int SYNCHRONOUS = 1;
    private static final int BUFFERED = 2;
    private static final int READY = 3;

    /** The runtime's communicator (the Open MPI facade's, renamed), or null for MPI.COMM_NULL. */
    org.jmpi.mpj.ompi.Comm runtime;

    /** {@link #peersInJvm}: 0 not known yet, 1 yes, -1 no. */
    private int peersInJvm;

    Comm(org.jmpi.mpj.ompi.Comm runtime) {
        this.runtime = runtime;
    }

    /** The handle of this API for one of the runtime's communicators, of the matching class. */
    static Comm wrap(org.jmpi.mpj.ompi.Comm c) {
        if (c == null) {
            return null;
        }
        if (c instanceof org.jmpi.mpj.ompi.CartComm cc) {
            return new Cartcomm(cc);
        }
        if (c instanceof org.jmpi.mpj.ompi.GraphComm g) {
            return new Graphcomm(g);
        }
        if (c instanceof org.jmpi.mpj.ompi.Intercomm i) {
            return new Intercomm(i);
        }
        return new Intracomm((org.jmpi.mpj.ompi.Intracomm) c);
    }

    /**
     * Whether every rank this communicator sends to runs in this JVM: a threads-mode rank's communicator whose
     * (remote) group lies within the job's world. Computed at the first object send.
     */
    private boolean peersInJvm() {
        int v = peersInJvm;
        if (v == 0) {
            v = peersInJvm = ObjectMessages.inJvm(live()) ? 1 : -1;
        }
        return v > 0;
    }

    org.jmpi.mpj.ompi.Comm live() {
        org.jmpi.mpj.ompi.Comm c = runtime;
        if (c == null) {
            throw new MPIException("invalid communicator (freed or MPI.COMM_NULL)", 5);
        }
        return c;
    }

    static int source(int s) {
        return s == MPI.ANY_SOURCE ? org.jmpi.mpj.ompi.MPI.ANY_SOURCE
                : s == MPI.PROC_NULL ? org.jmpi.mpj.ompi.MPI.PROC_NULL : s;
    }

    static int tag(int t) {
        return t == MPI.ANY_TAG ? org.jmpi.mpj.ompi.MPI.ANY_TAG : t;
    }

    // ---------------------------------------------------------------- communicator management

    public int Size() {
        try {
            return live().getSize();
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public int Rank() {
        try {
            return live().getRank();
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public Group Group() {
        try {
            return new Group(live().getGroup());
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** MPI.IDENT, MPI.CONGRUENT, MPI.SIMILAR or MPI.UNEQUAL. */
    public static int Compare(Comm comm1, Comm comm2) {
        try {
            return MPI.compareResult(org.jmpi.mpj.ompi.Comm.compare(comm1.live(), comm2.live()));
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public void Free() {
        try {
            live().free();
            runtime = null;
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** Whether this is MPI.COMM_NULL or a freed communicator. */
    public boolean Is_null() {
        return runtime == null;
    }

    public boolean Test_inter() {
        try {
            return live().isInter();
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /**
     * MPI_INTERCOMM_CREATE with this communicator as the peer communicator: joins {@code local_comm} (led by its
     * rank {@code local_leader}) with the group led by {@code remote_leader} (a rank of this communicator).
     */
    public Intercomm Create_intercomm(Comm local_comm, int local_leader, int remote_leader, int tag) {
        try {
            return new Intercomm(live().createIntercomm(local_comm.live(), local_leader, remote_leader, tag));
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** Duplicates the communicator (MPI_COMM_DUP). */
    @Override
    public Object clone() {
        try {
            return wrap(live().dup());
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** MPI.CART, MPI.GRAPH or MPI.UNDEFINED. */
    public int Topo_test() {
        try {
            int t = live().getTopology();
            return t == org.jmpi.mpj.ompi.MPI.CART ? MPI.CART : t == org.jmpi.mpj.ompi.MPI.GRAPH ? MPI.GRAPH
                    : MPI.UNDEFINED;
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** Ends every rank of the job with exit code {@code errorcode} (unlike MPJ Express, where it did nothing). */
    public void Abort(int errorcode) {
        try {
            (runtime == null ? MPI.COMM_WORLD.live() : runtime).abort(errorcode);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** The value of a predefined attribute: MPI.TAG_UB, MPI.HOST or MPI.IO (an Integer), else null. */
    public Object Attr_get(int keyval) {
        int key = keyval == MPI.TAG_UB ? org.jmpi.mpj.ompi.MPI.TAG_UB : keyval == MPI.HOST
                ? org.jmpi.mpj.ompi.MPI.HOST : keyval == MPI.IO ? org.jmpi.mpj.ompi.MPI.IO : Integer.MIN_VALUE;
        if (key == Integer.MIN_VALUE) {
            return null;
        }
        try {
            Object v = live().getAttr(key);
            if (v != null && keyval != MPI.TAG_UB && v instanceof Integer i) {
                return i == org.jmpi.mpj.ompi.MPI.PROC_NULL ? MPI.PROC_NULL : i == org.jmpi.mpj.ompi.MPI.ANY_SOURCE
                        ? MPI.ANY_SOURCE : i;
            }
            return v;
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** Predefined attributes cannot be deleted: does nothing for them. */
    public void Attr_delete(int keyval) {
    }

    /** Sets the error handler: MPI.ERRORS_RETURN (errors throw MPIException) or MPI.ERRORS_ARE_FATAL. */
    public void Errorhandler_set(Errhandler errhandler) {
        try {
            live().setErrhandler(errhandler.runtime);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public Errhandler Errorhandler_get() {
        try {
            return Errhandler.of(live().getErrhandler());
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    // ---------------------------------------------------------------- blocking point-to-point

    public void Send(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        send(STANDARD, buf, offset, count, datatype, dest, tag);
    }

    public void Ssend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        send(SYNCHRONOUS, buf, offset, count, datatype, dest, tag);
    }

    public void Bsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        send(BUFFERED, buf, offset, count, datatype, dest, tag);
    }

    public void Rsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        send(READY, buf, offset, count, datatype, dest, tag);
    }

    private void send(int mode, Object buf, int offset, int count, Datatype type, int dest, int tag) {
        org.jmpi.mpj.ompi.Comm c = live();
        Outgoing o = outgoing(buf, offset, count, type);
        Object b = o.buf();
        int n = o.count();
        org.jmpi.mpj.ompi.Datatype t = o.type();
        int d = source(dest);
        try {
            switch (mode) {
                case STANDARD -> c.send(b, n, t, d, tag);
                case SYNCHRONOUS -> c.sSend(b, n, t, d, tag);
                case BUFFERED -> c.bSend(b, n, t, d, tag);
                default -> c.rSend(b, n, t, d, tag);
            }
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** What a send hands the runtime: the buffer (serialised objects, a copy of booleans at an offset), count, type. */
    private record Outgoing(Object buf, int count, org.jmpi.mpj.ompi.Datatype type) {}

    private Outgoing outgoing(Object buf, int offset, int count, Datatype type) {
        if (type.isObject()) {
            byte[] bytes = ObjectMessages.encode(buf, offset, count, type, peersInJvm());
            return new Outgoing(bytes, bytes.length, org.jmpi.mpj.ompi.MPI.BYTE);
        }
        return new Outgoing(Buf.isBooleanAt(buf, offset) ? Buf.booleansFrom(buf, offset) : Buf.at(buf, offset, type),
                count, type.runtime());
    }

    public Status Recv(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        org.jmpi.mpj.ompi.Comm c = live();
        if (datatype.isObject()) {
            return new ObjectMessages.Receive(c, buf, offset, count, datatype, source(source), tag(tag)).await();
        }
        try {
            if (Buf.isBooleanAt(buf, offset)) {
                boolean[] tmp = Buf.booleansFrom(buf, offset);
                Status s = Status.of(c.recv(tmp, count, datatype.runtime(), source(source), tag(tag)), datatype);
                Buf.booleansBack(tmp, buf, offset);
                return s;
            }
            Status s = Status.of(c.recv(Buf.at(buf, offset, datatype), count, datatype.runtime(), source(source),
                    tag(tag)), datatype);
            if (datatype.size == 0) {
                s.count = s.numEls = count;
            }
            return s;
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public Status Sendrecv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, int dest, int sendtag,
            Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int source, int recvtag) {
        if (sendtype.isObject() || recvtype.isObject() || Buf.isBooleanAt(sendbuf, sendoffset)
                || Buf.isBooleanAt(recvbuf, recvoffset)) {
            Request s = Isend(sendbuf, sendoffset, sendcount, sendtype, dest, sendtag);
            Status r = Recv(recvbuf, recvoffset, recvcount, recvtype, source, recvtag);
            s.Wait();
            return r;
        }
        try {
            return Status.of(live().sendRecv(Buf.at(sendbuf, sendoffset, sendtype), sendcount, sendtype.runtime(),
                    source(dest), sendtag, Buf.at(recvbuf, recvoffset, recvtype), recvcount, recvtype.runtime(),
                    source(source), tag(recvtag)), recvtype);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public Status Sendrecv_replace(Object buf, int offset, int count, Datatype datatype, int dest, int sendtag,
            int source, int recvtag) {
        if (datatype.isObject() || Buf.isBooleanAt(buf, offset)) {
            Request s;
            if (datatype.isObject()) {
                byte[] bytes = ObjectMessages.encode(buf, offset, count, datatype, peersInJvm());
                s = isendBytes(bytes, dest, sendtag);
            } else {
                s = Isend(Buf.booleansFrom(buf, offset), 0, count, datatype, dest, sendtag);
            }
            Status r = Recv(buf, offset, count, datatype, source, recvtag);
            s.Wait();
            return r;
        }
        try {
            return Status.of(live().sendRecvReplace(Buf.at(buf, offset, datatype), count, datatype.runtime(),
                    source(dest), sendtag, source(source), tag(recvtag)), datatype);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    // ---------------------------------------------------------------- non-blocking point-to-point

    public Request Isend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return isend(STANDARD, buf, offset, count, datatype, dest, tag);
    }

    public Request Issend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return isend(SYNCHRONOUS, buf, offset, count, datatype, dest, tag);
    }

    public Request Ibsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return isend(BUFFERED, buf, offset, count, datatype, dest, tag);
    }

    public Request Irsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return isend(READY, buf, offset, count, datatype, dest, tag);
    }

    private Request isendBytes(byte[] bytes, int dest, int tag) {
        try {
            return Request.of(live().iSend(bytes, bytes.length, org.jmpi.mpj.ompi.MPI.BYTE, source(dest), tag),
                    MPI.BYTE, null);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    private Request isend(int mode, Object buf, int offset, int count, Datatype type, int dest, int tag) {
        org.jmpi.mpj.ompi.Comm c = live();
        Outgoing o = outgoing(buf, offset, count, type);
        Object b = o.buf();
        int n = o.count();
        org.jmpi.mpj.ompi.Datatype t = o.type();
        int d = source(dest);
        try {
            org.jmpi.mpj.ompi.Request r = switch (mode) {
                case STANDARD -> c.iSend(b, n, t, d, tag);
                case SYNCHRONOUS -> c.isSend(b, n, t, d, tag);
                case BUFFERED -> c.ibSend(b, n, t, d, tag);
                default -> c.irSend(b, n, t, d, tag);
            };
            return Request.of(r, type, null);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public Request Irecv(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        org.jmpi.mpj.ompi.Comm c = live();
        if (datatype.isObject()) {
            Request r = new Request();
            r.type = datatype;
            r.objectReceive = new ObjectMessages.Receive(c, buf, offset, count, datatype, source(source), tag(tag));
            return r;
        }
        try {
            if (Buf.isBooleanAt(buf, offset)) {
                boolean[] tmp = Buf.booleansFrom(buf, offset);
                return Request.of(c.iRecv(tmp, count, datatype.runtime(), source(source), tag(tag)), datatype,
                        () -> Buf.booleansBack(tmp, buf, offset));
            }
            return Request.of(c.iRecv(Buf.at(buf, offset, datatype), count, datatype.runtime(), source(source),
                    tag(tag)), datatype, null);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    // ---------------------------------------------------------------- persistent requests

    public Prequest Send_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return persistentSend(STANDARD, buf, offset, count, datatype, dest, tag);
    }

    public Prequest Ssend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return persistentSend(SYNCHRONOUS, buf, offset, count, datatype, dest, tag);
    }

    public Prequest Bsend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return persistentSend(BUFFERED, buf, offset, count, datatype, dest, tag);
    }

    public Prequest Rsend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return persistentSend(READY, buf, offset, count, datatype, dest, tag);
    }

    private Prequest persistentSend(int mode, Object buf, int offset, int count, Datatype type, int dest, int tag) {
        org.jmpi.mpj.ompi.Comm c = live();
        if (type.isObject() || Buf.isBooleanAt(buf, offset)) {
            // the data is taken at each start
            return new Prequest(() -> isend(mode, buf, offset, count, type, dest, tag), type);
        }
        Object b = Buf.at(buf, offset, type);
        org.jmpi.mpj.ompi.Datatype t = type.runtime();
        int d = source(dest);
        try {
            org.jmpi.mpj.ompi.Prequest r = switch (mode) {
                case STANDARD -> c.sendInit(b, count, t, d, tag);
                case SYNCHRONOUS -> c.sSendInit(b, count, t, d, tag);
                case BUFFERED -> c.bSendInit(b, count, t, d, tag);
                default -> c.rSendInit(b, count, t, d, tag);
            };
            return new Prequest(r, type);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public Prequest Recv_init(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        org.jmpi.mpj.ompi.Comm c = live();
        if (datatype.isObject() || Buf.isBooleanAt(buf, offset)) {
            return new Prequest(() -> Irecv(buf, offset, count, datatype, source, tag), datatype);
        }
        try {
            return new Prequest(c.recvInit(Buf.at(buf, offset, datatype), count, datatype.runtime(), source(source),
                    tag(tag)), datatype);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    // ---------------------------------------------------------------- probes

    /** Waits for a matching message and returns its status (it stays to be received). */
    public Status Probe(int source, int tag) {
        try {
            return Status.of(live().probe(source(source), tag(tag)), null);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** The status of a matching message if one has arrived, else null. */
    public Status Iprobe(int source, int tag) {
        try {
            org.jmpi.mpj.ompi.Status s = live().iProbe(source(source), tag(tag));
            return s == null ? null : Status.of(s, null);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    // ---------------------------------------------------------------- packing

    /** Bytes {@code Pack} needs for {@code incount} elements of a primitive {@code datatype}. */
    public int Pack_size(int incount, Datatype datatype) {
        if (datatype.isObject()) {
            throw new MPIException("Pack_size: the packed size of MPI.OBJECT data is only known once packed",
                    Datatype.ERR_TYPE);
        }
        try {
            return live().packSize(incount, datatype.runtime());
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** Packs into {@code outbuf} from byte {@code position}; the position after the data. */
    public int Pack(Object inbuf, int offset, int incount, Datatype datatype, mpjbuf.Buffer outbuf, int position) {
        return Pack(inbuf, offset, incount, datatype, outbuf.bytes(), position);
    }

    /** The mpiJava 1.2 specification's form of {@code Pack}: into a {@code byte[]}. */
    public int Pack(Object inbuf, int offset, int incount, Datatype datatype, byte[] outbuf, int position) {
        if (datatype.isObject()) {
            byte[] bytes = ObjectMessages.encode(inbuf, offset, incount, datatype);
            if (position < 0 || position + 4L + bytes.length > outbuf.length) {
                throw new MPIException("Pack: " + (4 + bytes.length) + " bytes do not fit at position " + position
                        + " of a buffer of " + outbuf.length, ObjectMessages.ERR_TRUNCATE);
            }
            java.nio.ByteBuffer.wrap(outbuf, position, 4).putInt(bytes.length);
            System.arraycopy(bytes, 0, outbuf, position + 4, bytes.length);
            return position + 4 + bytes.length;
        }
        try {
            Object b = Buf.isBooleanAt(inbuf, offset) ? Buf.booleansFrom(inbuf, offset) : Buf.at(inbuf, offset,
                    datatype);
            return live().pack(b, incount, datatype.runtime(), outbuf, position);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** Unpacks from {@code inbuf} at byte {@code position}; the position after the data read. */
    public int Unpack(mpjbuf.Buffer inbuf, int position, Object outbuf, int offset, int outcount, Datatype datatype) {
        return Unpack(inbuf.bytes(), position, outbuf, offset, outcount, datatype);
    }

    /** The mpiJava 1.2 specification's form of {@code Unpack}: from a {@code byte[]}. */
    public int Unpack(byte[] inbuf, int position, Object outbuf, int offset, int outcount, Datatype datatype) {
        if (datatype.isObject()) {
            if (position < 0 || position + 4L > inbuf.length) {
                throw new MPIException("Unpack: no packed objects at position " + position,
                        ObjectMessages.ERR_TRUNCATE);
            }
            int n = java.nio.ByteBuffer.wrap(inbuf, position, 4).getInt();
            if (n < 0 || position + 4L + n > inbuf.length) {
                throw new MPIException("Unpack: bad packed object length " + n, ObjectMessages.ERR_OTHER);
            }
            byte[] bytes = java.util.Arrays.copyOfRange(inbuf, position + 4, position + 4 + n);
            ObjectMessages.decode(bytes, n, outbuf, offset, outcount, datatype);
            return position + 4 + n;
        }
        try {
            if (Buf.isBooleanAt(outbuf, offset)) {
                boolean[] tmp = Buf.booleansFrom(outbuf, offset);
                int p = live().unpack(inbuf, position, tmp, outcount, datatype.runtime());
                Buf.booleansBack(tmp, outbuf, offset);
                return p;
            }
            return live().unpack(inbuf, position, Buf.at(outbuf, offset, datatype), outcount, datatype.runtime());
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + (runtime == null ? "[null]" : "[" + runtime + "]");
    }
}
