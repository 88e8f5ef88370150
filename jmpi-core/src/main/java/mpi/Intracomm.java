package mpi;

import java.nio.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jmpi.dpm.DynamicProcesses;
import org.jmpi.dpm.NameServiceClient;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.MpiError;

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

    @Override
    public Intracomm iDupWithInfo(Info info) throws MPIException {
        return (Intracomm) super.iDupWithInfo(info);
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
            boolean hw = false;
            if (splitType == TYPE_SHARED) {
                colour = CommOps.sharedColor(c);
            } else if (splitType == TYPE_HW_GUIDED) {
                String level = info == null || info.isNull() ? null : info.get("mpi_hw_resource_type");
                if (level == null) {
                    throw new org.jmpi.runtime.MpiError(MPI.ERR_ARG, "Comm.TYPE_HW_GUIDED needs the info key "
                            + "mpi_hw_resource_type (jmpi knows mpi_shared_memory)");
                }
                hw = level.equals("mpi_shared_memory");
                colour = hw ? CommOps.sharedColor(c) : MPI.UNDEFINED;
            } else if (splitType == TYPE_HW_UNGUIDED) {
                // the next level down that is a strict subset: the host, when this communicator spans several
                hw = !CommOps.onOneHost(c);
                colour = hw ? CommOps.sharedColor(c) : MPI.UNDEFINED;
            } else if (splitType == MPI.UNDEFINED) {
                colour = MPI.UNDEFINED;
            } else {
                throw new org.jmpi.runtime.MpiError(MPI.ERR_ARG, "invalid split type " + splitType
                        + " (use Comm.TYPE_SHARED, TYPE_HW_GUIDED, TYPE_HW_UNGUIDED or MPI.UNDEFINED)");
            }
            org.jmpi.runtime.Communicator n = CommOps.split(c, colour, key);
            if (n == null) {
                return CommOps.nullComm(this, new Intracomm());
            }
            Intracomm made = CommOps.adopt(this, new Intracomm(), n, false);
            if (hw) {
                made.info = new Info();
                made.info.set("mpi_hw_resource_type", "mpi_shared_memory");
            }
            return made;
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

    /**
     * MPI_Comm_create_from_group (MPI 4.0): a new communicator over {@code group}, without a parent communicator
     * (the group may come from a session's process set). Collective over the group's members, which pass the same
     * {@code stringTag}; concurrent calls with different tags do not interfere. Works with sessions and with or
     * without {@code MPI.Init}.
     *
     * @param info may be null (no key changes anything)
     * @param errhandler the new communicator's error handler (null: MPI.ERRORS_ARE_FATAL)
     * @return the communicator; a null communicator to a caller that is not in the group
     */
    public static Intracomm createFromGroup(Group group, String stringTag, Info info, Errhandler errhandler) throws MPIException {
        try {
            if (stringTag == null) {
                throw new org.jmpi.runtime.MpiError(org.jmpi.runtime.ErrorClass.ERR_ARG, "null string tag");
            }
            org.jmpi.runtime.Communicator world = org.jmpi.runtime.JmpiRuntime.get().world();
            // a negative tag of the world's spare context: apart from createGroup's tags (>= 0) and ANY (-1)
            int tag = Integer.MIN_VALUE | (stringTag.hashCode() & 0x3fffffff);
            org.jmpi.runtime.Communicator n = CommOps.createGroupTagged(world, group, tag);
            Intracomm c = new Intracomm();
            c.errhandler = errhandler != null ? errhandler : MPI.ERRORS_ARE_FATAL;
            c.session = group.session;
            if (n == null) {
                c.nullHandle = true;
            } else {
                c.impl = n;
            }
            return c;
        } catch (org.jmpi.runtime.MpiError e) {
            throw Errors.raise(errhandler, "MPI_Comm_create_from_group", e);
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

    /** MPI_Scan_init (MPI 4.0; see {@link Comm#allReduceInit}). */
    public final Prequest scanInit(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        return CollectiveCalls.persistent(this, "MPI_Scan_init",
                CollectiveCalls.scan(sendbuf, recvbuf, count, type, op, false, false));
    }

    /** MPI_Scan_init in place. */
    public final Prequest scanInit(Object buf, int count, Datatype type, Op op) throws MPIException {
        return CollectiveCalls.persistent(this, "MPI_Scan_init",
                CollectiveCalls.scan(null, buf, count, type, op, true, false));
    }

    /** MPI_Exscan_init (MPI 4.0). */
    public final Prequest exScanInit(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        return CollectiveCalls.persistent(this, "MPI_Exscan_init",
                CollectiveCalls.scan(sendbuf, recvbuf, count, type, op, false, true));
    }

    /** MPI_Exscan_init in place. */
    public final Prequest exScanInit(Object buf, int count, Datatype type, Op op) throws MPIException {
        return CollectiveCalls.persistent(this, "MPI_Exscan_init",
                CollectiveCalls.scan(null, buf, count, type, op, true, true));
    }

    /** MPI_Open_port: a new port name ({@code jmpi-port:host:port:token}); the name is the capability to connect. */
    public static String openPort() throws MPIException {
        try {
            return DynamicProcesses.openPort();
        } catch (MpiError e) {
            throw Errors.raise("MPI_Open_port", e);
        }
    }

    /** MPI_Open_port; no Info key changes anything. */
    public static String openPort(Info info) throws MPIException {
        return openPort();
    }

    public static void closePort(String name) throws MPIException {
        try {
            DynamicProcesses.closePort(name);
        } catch (MpiError e) {
            throw Errors.raise("MPI_Close_port", e);
        }
    }

    /** MPI_Comm_accept: collective over this communicator; {@code port} significant at {@code root} only. */
    public final Intercomm accept(String port, int root) throws MPIException {
        try {
            Communicator c = live();
            checkRoot(c, root);
            return CommOps.adopt(this, new Intercomm(), DynamicProcesses.accept(port, c, root), false);
        } catch (MpiError e) {
            throw fail("MPI_Comm_accept", e);
        }
    }

    public final Intercomm accept(String port, Info info, int root) throws MPIException {
        return accept(port, root);
    }

    /**
     * MPI_Comm_connect: collective over this communicator; {@code port} significant at {@code root} only. Fails
     * with ERR_PORT at once for a malformed name or a closed port, and after {@code jmpi.dpm.timeout} seconds (60)
     * when nobody accepts.
     */
    public final Intercomm connect(String port, int root) throws MPIException {
        try {
            Communicator c = live();
            checkRoot(c, root);
            return CommOps.adopt(this, new Intercomm(), DynamicProcesses.connect(port, c, root), false);
        } catch (MpiError e) {
            throw fail("MPI_Comm_connect", e);
        }
    }

    public final Intercomm connect(String port, Info info, int root) throws MPIException {
        return connect(port, root);
    }

    /** MPI_Publish_name through the name service ({@code JMPI_NAMESERVER}, which jmpirun sets). */
    public static void publishName(String service, String port) throws MPIException {
        try {
            NameServiceClient.fromEnvironment().publish(service, port);
        } catch (MpiError e) {
            throw Errors.raise("MPI_Publish_name", e);
        }
    }

    public static void publishName(String service, Info info, String port) throws MPIException {
        publishName(service, port);
    }

    public static void unpublishName(String service, String port) throws MPIException {
        try {
            NameServiceClient.fromEnvironment().unpublish(service, port);
        } catch (MpiError e) {
            throw Errors.raise("MPI_Unpublish_name", e);
        }
    }

    public static void unpublishName(String service, Info info, String port) throws MPIException {
        unpublishName(service, port);
    }

    /** MPI_Lookup_name: the port published under {@code service}; ERR_NAME when none is. */
    public static String lookupName(String service) throws MPIException {
        try {
            return NameServiceClient.fromEnvironment().lookup(service);
        } catch (MpiError e) {
            throw Errors.raise("MPI_Lookup_name", e);
        }
    }

    public static String lookupName(String service, Info info) throws MPIException {
        return lookupName(service);
    }

    /**
     * MPI_Comm_spawn: starts {@code maxprocs} copies of {@code command} (an executable, {@code "java"} with its
     * options, or a Java main class name run with this process's class path) as a job of their own and returns the
     * intercommunicator to it. Collective over this communicator; everything but {@code root} is significant at the
     * root only. {@code errcodes} (may be null) gets one code per process: SUCCESS, or ERR_SPAWN when the spawn
     * failed.
     */
    public final Intercomm spawn(String command, String[] argv, int maxprocs, Info info, int root, int[] errcodes)
            throws MPIException {
        return spawnMultiple(new String[] {command}, new String[][] {argv}, new int[] {maxprocs},
                new Info[] {info}, root, errcodes, "MPI_Comm_spawn");
    }

    public final Intercomm spawnMultiple(String[] commands, String[][] argv, int[] maxprocs, Info[] info, int root,
            int[] errcodes) throws MPIException {
        return spawnMultiple(commands, argv, maxprocs, info, root, errcodes, "MPI_Comm_spawn_multiple");
    }

    private Intercomm spawnMultiple(String[] commands, String[][] argv, int[] maxprocs, Info[] info, int root,
            int[] errcodes, String call) throws MPIException {
        org.jmpi.runtime.events.SpawnEvent ev = Jfr.spawn();
        try {
            Communicator c = live();
            checkRoot(c, root);
            List<Map<String, String>> hints = new ArrayList<>();
            if (c.rank() == root) {
                if (commands == null || maxprocs == null || commands.length == 0 || maxprocs.length != commands.length
                        || (argv != null && argv.length != commands.length)
                        || (info != null && info.length != commands.length)) {
                    throw new MpiError(MPI.ERR_ARG, "commands, argv, maxprocs and info must have one entry per "
                            + "command");
                }
                for (int i = 0; i < commands.length; i++) {
                    if (commands[i] == null || commands[i].isEmpty()) {
                        throw new MpiError(MPI.ERR_ARG, "command " + i + " is empty");
                    }
                    Map<String, String> m = new HashMap<>();
                    Info in = info == null ? null : info[i];
                    if (in != null && !in.isNull()) {
                        for (int k = 0; k < in.size(); k++) {
                            String key = in.getKey(k);
                            m.put(key, in.get(key));
                        }
                    }
                    hints.add(m);
                }
            }
            Communicator inter;
            try {
                inter = DynamicProcesses.spawn(commands, argv == null ? new String[commands == null ? 0
                        : commands.length][] : argv, maxprocs, hints, c, root);
            } catch (MpiError e) {
                if (errcodes != null) {
                    Arrays.fill(errcodes, e.errorClass() == MPI.ERR_SPAWN ? MPI.ERR_SPAWN : e.errorClass());
                }
                throw e;
            }
            if (errcodes != null) {
                Arrays.fill(errcodes, 0, Math.min(errcodes.length, inter.size()), MPI.SUCCESS);
            }
            Jfr.spawn(ev, commands == null ? "" : String.join(" ", commands), inter.size());
            return CommOps.adopt(this, new Intercomm(), inter, false);
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    private static void checkRoot(Communicator c, int root) {
        if (root < 0 || root >= c.size()) {
            throw new MpiError(MPI.ERR_ROOT, "root " + root + " is not a rank of the communicator (size " + c.size()
                    + ")");
        }
    }
}
