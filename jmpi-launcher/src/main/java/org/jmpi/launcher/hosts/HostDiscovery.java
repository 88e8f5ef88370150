package org.jmpi.launcher.hosts;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jmpi.launcher.HostSpec;

/**
 * Where jmpirun's hosts come from, in this order (the first source present wins; two conflicting ones are an
 * error, and so is a source that cannot be read or parsed: jmpirun never falls back to this host silently):
 *
 * <ol>
 *   <li>{@code -H/--host/-hosts a,b:2} or {@code -f/--hostfile/-machinefile FILE} on the command line (not both);</li>
 *   <li>a hostfile named by {@code HYDRA_HOST_FILE} (mpi-operator with MPICH), {@code I_MPI_HYDRA_HOST_FILE}
 *       (Intel), {@code OMPI_MCA_orte_default_hostfile} (mpi-operator with Open MPI), or
 *       {@code PRTE_MCA_prte_default_hostfile} (Open MPI 5);</li>
 *   <li>{@code MPI_HOST} (Volcano's MPI plugin: a comma-separated list);</li>
 *   <li>a Slurm allocation: {@code SLURM_JOB_NODELIST} (or {@code SLURM_NODELIST}) with
 *       {@code SLURM_TASKS_PER_NODE} as slots;</li>
 *   <li>{@code PBS_NODEFILE} (one line per slot);</li>
 *   <li>none: this host only.</li>
 * </ol>
 *
 * Hosts written without a slot count get {@code OMPI_MCA_orte_set_default_slots} or {@code I_MPI_PERHOST} slots
 * (mpi-operator sets them to its {@code slotsPerWorker}), else 1.
 */
public final class HostDiscovery {
    private HostDiscovery() {}

    /** Variables that name a hostfile, in the order they are consulted. */
    public static final List<String> HOSTFILE_VARIABLES = List.of("HYDRA_HOST_FILE", "I_MPI_HYDRA_HOST_FILE",
            "OMPI_MCA_orte_default_hostfile", "PRTE_MCA_prte_default_hostfile");

    /**
     * The hosts found, and a phrase saying where they came from (for messages).
     *
     * @param hosts null when no source named any: the job runs on this host
     */
    public record Result(List<HostSpec> hosts, String source) {}

    /**
     * Finds the hosts.
     *
     * @param hostList the {@code -H} value(s), or null
     * @param hostfile the {@code -f} value, or null
     */
    public static Result discover(List<String> hostList, String hostfile, Map<String, String> env)
            throws HostListException {
        int defaultSlots = defaultSlots(env);
        if (hostList != null && !hostList.isEmpty() && hostfile != null) {
            throw new HostListException("give either a host list (-H) or a hostfile (-f), not both");
        }
        if (hostList != null && !hostList.isEmpty()) {
            return new Result(HostLists.parseHostList(String.join(",", hostList), defaultSlots), "-H");
        }
        if (hostfile != null) {
            return new Result(HostLists.readHostfile(Path.of(hostfile), defaultSlots), "hostfile " + hostfile);
        }
        Map<String, String> named = new LinkedHashMap<>();
        for (String v : HOSTFILE_VARIABLES) {
            String f = env.get(v);
            if (f != null && !f.isBlank()) {
                named.put(v, f.trim());
            }
        }
        if (!named.isEmpty()) {
            String first = named.keySet().iterator().next();
            String file = named.get(first);
            for (Map.Entry<String, String> e : named.entrySet()) {
                if (!samePath(e.getValue(), file)) {
                    throw new HostListException(first + "=" + file + " and " + e.getKey() + "=" + e.getValue()
                            + " name different hostfiles; unset one");
                }
            }
            return new Result(HostLists.readHostfile(Path.of(file), defaultSlots), "hostfile " + file + " (from "
                    + first + ")");
        }
        String mpiHost = env.get("MPI_HOST");
        if (mpiHost != null && !mpiHost.isBlank()) {
            return new Result(HostLists.parseHostList(mpiHost, defaultSlots), "MPI_HOST");
        }
        String nodes = firstSet(env, "SLURM_JOB_NODELIST", "SLURM_NODELIST");
        if (nodes != null) {
            List<String> names = HostLists.expandSlurmNodeList(nodes);
            String counts = firstSet(env, "SLURM_TASKS_PER_NODE", "SLURM_JOB_CPUS_PER_NODE");
            List<Integer> slots = counts == null ? null : HostLists.expandSlurmCounts(counts);
            if (slots != null && slots.size() != names.size()) {
                throw new HostListException("the Slurm allocation has " + names.size() + " nodes (" + nodes
                        + ") but " + slots.size() + " task counts (" + counts + ")");
            }
            List<HostSpec> hosts = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                hosts.add(slots == null ? new HostSpec(names.get(i), defaultSlots, false)
                        : HostSpec.of(names.get(i), slots.get(i)));
            }
            return new Result(hosts, "the Slurm allocation (SLURM_JOB_NODELIST)");
        }
        String pbs = env.get("PBS_NODEFILE");
        if (pbs != null && !pbs.isBlank()) {
            return new Result(HostLists.readHostfile(Path.of(pbs.trim()), 1), "PBS_NODEFILE");
        }
        return new Result(null, "this host");
    }

    private static boolean samePath(String a, String b) {
        try {
            return Path.of(a).toAbsolutePath().normalize().equals(Path.of(b).toAbsolutePath().normalize())
                    || Files.isSameFile(Path.of(a), Path.of(b));
        } catch (IOException | RuntimeException e) {
            return a.equals(b);
        }
    }

    private static String firstSet(Map<String, String> env, String... names) {
        for (String n : names) {
            String v = env.get(n);
            if (v != null && !v.isBlank()) {
                return v.trim();
            }
        }
        return null;
    }

    /** Slots for hosts without a count: OMPI_MCA_orte_set_default_slots, I_MPI_PERHOST, else 1. */
    static int defaultSlots(Map<String, String> env) throws HostListException {
        for (String v : new String[] {"OMPI_MCA_orte_set_default_slots", "I_MPI_PERHOST"}) {
            String s = env.get(v);
            if (s != null && !s.isBlank()) {
                try {
                    return HostLists.positive(s, v);
                } catch (HostListException e) {
                    throw new HostListException(v + "=" + s + " is not supported: jmpirun needs a number of slots");
                }
            }
        }
        return 1;
    }

    /**
     * Whether {@code host} names this machine (same network namespace): {@code localhost}, a loopback address, this
     * host's name, or a name that resolves to an address of one of this machine's interfaces. Names that do not
     * resolve are not local.
     */
    public static boolean isLocal(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.equals("localhost") || h.equals("localhost.localdomain")) {
            return true;
        }
        String me = localHostName();
        if (me != null && (h.equals(me) || h.equals(shortName(me)))) {
            return true;
        }
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (a.isLoopbackAddress() || a.isAnyLocalAddress() || NetworkInterface.getByInetAddress(a) != null) {
                    return true;
                }
            }
        } catch (UnknownHostException e) {
            return false;
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    private static String shortName(String n) {
        int dot = n.indexOf('.');
        return dot < 0 ? n : n.substring(0, dot);
    }

    private static String localHostName() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).trim().toLowerCase(Locale.ROOT);
        } catch (IOException | RuntimeException e) {
            try {
                return InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT);
            } catch (IOException ex) {
                return null;
            }
        }
    }
}
