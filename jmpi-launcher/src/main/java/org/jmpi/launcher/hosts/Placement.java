package org.jmpi.launcher.hosts;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jmpi.bootstrap.ProcessMapping;
import org.jmpi.launcher.HostSpec;

/**
 * Which host each rank runs on.
 *
 * <ul>
 *   <li>{@code slot} (the default, as in Open MPI and Hydra): fill the first host's slots with consecutive ranks, then
 *       the next host's, and so on; when every slot is taken, start again from the first host (oversubscribing).</li>
 *   <li>{@code node}: one rank per host in turn, skipping hosts whose slots are full while another has room.</li>
 *   <li>a ranks-per-host count ({@code -ppn N}, {@code --npernode N}, {@code --map-by ppr:N:node}): blocks of N
 *       consecutive ranks per host, whatever the slots say, cycling over the hosts.</li>
 * </ul>
 *
 * With {@code oversubscribe=false} a placement that needs more ranks than slots is an error, as in Open MPI; the
 * default allows it, as Hydra does.
 *
 * <p>Threading: immutable.
 *
 * @param hosts the hosts in order
 * @param hostOf the host index of every rank
 */
public record Placement(List<HostSpec> hosts, int[] hostOf) {
    public Placement {
        hosts = List.copyOf(hosts);
        hostOf = hostOf.clone();
    }

    /** How ranks are spread. */
    public enum MapBy {
        SLOT, NODE;

        /** Parses {@code slot}, {@code node}, {@code core} (treated as slot), case-insensitively. */
        public static MapBy parse(String s) throws HostListException {
            String v = s.trim().toLowerCase(Locale.ROOT);
            int colon = v.indexOf(':');
            String head = colon < 0 ? v : v.substring(0, colon);
            String mods = colon < 0 ? "" : v.substring(colon + 1);
            if (!mods.isEmpty() && !mods.equals("oversubscribe") && !mods.equals("nooversubscribe")) {
                throw new HostListException("--map-by modifier '" + mods + "' is not supported (known: "
                        + "oversubscribe)");
            }
            return switch (head) {
                case "slot", "core", "hwthread" -> SLOT;
                case "node" -> NODE;
                default -> throw new HostListException("--map-by " + s + " is not supported (use slot, node or "
                        + "ppr:N:node)");
            };
        }
    }

    /**
     * Places {@code ranks} ranks.
     *
     * @param perHost ranks per host when {@code > 0} (overrides slots and {@code mapBy})
     */
    public static Placement of(List<HostSpec> hosts, int ranks, MapBy mapBy, int perHost, boolean oversubscribe)
            throws HostListException {
        if (hosts.isEmpty()) {
            throw new HostListException("no hosts to place ranks on");
        }
        int h = hosts.size();
        int total = 0;
        for (HostSpec s : hosts) {
            total += s.slots();
        }
        int capacity = perHost > 0 ? perHost * h : total;
        if (!oversubscribe && ranks > capacity) {
            throw new HostListException("there are not enough slots for " + ranks + " ranks: " + capacity
                    + " on " + hosts + " (add --oversubscribe, more hosts or more slots)");
        }
        int[] hostOf = new int[ranks];
        if (perHost > 0) {
            for (int r = 0; r < ranks; r++) {
                hostOf[r] = (r / perHost) % h;
            }
        } else if (mapBy == MapBy.SLOT) {
            int r = 0;
            while (r < ranks) {
                for (int i = 0; i < h && r < ranks; i++) {
                    for (int k = 0; k < hosts.get(i).slots() && r < ranks; k++) {
                        hostOf[r++] = i;
                    }
                }
            }
        } else {
            int[] used = new int[h];
            int r = 0;
            int i = 0;
            while (r < ranks) {
                boolean room = false;
                for (int k = 0; k < h; k++) {
                    if (used[k] < hosts.get(k).slots()) {
                        room = true;
                        break;
                    }
                }
                if (!room || used[i] < hosts.get(i).slots()) {
                    hostOf[r++] = i;
                    used[i]++;
                }
                i = (i + 1) % h;
            }
        }
        return new Placement(hosts, hostOf);
    }

    /** The ranks of host {@code i}, in order. */
    public List<Integer> ranksOn(int host) {
        List<Integer> out = new ArrayList<>();
        for (int r = 0; r < hostOf.length; r++) {
            if (hostOf[r] == host) {
                out.add(r);
            }
        }
        return out;
    }

    /** Number of ranks. */
    public int size() {
        return hostOf.length;
    }

    /** Number of hosts that got at least one rank. */
    public int usedHosts() {
        boolean[] used = new boolean[hosts.size()];
        int n = 0;
        for (int x : hostOf) {
            if (!used[x]) {
                used[x] = true;
                n++;
            }
        }
        return n;
    }

    /**
     * {@code PMI_process_mapping}: node ids are host indices renumbered in order of first use, which is how MPICH
     * numbers them.
     */
    public String processMapping() {
        int[] renumber = new int[hosts.size()];
        java.util.Arrays.fill(renumber, -1);
        int next = 0;
        int[] node = new int[hostOf.length];
        for (int r = 0; r < hostOf.length; r++) {
            if (renumber[hostOf[r]] < 0) {
                renumber[hostOf[r]] = next++;
            }
            node[r] = renumber[hostOf[r]];
        }
        return ProcessMapping.format(node);
    }
}
