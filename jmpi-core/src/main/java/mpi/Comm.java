package mpi;

import java.nio.Buffer;

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

    /** Creates a communicator object that the runtime connects to a context later. */
    Comm() {}

    @NotImplemented
    public Comm clone() {
        throw new UnsupportedOperationException("jmpi: Comm.clone() is not implemented yet");
    }

    @NotImplemented
    public Comm dup() throws MPIException {
        throw Unsupported.of("Comm.dup()");
    }

    @NotImplemented
    public Comm iDup() throws MPIException {
        throw Unsupported.of("Comm.iDup()");
    }

    @NotImplemented
    public Comm dupWithInfo(Info info) throws MPIException {
        throw Unsupported.of("Comm.dupWithInfo(Info)");
    }

    public final Request getRequest() {
        return request != null ? request : new Request();
    }

    @NotImplemented
    public final int getSize() throws MPIException {
        throw Unsupported.of("Comm.getSize()");
    }

    @NotImplemented
    public final int getRank() throws MPIException {
        throw Unsupported.of("Comm.getRank()");
    }

    @NotImplemented
    public static int compare(Comm comm1, Comm comm2) throws MPIException {
        throw Unsupported.of("Comm.compare(Comm, Comm)");
    }

    @NotImplemented
    public final void free() throws MPIException {
        throw Unsupported.of("Comm.free()");
    }

    public final boolean isNull() {
        return nullHandle;
    }

    @NotImplemented
    public final void setInfo(Info info) throws MPIException {
        throw Unsupported.of("Comm.setInfo(Info)");
    }

    @NotImplemented
    public final Info getInfo() throws MPIException {
        throw Unsupported.of("Comm.getInfo()");
    }

    @NotImplemented
    public final void disconnect() throws MPIException {
        throw Unsupported.of("Comm.disconnect()");
    }

    @NotImplemented
    public final Group getGroup() throws MPIException {
        throw Unsupported.of("Comm.getGroup()");
    }

    @NotImplemented
    public final boolean isInter() throws MPIException {
        throw Unsupported.of("Comm.isInter()");
    }

    @NotImplemented
    public final Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader, int tag) throws MPIException {
        throw Unsupported.of("Comm.createIntercomm(Comm, int, int, int)");
    }

    @NotImplemented
    public final void send(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        throw Unsupported.of("Comm.send(Object, int, Datatype, int, int)");
    }

    @NotImplemented
    public final Status recv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        throw Unsupported.of("Comm.recv(Object, int, Datatype, int, int)");
    }

    @NotImplemented
    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag, Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag) throws MPIException {
        throw Unsupported.of("Comm.sendRecv(Object, int, Datatype, int, int, Object, int, Datatype, int, int)");
    }

    @NotImplemented
    public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag, int source, int recvtag) throws MPIException {
        throw Unsupported.of("Comm.sendRecvReplace(Object, int, Datatype, int, int, int, int)");
    }

    @NotImplemented
    public final void bSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        throw Unsupported.of("Comm.bSend(Object, int, Datatype, int, int)");
    }

    @NotImplemented
    public final void sSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        throw Unsupported.of("Comm.sSend(Object, int, Datatype, int, int)");
    }

    @NotImplemented
    public final void rSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        throw Unsupported.of("Comm.rSend(Object, int, Datatype, int, int)");
    }

    @NotImplemented
    public final Request iSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        throw Unsupported.of("Comm.iSend(Buffer, int, Datatype, int, int)");
    }

    @NotImplemented
    public final Request ibSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        throw Unsupported.of("Comm.ibSend(Buffer, int, Datatype, int, int)");
    }

    @NotImplemented
    public final Request isSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        throw Unsupported.of("Comm.isSend(Buffer, int, Datatype, int, int)");
    }

    @NotImplemented
    public final Request irSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        throw Unsupported.of("Comm.irSend(Buffer, int, Datatype, int, int)");
    }

    @NotImplemented
    public final Request iRecv(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        throw Unsupported.of("Comm.iRecv(Buffer, int, Datatype, int, int)");
    }

    @NotImplemented
    public final Prequest sendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        throw Unsupported.of("Comm.sendInit(Buffer, int, Datatype, int, int)");
    }

    @NotImplemented
    public final Prequest bSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        throw Unsupported.of("Comm.bSendInit(Buffer, int, Datatype, int, int)");
    }

    @NotImplemented
    public final Prequest sSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        throw Unsupported.of("Comm.sSendInit(Buffer, int, Datatype, int, int)");
    }

    @NotImplemented
    public final Prequest rSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        throw Unsupported.of("Comm.rSendInit(Buffer, int, Datatype, int, int)");
    }

    @NotImplemented
    public final Prequest recvInit(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        throw Unsupported.of("Comm.recvInit(Buffer, int, Datatype, int, int)");
    }

    @NotImplemented
    public final int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position) throws MPIException {
        throw Unsupported.of("Comm.pack(Object, int, Datatype, byte[], int)");
    }

    @NotImplemented
    public final int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type) throws MPIException {
        throw Unsupported.of("Comm.unpack(byte[], int, Object, int, Datatype)");
    }

    @NotImplemented
    public final int packSize(int incount, Datatype type) throws MPIException {
        throw Unsupported.of("Comm.packSize(int, Datatype)");
    }

    @NotImplemented
    public final Status iProbe(int source, int tag) throws MPIException {
        throw Unsupported.of("Comm.iProbe(int, int)");
    }

    @NotImplemented
    public final Status probe(int source, int tag) throws MPIException {
        throw Unsupported.of("Comm.probe(int, int)");
    }

    @NotImplemented
    public static int createKeyval() throws MPIException {
        throw Unsupported.of("Comm.createKeyval()");
    }

    @NotImplemented
    public static void freeKeyval(int keyval) throws MPIException {
        throw Unsupported.of("Comm.freeKeyval(int)");
    }

    @NotImplemented
    public final void setAttr(int keyval, Object value) throws MPIException {
        throw Unsupported.of("Comm.setAttr(int, Object)");
    }

    @NotImplemented
    public final Object getAttr(int keyval) throws MPIException {
        throw Unsupported.of("Comm.getAttr(int)");
    }

    @NotImplemented
    public final void deleteAttr(int keyval) throws MPIException {
        throw Unsupported.of("Comm.deleteAttr(int)");
    }

    @NotImplemented
    public final int getTopology() throws MPIException {
        throw Unsupported.of("Comm.getTopology()");
    }

    @NotImplemented
    public final void abort(int errorcode) throws MPIException {
        throw Unsupported.of("Comm.abort(int)");
    }

    @NotImplemented
    public final void setErrhandler(Errhandler errhandler) throws MPIException {
        throw Unsupported.of("Comm.setErrhandler(Errhandler)");
    }

    @NotImplemented
    public final Errhandler getErrhandler() throws MPIException {
        throw Unsupported.of("Comm.getErrhandler()");
    }

    @NotImplemented
    public void callErrhandler(int errorCode) throws MPIException {
        throw Unsupported.of("Comm.callErrhandler(int)");
    }

    @NotImplemented
    public final void barrier() throws MPIException {
        throw Unsupported.of("Comm.barrier()");
    }

    @NotImplemented
    public final Request iBarrier() throws MPIException {
        throw Unsupported.of("Comm.iBarrier()");
    }

    @NotImplemented
    public final void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        throw Unsupported.of("Comm.bcast(Object, int, Datatype, int)");
    }

    @NotImplemented
    public final Request iBcast(Buffer buf, int count, Datatype type, int root) throws MPIException {
        throw Unsupported.of("Comm.iBcast(Buffer, int, Datatype, int)");
    }

    @NotImplemented
    public final void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        throw Unsupported.of("Comm.gather(Object, int, Datatype, Object, int, Datatype, int)");
    }

    @NotImplemented
    public final void gather(Object buf, int count, Datatype type, int root) throws MPIException {
        throw Unsupported.of("Comm.gather(Object, int, Datatype, int)");
    }

    @NotImplemented
    public final Request iGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        throw Unsupported.of("Comm.iGather(Buffer, int, Datatype, Buffer, int, Datatype, int)");
    }

    @NotImplemented
    public final Request iGather(Buffer buf, int count, Datatype type, int root) throws MPIException {
        throw Unsupported.of("Comm.iGather(Buffer, int, Datatype, int)");
    }

    @NotImplemented
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        throw Unsupported.of("Comm.gatherv(Object, int, Datatype, Object, int[], int[], Datatype, int)");
    }

    @NotImplemented
    public final void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        throw Unsupported.of("Comm.gatherv(Object, int[], int[], Datatype, int)");
    }

    @NotImplemented
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        throw Unsupported.of("Comm.gatherv(Object, int, Datatype, int)");
    }

    @NotImplemented
    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        throw Unsupported.of("Comm.iGatherv(Buffer, int, Datatype, Buffer, int[], int[], Datatype, int)");
    }

    @NotImplemented
    public final Request iGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
        throw Unsupported.of("Comm.iGatherv(Buffer, int[], int[], Datatype, int)");
    }

    @NotImplemented
    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        throw Unsupported.of("Comm.iGatherv(Buffer, int, Datatype, int)");
    }

    @NotImplemented
    public final void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        throw Unsupported.of("Comm.scatter(Object, int, Datatype, Object, int, Datatype, int)");
    }

    @NotImplemented
    public final void scatter(Object buf, int count, Datatype type, int root) throws MPIException {
        throw Unsupported.of("Comm.scatter(Object, int, Datatype, int)");
    }

    @NotImplemented
    public final Request iScatter(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        throw Unsupported.of("Comm.iScatter(Buffer, int, Datatype, Buffer, int, Datatype, int)");
    }

    @NotImplemented
    public final Request iScatter(Buffer buf, int count, Datatype type, int root) throws MPIException {
        throw Unsupported.of("Comm.iScatter(Buffer, int, Datatype, int)");
    }

    @NotImplemented
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        throw Unsupported.of("Comm.scatterv(Object, int[], int[], Datatype, Object, int, Datatype, int)");
    }

    @NotImplemented
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root) throws MPIException {
        throw Unsupported.of("Comm.scatterv(Object, int[], int[], Datatype, int)");
    }

    @NotImplemented
    public final void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        throw Unsupported.of("Comm.scatterv(Object, int, Datatype, int)");
    }

    @NotImplemented
    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        throw Unsupported.of("Comm.iScatterv(Buffer, int[], int[], Datatype, Buffer, int, Datatype, int)");
    }

    @NotImplemented
    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root) throws MPIException {
        throw Unsupported.of("Comm.iScatterv(Buffer, int[], int[], Datatype, int)");
    }

    @NotImplemented
    public final Request iScatterv(Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        throw Unsupported.of("Comm.iScatterv(Buffer, int, Datatype, int)");
    }

    @NotImplemented
    public final void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.allGather(Object, int, Datatype, Object, int, Datatype)");
    }

    @NotImplemented
    public final void allGather(Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("Comm.allGather(Object, int, Datatype)");
    }

    @NotImplemented
    public final Request iAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.iAllGather(Buffer, int, Datatype, Buffer, int, Datatype)");
    }

    @NotImplemented
    public final Request iAllGather(Buffer buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("Comm.iAllGather(Buffer, int, Datatype)");
    }

    @NotImplemented
    public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.allGatherv(Object, int, Datatype, Object, int[], int[], Datatype)");
    }

    @NotImplemented
    public final void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.allGatherv(Object, int[], int[], Datatype)");
    }

    @NotImplemented
    public final Request iAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.iAllGatherv(Buffer, int, Datatype, Buffer, int[], int[], Datatype)");
    }

    @NotImplemented
    public final Request iAllGatherv(Buffer buf, int[] count, int[] displs, Datatype type) throws MPIException {
        throw Unsupported.of("Comm.iAllGatherv(Buffer, int[], int[], Datatype)");
    }

    @NotImplemented
    public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.allToAll(Object, int, Datatype, Object, int, Datatype)");
    }

    @NotImplemented
    public final Request iAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.iAllToAll(Buffer, int, Datatype, Buffer, int, Datatype)");
    }

    @NotImplemented
    public final void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.allToAllv(Object, int[], int[], Datatype, Object, int[], int[], Datatype)");
    }

    @NotImplemented
    public final Request iAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.iAllToAllv(Buffer, int[], int[], Datatype, Buffer, int[], int[], Datatype)");
    }

    @NotImplemented
    public final void allToAllw(Object sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes, Object recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        throw Unsupported.of("Comm.allToAllw(Object, int[], int[], Datatype[], Object, int[], int[], Datatype[])");
    }

    @NotImplemented
    public final Request iAllToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes, Buffer recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        throw Unsupported.of("Comm.iAllToAllw(Buffer, int[], int[], Datatype[], Buffer, int[], int[], Datatype[])");
    }

    @NotImplemented
    public final void neighborAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.neighborAllGather(Object, int, Datatype, Object, int, Datatype)");
    }

    @NotImplemented
    public final Request iNeighborAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.iNeighborAllGather(Buffer, int, Datatype, Buffer, int, Datatype)");
    }

    @NotImplemented
    public final void neighborAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.neighborAllGatherv(Object, int, Datatype, Object, int[], int[], Datatype)");
    }

    @NotImplemented
    public final Request iNeighborAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.iNeighborAllGatherv(Buffer, int, Datatype, Buffer, int[], int[], Datatype)");
    }

    @NotImplemented
    public final void neighborAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.neighborAllToAll(Object, int, Datatype, Object, int, Datatype)");
    }

    @NotImplemented
    public final Request iNeighborAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.iNeighborAllToAll(Buffer, int, Datatype, Buffer, int, Datatype)");
    }

    @NotImplemented
    public final void neighborAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.neighborAllToAllv(Object, int[], int[], Datatype, Object, int[], int[], Datatype)");
    }

    @NotImplemented
    public final Request iNeighborAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        throw Unsupported.of("Comm.iNeighborAllToAllv(Buffer, int[], int[], Datatype, Buffer, int[], int[], Datatype)");
    }

    @NotImplemented
    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root) throws MPIException {
        throw Unsupported.of("Comm.reduce(Object, Object, int, Datatype, Op, int)");
    }

    @NotImplemented
    public final void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        throw Unsupported.of("Comm.reduce(Object, int, Datatype, Op, int)");
    }

    @NotImplemented
    public final Request iReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op, int root) throws MPIException {
        throw Unsupported.of("Comm.iReduce(Buffer, Buffer, int, Datatype, Op, int)");
    }

    @NotImplemented
    public final Request iReduce(Buffer buf, int count, Datatype type, Op op, int root) throws MPIException {
        throw Unsupported.of("Comm.iReduce(Buffer, int, Datatype, Op, int)");
    }

    @NotImplemented
    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        throw Unsupported.of("Comm.allReduce(Object, Object, int, Datatype, Op)");
    }

    @NotImplemented
    public final void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        throw Unsupported.of("Comm.allReduce(Object, int, Datatype, Op)");
    }

    @NotImplemented
    public final Request iAllReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        throw Unsupported.of("Comm.iAllReduce(Buffer, Buffer, int, Datatype, Op)");
    }

    @NotImplemented
    public final Request iAllReduce(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        throw Unsupported.of("Comm.iAllReduce(Buffer, int, Datatype, Op)");
    }

    @NotImplemented
    public final void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op) throws MPIException {
        throw Unsupported.of("Comm.reduceScatter(Object, Object, int[], Datatype, Op)");
    }

    @NotImplemented
    public final void reduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        throw Unsupported.of("Comm.reduceScatter(Object, int[], Datatype, Op)");
    }

    @NotImplemented
    public final Request iReduceScatter(Buffer sendbuf, Buffer recvbuf, int[] recvcounts, Datatype type, Op op) throws MPIException {
        throw Unsupported.of("Comm.iReduceScatter(Buffer, Buffer, int[], Datatype, Op)");
    }

    @NotImplemented
    public final Request iReduceScatter(Buffer buf, int[] counts, Datatype type, Op op) throws MPIException {
        throw Unsupported.of("Comm.iReduceScatter(Buffer, int[], Datatype, Op)");
    }

    @NotImplemented
    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op) throws MPIException {
        throw Unsupported.of("Comm.reduceScatterBlock(Object, Object, int, Datatype, Op)");
    }

    @NotImplemented
    public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        throw Unsupported.of("Comm.reduceScatterBlock(Object, int, Datatype, Op)");
    }

    @NotImplemented
    public final Request iReduceScatterBlock(Buffer sendbuf, Buffer recvbuf, int recvcount, Datatype type, Op op) throws MPIException {
        throw Unsupported.of("Comm.iReduceScatterBlock(Buffer, Buffer, int, Datatype, Op)");
    }

    @NotImplemented
    public final Request iReduceScatterBlock(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        throw Unsupported.of("Comm.iReduceScatterBlock(Buffer, int, Datatype, Op)");
    }

    @NotImplemented
    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op) throws MPIException {
        throw Unsupported.of("Comm.reduceLocal(Object, Object, int, Datatype, Op)");
    }

    @NotImplemented
    public final void setName(String name) throws MPIException {
        throw Unsupported.of("Comm.setName(String)");
    }

    @NotImplemented
    public final String getName() throws MPIException {
        throw Unsupported.of("Comm.getName()");
    }

    @Override
    public String toString() {
        return name;
    }
}
