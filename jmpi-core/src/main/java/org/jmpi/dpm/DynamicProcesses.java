package org.jmpi.dpm;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jmpi.comm.GroupCollectives;
import org.jmpi.comm.Intercomms;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;
import org.jmpi.transport.select.SelectingTransport;

/**
 * Dynamic process management of one rank: its open ports, the processes of other jobs it is connected to, the
 * intercommunicators that hold them, its parent (when spawned) and the launchers it started. Package {@code mpi}
 * calls the static methods; the state lives in one instance per runtime, made at the first call that needs it.
 *
 * <p>Threading: the instance is made under the class lock; ports and holds are concurrent maps; the process table
 * synchronizes itself. Accept and connect run in the calling thread and block it (the root waits on a socket).
 */
public final class DynamicProcesses {
    private static DynamicProcesses instance;
    /** Ports this rank opened, by name. Static: ports outlive no runtime, but closePort needs no instance. */
    private static final Map<String, OpenPort> PORTS = new ConcurrentHashMap<>();

    private final JmpiRuntime runtime;
    private final ProcessTable table;
    /** Context id of each intercommunicator made by connect/accept/spawn -> the remote peer indices it holds. */
    private final Map<Integer, int[]> holds = new ConcurrentHashMap<>();
    private final Spawner spawner;
    private final ThreadsSpawner threadsSpawner;

    private DynamicProcesses(JmpiRuntime runtime) {
        this.runtime = runtime;
        if (runtime.threadsMode()) {
            this.table = ProcessTable.inJvm(runtime);
        } else {
            SelectingTransport t = (SelectingTransport) runtime.transportForOtherJobs();
            t.expectOtherJobs();
            this.table = ProcessTable.overTcp(runtime, t.tcp());
        }
        this.spawner = new Spawner(this);
        this.threadsSpawner = new ThreadsSpawner(this);
    }

    /** The instance of the current runtime (made now if needed: opens a TCP transport in a job of one). */
    static synchronized DynamicProcesses get() {
        JmpiRuntime rt = JmpiRuntime.get();
        if (instance == null || instance.runtime != rt) {
            instance = new DynamicProcesses(rt);
        }
        return instance;
    }

    /** The instance if one was made for the current runtime, else null. */
    private static synchronized DynamicProcesses existing() {
        JmpiRuntime rt = JmpiRuntime.current();
        return instance != null && instance.runtime == rt ? instance : null;
    }

    ProcessTable table() {
        return table;
    }

    JmpiRuntime runtime() {
        return runtime;
    }

