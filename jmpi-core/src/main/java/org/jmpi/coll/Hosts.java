package org.jmpi.coll;

import java.util.ArrayList;
import java.util.List;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.JmpiRuntime;

/**
 * Which members of a communicator share a host, for the hierarchical collectives ({@link Hierarchical}): the members
 * in groups, one per host, each in rank order, the groups in the order of their first rank. Made from the job's host
 * map ({@link JmpiRuntime#hostOf}: the process manager's node map, else the host identities the ranks published), which
 * every rank reads alike, so every member computes the same groups. A communicator with a member the map does not
 * cover (another job's process), an intercommunicator, or threads mode is one group.
 *
 * <p>Threading: immutable; kept by the communicator ({@link Communicator#hosts()}), where two threads may both make
 * it, which is harmless.
 */
final class Hosts {
    /** Comm ranks by host. */
    final int[][] groups;
    /** Comm rank to its group's index. */
    final int[] groupOf;
    /** Whether every group is a run of consecutive comm ranks. */
    final boolean contiguous;

    Hosts(int[] hostIndex) {
        int n = 0;
        for (int h : hostIndex) {
            n = Math.max(n, h + 1);
        }
        int[] sizes = new int[n];
        for (int h : hostIndex) {
            sizes[h]++;
        }
        groups = new int[n][];
        for (int g = 0; g < n; g++) {
            groups[g] = new int[sizes[g]];
            sizes[g] = 0;
        }
        boolean runs = true;
        for (int r = 0; r < hostIndex.length; r++) {
            int g = hostIndex[r];
            groups[g][sizes[g]++] = r;
            runs &= sizes[g] == 1 || groups[g][sizes[g] - 2] == r - 1;
        }
        this.groupOf = hostIndex;
        this.contiguous = runs;
    }

    /** The layout of {@code c}, made on first use. */
    static Hosts of(Communicator c) {
        Object h = c.hosts();
        if (h instanceof Hosts hosts) {
            return hosts;
        }
        Hosts made = new Hosts(hostIndex(c));
        c.hosts(made);
        return made;
    }

    /** Per comm rank, the index of its host in order of first appearance; all 0 when the map cannot tell. */
    private static int[] hostIndex(Communicator c) {
        int p = c.size();
        int[] index = new int[p];
        JmpiRuntime rt = JmpiRuntime.current();
        if (rt == null || c.isInter() || p == 1) {
            return index;
        }
        List<Object> seen = new ArrayList<>();
        for (int r = 0; r < p; r++) {
            Object host = rt.hostOf(c.worldRank(r));
            if (host == null) {
                return new int[p];
            }
            int i = seen.indexOf(host);
            if (i < 0) {
                i = seen.size();
                seen.add(host);
            }
            index[r] = i;
        }
        return index;
    }

    /**
     * Whether the hierarchical algorithms have something to gain: more than one host, and some host with more than
     * one member.
     */
    boolean spans() {
        return groups.length > 1 && groups.length < groupOf.length;
    }

    /** Whether every rank is on one host (or the node map cannot tell). */
    boolean oneHost() {
        return groups.length == 1;
    }

    /** How many edges of the binomial tree from {@code root} ({@link Binomial}) join ranks of different hosts. */
    int treeCrossings(int root) {
        int p = groupOf.length;
        int n = 0;
        for (int rel = 1; rel < p; rel++) {
            int parent = rel - Integer.lowestOneBit(rel);
            n += groupOf[Binomial.abs(rel, root, p)] != groupOf[Binomial.abs(parent, root, p)] ? 1 : 0;
        }
        return n;
    }

    /** The group of comm rank {@code r}. */
    int[] groupOf(int r) {
        return groups[groupOf[r]];
    }

    /** Per group its leader for a call rooted at {@code root}: the root in its own group, the first rank elsewhere. */
    int[] leaders(int root) {
        int[] l = new int[groups.length];
        for (int g = 0; g < l.length; g++) {
            l[g] = groups[g][0];
        }
        l[groupOf[root]] = root;
        return l;
    }

    /** The position of {@code r} in {@code members}, or -1. */
    static int indexOf(int[] members, int r) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == r) {
                return i;
            }
        }
        return -1;
    }
}
