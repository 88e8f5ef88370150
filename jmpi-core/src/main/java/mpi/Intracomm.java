package mpi;

import java.nio.Buffer;

/**
 * An intracommunicator: communication inside one group of processes, plus scans, topologies, communicator
 * creation and dynamic-process operations.
 */
public class Intracomm extends Comm {
    Intracomm() {}

    /** A predefined communicator such as MPI_COMM_WORLD, named for error messages. */
    Intracomm(String name) {
        this.name = name;
    }

    @NotImplemented
    public Intracomm clone() {
        throw new UnsupportedOperationException("jmpi: Intracomm.clone() is not implemented yet");
    }

    @NotImplemented
    public Intracomm dup() throws MPIException {
        throw Unsupported.of("Intracomm.dup()");
    }

    @NotImplemented
    public Intracomm iDup() throws MPIException {
        throw Unsupported.of("Intracomm.iDup()");
    }

    @NotImplemented
    public Intracomm dupWithInfo(Info info) throws MPIException {
        throw Unsupported.of("Intracomm.dupWithInfo(Info)");
    }

    @NotImplemented
    public final Intracomm split(int colour, int key) throws MPIException {
        throw Unsupported.of("Intracomm.split(int, int)");
    }

    @NotImplemented
    public final Intracomm splitType(int splitType, int key, Info info) throws MPIException {
        throw Unsupported.of("Intracomm.splitType(int, int, Info)");
    }

    @NotImplemented
    public final Intracomm create(Group group) throws MPIException {
        throw Unsupported.of("Intracomm.create(Group)");
    }

    @NotImplemented
    public final Intracomm createGroup(Group group, int tag) throws MPIException {
        throw Unsupported.of("Intracomm.createGroup(Group, int)");
    }

    @NotImplemented
    public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder) throws MPIException {
        throw Unsupported.of("Intracomm.createCart(int[], boolean[], boolean)");
    }

    @NotImplemented
    public final GraphComm createGraph(int[] index, int[] edges, boolean reorder) throws MPIException {
        throw Unsupported.of("Intracomm.createGraph(int[], int[], boolean)");
    }

    @NotImplemented
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, int[] weights, Info info, boolean reorder) throws MPIException {
        throw Unsupported.of("Intracomm.createDistGraph(int[], int[], int[], int[], Info, boolean)");
    }

    @NotImplemented
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, Info info, boolean reorder) throws MPIException {
        throw Unsupported.of("Intracomm.createDistGraph(int[], int[], int[], Info, boolean)");
    }

    @NotImplemented
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights, Info info, boolean reorder) throws MPIException {
        throw Unsupported.of("Intracomm.createDistGraphAdjacent(int[], int[], int[], int[], Info, boolean)");
    }

    @NotImplemented
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] destinations, Info info, boolean reorder) throws MPIException {
        throw Unsupported.of("Intracomm.createDistGraphAdjacent(int[], int[], Info, boolean)");
    }

    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        CollectiveCalls.run(this, "MPI_Scan", CollectiveCalls.scan(sendbuf, recvbuf, count, type, op, false, false));
    }

    public final void scan(Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        CollectiveCalls.run(this, "MPI_Scan", CollectiveCalls.scan(null, recvbuf, count, type, op, true, false));
    }

    public final Request iScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return CollectiveCalls.begin(this, "MPI_Iscan",
                CollectiveCalls.scan(sendbuf, recvbuf, count, type, op, false, false));
    }

    public final Request iScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return CollectiveCalls.begin(this, "MPI_Iscan", CollectiveCalls.scan(null, buf, count, type, op, true, false));
    }

    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        CollectiveCalls.run(this, "MPI_Exscan", CollectiveCalls.scan(sendbuf, recvbuf, count, type, op, false, true));
    }

    public final void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        CollectiveCalls.run(this, "MPI_Exscan", CollectiveCalls.scan(null, buf, count, type, op, true, true));
    }

    public final Request iExScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return CollectiveCalls.begin(this, "MPI_Iexscan",
                CollectiveCalls.scan(sendbuf, recvbuf, count, type, op, false, true));
    }

    public final Request iExScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return CollectiveCalls.begin(this, "MPI_Iexscan", CollectiveCalls.scan(null, buf, count, type, op, true, true));
    }

    @NotImplemented
    public static String openPort() throws MPIException {
        throw Unsupported.of("Intracomm.openPort()");
    }

    @NotImplemented
    public static String openPort(Info info) throws MPIException {
        throw Unsupported.of("Intracomm.openPort(Info)");
    }

    @NotImplemented
    public static void closePort(String name) throws MPIException {
        throw Unsupported.of("Intracomm.closePort(String)");
    }

    @NotImplemented
    public final Intercomm accept(String port, int root) throws MPIException {
        throw Unsupported.of("Intracomm.accept(String, int)");
    }

    @NotImplemented
    public final Intercomm accept(String port, Info info, int root) throws MPIException {
        throw Unsupported.of("Intracomm.accept(String, Info, int)");
    }

    @NotImplemented
    public final Intercomm connect(String port, int root) throws MPIException {
        throw Unsupported.of("Intracomm.connect(String, int)");
    }

    @NotImplemented
    public final Intercomm connect(String port, Info info, int root) throws MPIException {
        throw Unsupported.of("Intracomm.connect(String, Info, int)");
    }

    @NotImplemented
    public static void publishName(String service, String port) throws MPIException {
        throw Unsupported.of("Intracomm.publishName(String, String)");
    }

    @NotImplemented
    public static void publishName(String service, Info info, String port) throws MPIException {
        throw Unsupported.of("Intracomm.publishName(String, Info, String)");
    }

    @NotImplemented
    public static void unpublishName(String service, String port) throws MPIException {
        throw Unsupported.of("Intracomm.unpublishName(String, String)");
    }

    @NotImplemented
    public static void unpublishName(String service, Info info, String port) throws MPIException {
        throw Unsupported.of("Intracomm.unpublishName(String, Info, String)");
    }

    @NotImplemented
    public static String lookupName(String service) throws MPIException {
        throw Unsupported.of("Intracomm.lookupName(String)");
    }

    @NotImplemented
    public static String lookupName(String service, Info info) throws MPIException {
        throw Unsupported.of("Intracomm.lookupName(String, Info)");
    }

    @NotImplemented
    public final Intercomm spawn(String command, String[] argv, int maxprocs, Info info, int root, int[] errcodes) throws MPIException {
        throw Unsupported.of("Intracomm.spawn(String, String[], int, Info, int, int[])");
    }

    @NotImplemented
    public final Intercomm spawnMultiple(String[] commands, String[][] argv, int[] maxprocs, Info[] info, int root, int[] errcodes) throws MPIException {
        throw Unsupported.of("Intracomm.spawnMultiple(String[], String[][], int[], Info[], int, int[])");
    }
}