    /** The group table of {@code comm}: one identity line per rank, in rank order. */
    String tableOf(Communicator comm) {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < comm.size(); r++) {
            if (r > 0) {
                sb.append('\n');
            }
            sb.append(table.describe(comm.worldRank(r)).encode());
        }
        return sb.toString();
    }

    void hold(Communicator inter, int[] remote) {
        holds.put(inter.context(), remote.clone());
    }

    // ============================================================================================ ports

    /** MPI_Open_port. */
    public static String openPort() {
        DynamicProcesses dp = get();
        OpenPort p = OpenPort.open(dp.table.portHost());
        String name = p.name().format();
        PORTS.put(name, p);
        return name;
    }

    /** MPI_Close_port. */
    public static void closePort(String name) {
        OpenPort p = name == null ? null : PORTS.remove(name);
        if (p == null) {
            throw new MpiError(ErrorClass.ERR_PORT, "'" + name + "' is not a port this process opened (or it was "
                    + "closed already)");
        }
        p.close();
    }

    /** MPI_Comm_accept; collective over {@code comm}, {@code port} significant at {@code root} only. */
    public static Communicator accept(String port, Communicator comm, int root) {
        OpenPort p = comm.rank() == root && port != null ? PORTS.get(port) : null;
        return PortConnection.accept(get(), p, port, comm, root, () -> false);
    }

    /** MPI_Comm_connect; collective over {@code comm}, {@code port} significant at {@code root} only. */
    public static Communicator connect(String port, Communicator comm, int root) {
        return PortConnection.connect(get(), port, comm, root);
    }

    // ============================================================================================ spawn

    /**
     * MPI_Comm_spawn_multiple (spawn is the case of one command); collective over {@code comm}, the commands
     * significant at {@code root} only.
     *
     * @param commands program (an executable or a Java main class name) per command
     * @param argv arguments per command (without the program)
     * @param maxprocs processes per command, each at least 1
     * @param info the Info hints per command ({@code host}, {@code wdir}, {@code path}, {@code file}, {@code soft},
     *     {@code arch}); other keys are ignored
     * @return the intercommunicator to the children
     * @throws MpiError ERR_SPAWN when the children could not be started, ERR_ARG for a bad count
     */
    public static Communicator spawn(String[] commands, String[][] argv, int[] maxprocs, List<Map<String, String>> info,
            Communicator comm, int root) {
        DynamicProcesses dp = get();
        List<Spawner.Command> cmds = new java.util.ArrayList<>();
        MpiError bad = null;
        if (comm.rank() == root) {
            try {
                int universe = universeSize();
                for (int i = 0; i < commands.length; i++) {
                    Map<String, String> hints = info.get(i);
                    int n = Spawner.count(maxprocs[i], hints.get("soft"), universe);
                    cmds.add(new Spawner.Command(commands[i], argv[i] == null ? new String[0] : argv[i], n, hints));
                }
            } catch (MpiError e) {
                bad = e;
            }
            if (bad != null) {
                return PortConnection.failAtRoot(dp, comm, root, bad);
            }
        }
        return dp.runtime.threadsMode() ? dp.threadsSpawner.spawn(cmds, comm, root)
                : dp.spawner.spawn(cmds, comm, root);
    }

    /**
     * The universe size: {@code JMPI_UNIVERSE_SIZE} ({@code jmpi.universe.size}) when set, else what the process
     * manager says when it knows (Hydra's PMI-1 {@code get_universe_size}, with {@code mpiexec.hydra -usize}), else 0
     * (unknown: spawn is not limited, and {@code MPI.UNIVERSE_SIZE} reads as the world's size).
     */
    public static int universeSize() {
        String v = System.getProperty("jmpi.universe.size", System.getenv("JMPI_UNIVERSE_SIZE"));
        if (v == null || v.isBlank()) {
            JmpiRuntime rt = JmpiRuntime.current();
            return rt == null ? 0 : Math.max(0, ProcessManagerFacts.universeSize(rt));
        }
        try {
            return Math.max(0, Integer.parseInt(v.trim()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * This process's application number ({@code MPI.APPNUM}): the index of its command in the spawnMultiple (or of
     * its application context on jmpirun's command line) that started it; 0 when there was only one.
     * {@code JMPI_APPNUM} under jmpirun, the job's key-value space in threads mode, PMI-1 {@code get_appnum} under
     * Hydra.
     */
    public static int appnum() {
        JmpiRuntime rt = JmpiRuntime.current();
        if (rt != null && rt.threadsMode()) {
            String v = rt.bootstrap().get(ThreadsSpawner.APPNUM_KEY_PREFIX + rt.rank());
            return v == null ? 0 : Integer.parseInt(v);
        }
        String v = System.getenv("JMPI_APPNUM");
        if (v != null) {
            try {
                return Integer.parseInt(v.trim());
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return rt == null ? 0 : Math.max(0, ProcessManagerFacts.appnum(rt));
    }

    /**
     * The number of ranks of each application context of this job, in rank order (the contexts of jmpirun's command
     * line separated by ':', the commands of a spawnMultiple), as the launcher tells it: {@code JMPI_APP_SIZES} under
     * jmpirun, the job's key-value space in threads mode. With no word of it: one context holding the whole world in
     * threads mode (jmpirun --threads runs one program) and for a singleton; else null (unknown: Hydra's and Slurm's
     * PMI give no such list, and the job may be MPMD).
     */
    public static int[] appSizes() {
        JmpiRuntime rt = JmpiRuntime.get();
        int world = rt.world().size();
        if (rt.bootstrap() instanceof org.jmpi.bootstrap.SingletonBootstrap) {
            return new int[] {world};
        }
        String v = rt.threadsMode() ? rt.bootstrap().get(ThreadsSpawner.APP_SIZES_KEY)
                : System.getenv("JMPI_APP_SIZES");
        if (v != null && !v.isBlank()) {
            try {
                int[] sizes = java.util.Arrays.stream(v.trim().split("\\s+")).mapToInt(Integer::parseInt).toArray();
                if (java.util.Arrays.stream(sizes).allMatch(n -> n > 0)
                        && java.util.Arrays.stream(sizes).sum() == world) {
                    return sizes;
                }
            } catch (NumberFormatException e) {
                // not a list of sizes: unknown
            }
            return null;
        }
        return rt.threadsMode() ? new int[] {world} : null;
    }

    /**
     * In a spawned process's {@code MPI.Init}: connects this job's world to the parents' port and returns the parent
     * intercommunicator; null when this job was not spawned. The port comes from {@code JMPI_PARENT_PORT} (children
     * started by jmpirun), from the key-value space (children started by Hydra's PMI-1 spawn, {@code PMI_SPAWNED=1},
     * and threads-mode children, whose job is seeded with it).
     */
    public static Communicator connectToParent() {
        JmpiRuntime rt = JmpiRuntime.get();
        String port;
        if (rt.threadsMode()) {
            port = rt.bootstrap().get(Spawner.PARENT_PORT_KEY);
        } else {
            port = System.getenv("JMPI_PARENT_PORT");
            if ((port == null || port.isBlank()) && "1".equals(System.getenv("PMI_SPAWNED"))) {
                port = rt.bootstrap().get(Spawner.PARENT_PORT_KEY); // spawned by Hydra
            }
        }
        if (port == null || port.isBlank()) {
            return null;
        }
        return PortConnection.connect(get(), port, rt.world(), 0);
    }

    /**
     * Before MPI_Finalize: a root that spawned waits for the children's jobs to end; in threads mode the links to
     * other jobs that were not disconnected are dropped.
     */
    public static void beforeFinalize() {
        DynamicProcesses dp = existing();
        if (dp != null) {
            dp.spawner.awaitLaunchers();
            dp.threadsSpawner.awaitJobs();
            dp.table.close();
        }
    }

    // ============================================================================================ disconnect

    /**
     * MPI_Comm_disconnect (before the communicator is freed): waits for the traffic of both groups (a barrier over
     * both for an intercommunicator, over the group otherwise), then, for an intercommunicator made by connect,
     * accept or spawn, gives back its hold on the remote processes (the last hold closes their connections).
     */
    public static void disconnect(Communicator c) {
        if (c.isInter()) {
            Intercomms.barrierAcross(c);
        } else {
            GroupCollectives.barrier(c);
        }
        DynamicProcesses dp = existing();
        if (dp != null) {
            int[] held = dp.holds.remove(c.context());
            if (held != null) {
                for (int r : held) {
                    dp.table.detach(r);
                }
            }
        }
    }

    // ============================================================================================ helpers

    /** Broadcasts {@code bytes} (significant at {@code root}, {@code length} long everywhere) over {@code comm}. */
    static byte[] bcastBytes(Communicator comm, byte[] bytes, int length, int root) {
        int[] words = new int[(length + 3) / 4];
        if (comm.rank() == root) {
            for (int i = 0; i < length; i++) {
                words[i >> 2] |= (bytes[i] & 0xff) << ((i & 3) * 8);
            }
        }
        GroupCollectives.bcast(comm, words, root);
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = (byte) (words[i >> 2] >>> ((i & 3) * 8));
        }
        return out;
    }

    /** Processes of other jobs this rank holds now, open ports, launchers running (for leak checks). */
    public static Map<String, Integer> census() {
        Map<String, Integer> m = new HashMap<>();
        DynamicProcesses dp = existing();
        m.put("ports", PORTS.size());
        m.put("processes", dp == null ? 0 : dp.table.attached());
        m.put("holds", dp == null ? 0 : dp.holds.size());
        m.put("launchers", dp == null ? 0 : dp.spawner.running() + dp.threadsSpawner.running());
        return m;
    }

}
