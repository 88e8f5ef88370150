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

    @Override
    public Intracomm clone() {
        return (Intracomm) super.clone();
    }

    @Override
    Intracomm blank() {
        return new Intracomm();
    }

    @Override
    public Intracomm dup() throws MPIException {
        return (Intracomm) super.dup();
    }

    @Override
    public Intracomm iDup() throws MPIException {
        return (Intracomm) super.iDup();
    }

    @Override
    public Intracomm dupWithInfo(Info info) throws MPIException {
        return (Intracomm) super.dupWithInfo(info);
    }

    /**
     * Splits into one communicator per colour, ranks ordered by key then by rank here; a process that passes
     * {@link MPI#UNDEFINED} gets a null communicator ({@code isNull()}).
     */
    public final Intracomm split(int colour, int key) throws MPIException {
        try {
            org.jmpi.runtime.Communicator c = live();
            org.jmpi.runtime.Communicator n = CommOps.split(c, colour, key);
            return n == null ? CommOps.nullComm(this, new Intracomm()) : CommOps.adopt(this, new Intracomm(), n, false);
        } catch (org.jmpi.runtime.MpiError e) {
            throw fail("MPI_Comm_split", e);
        }
    }

    /** {@link Comm#TYPE_SHARED}: one communicator per host; {@link MPI#UNDEFINED}: a null communicator. */
    public final Intracomm splitType(int splitType, int key, Info info) throws MPIException {
        try {
            org.jmpi.runtime.Communicator c = live();
            int colour;
            if (splitType == TYPE_SHARED) {
                colour = CommOps.sharedColor(c);
            } else if (splitType == MPI.UNDEFINED) {
                colour = MPI.UNDEFINED;
            } else {
                throw new org.jmpi.runtime.MpiError(MPI.ERR_ARG, "invalid split type " + splitType
                        + " (use Comm.TYPE_SHARED or MPI.UNDEFINED)");
            }
            org.jmpi.runtime.Communicator n = CommOps.split(c, colour, key);
            return n == null ? CommOps.nullComm(this, new Intracomm()) : CommOps.adopt(this, new Intracomm(), n, false);
        } catch (org.jmpi.runtime.MpiError e) {
            throw fail("MPI_Comm_split_type", e);
        }
    }

    /** Collective over this communicator; processes outside {@code group} get a null communicator. */
    public final Intracomm create(Group group) throws MPIException {
        try {
            org.jmpi.runtime.Communicator n = CommOps.create(live(), group);
            return n == null ? CommOps.nullComm(this, new Intracomm()) : CommOps.adopt(this, new Intracomm(), n, false);
        } catch (org.jmpi.runtime.MpiError e) {
            throw fail("MPI_Comm_create", e);
        }
    }

    /** Collective over the members of {@code group} only; {@code tag} tells concurrent calls apart. */
    public final Intracomm createGroup(Group group, int tag) throws MPIException {
        try {
            org.jmpi.runtime.Communicator n = CommOps.createGroup(live(), group, tag);
            return n == null ? CommOps.nullComm(this, new Intracomm()) : CommOps.adopt(this, new Intracomm(), n, false);
        } catch (org.jmpi.runtime.MpiError e) {
            throw fail("MPI_Comm_create_group", e);
        }
    }

    /** A Cartesian grid over the first {@code prod(dims)} ranks (the others get a null communicator). */
    public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder) throws MPIException {
        try {
            return CommOps.createCart(this, dims, periods);
        } catch (org.jmpi.runtime.MpiError e) {
            throw fail("MPI_Cart_create", e);
        }
    }

    public final GraphComm createGraph(int[] index, int[] edges, boolean reorder) throws MPIException {
        try {
            return CommOps.createGraph(this, index, edges);
        } catch (org.jmpi.runtime.MpiError e) {
            throw fail("MPI_Graph_create", e);
        }
    }

    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, int[] weights, Info info, boolean reorder) throws MPIException {
        try {
            return CommOps.createDistGraph(this, sources, degrees, destinations, weights, true);
        } catch (org.jmpi.runtime.MpiError e) {
            throw fail("MPI_Dist_graph_create", e);
        }
    }

    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, Info info, boolean reorder) throws MPIException {
        try {
            return CommOps.createDistGraph(this, sources, degrees, destinations, null, false);
        } catch (org.jmpi.runtime.MpiError e) {
            throw fail("MPI_Dist_graph_create", e);
        }
    }

    public final GraphComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights, Info info, boolean reorder) throws MPIException {
        try {
            return CommOps.createDistGraphAdjacent(this, sources, sourceWeights, destinations, destWeights, true);
        } catch (org.jmpi.runtime.MpiError e) {
            throw fail("MPI_Dist_graph_create_adjacent", e);
        }
    }

    public final GraphComm createDistGraphAdjacent(int[] sources, int[] destinations, Info info, boolean reorder) throws MPIException {
        try {
            return CommOps.createDistGraphAdjacent(this, sources, null, destinations, null, false);
        } catch (org.jmpi.runtime.MpiError e) {
            throw fail("MPI_Dist_graph_create_adjacent", e);
        }
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
