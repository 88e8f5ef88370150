package org.jmpi.bootstrap;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code PMI_process_mapping} value that Hydra, Slurm and jmpirun publish: which node each rank runs on.
 *
 * <p>Format: {@code (vector,(first,count,ranks),...)}. Each triple says: {@code count} nodes starting at node
 * {@code first} each take {@code ranks} consecutive ranks. When the triples describe fewer ranks than the job has,
 * MPICH repeats the whole vector cyclically with the same node numbers, so {@code (vector,(0,1,1))} means "every rank
 * on node 0" under Hydra on one host. Examples: {@code (vector,(0,2,2))} with 4 ranks gives nodes 0,0,1,1;
 * {@code (vector,(0,2,1))} gives 0,1,0,1.
 *
 * <p>Threading: immutable.
 */
public final class ProcessMapping {
    private final int[] nodeOf;
    private final int nodes;

    private ProcessMapping(int[] nodeOf) {
        this.nodeOf = nodeOf;
        int max = -1;
        for (int n : nodeOf) {
            max = Math.max(max, n);
        }
        this.nodes = max + 1;
    }

    /**
     * Parses a mapping for a job of {@code size} ranks.
     *
     * @return the mapping, or {@code null} when {@code value} is null, empty or not in the vector format (callers then
     *     fall back to comparing host identities)
     */
    public static ProcessMapping parse(String value, int size) {
        if (value == null || size < 1) {
            return null;
        }
        String s = value.replaceAll("\\s+", "");
        if (!s.startsWith("(vector") || !s.endsWith(")")) {
            return null;
        }
        List<int[]> blocks = new ArrayList<>();
        int i = "(vector".length();
        while (i < s.length() && s.charAt(i) == ',') {
            if (i + 1 >= s.length() || s.charAt(i + 1) != '(') {
                return null;
            }
            int close = s.indexOf(')', i + 2);
            if (close < 0) {
                return null;
            }
            String[] parts = s.substring(i + 2, close).split(",");
            if (parts.length != 3) {
                return null;
            }
            int[] b = new int[3];
            try {
                for (int k = 0; k < 3; k++) {
                    b[k] = Integer.parseInt(parts[k]);
                }
            } catch (NumberFormatException e) {
                return null;
            }
            if (b[0] < 0 || b[1] < 1 || b[2] < 1) {
                return null;
            }
            blocks.add(b);
            i = close + 1;
        }
        if (blocks.isEmpty() || i != s.length() - 1) {
            return null;
        }
        int[] nodeOf = new int[size];
        int rank = 0;
        while (rank < size) {
            for (int[] b : blocks) {
                for (int node = b[0]; node < b[0] + b[1] && rank < size; node++) {
                    for (int k = 0; k < b[2] && rank < size; k++) {
                        nodeOf[rank++] = node;
                    }
                }
            }
        }
        return new ProcessMapping(nodeOf);
    }

    /**
     * The compact mapping string of a placement: {@code nodeOf[r]} is the node of rank r (nodes numbered from 0 in
     * order of first use). Consecutive ranks on one node form a block; blocks of the same length on consecutive
     * nodes merge into one triple; a vector that repeats with a shorter period is cut to that period.
     */
    public static String format(int[] nodeOf) {
        List<int[]> runs = new ArrayList<>(); // (node, length)
        for (int r = 0; r < nodeOf.length; ) {
            int e = r;
            while (e < nodeOf.length && nodeOf[e] == nodeOf[r]) {
                e++;
            }
            runs.add(new int[] {nodeOf[r], e - r});
            r = e;
        }
        List<int[]> triples = new ArrayList<>(); // (first, count, ranks)
        for (int[] run : runs) {
            int[] last = triples.isEmpty() ? null : triples.get(triples.size() - 1);
            if (last != null && last[2] == run[1] && last[0] + last[1] == run[0]) {
                last[1]++;
            } else {
                triples.add(new int[] {run[0], 1, run[1]});
            }
        }
        // shortest period: the triples repeat and the repeat reproduces the whole placement
        for (int period = 1; period < triples.size(); period++) {
            if (triples.size() % period != 0) {
                continue;
            }
            boolean repeats = true;
            for (int k = period; k < triples.size() && repeats; k++) {
                int[] a = triples.get(k);
                int[] b = triples.get(k - period);
                repeats = a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
            }
            if (repeats) {
                triples = triples.subList(0, period);
                break;
            }
        }
        StringBuilder sb = new StringBuilder("(vector");
        for (int[] t : triples) {
            sb.append(",(").append(t[0]).append(',').append(t[1]).append(',').append(t[2]).append(')');
        }
        return sb.append(')').toString();
    }

    /** The node of a rank. */
    public int nodeOf(int rank) {
        return nodeOf[rank];
    }

    /** Number of distinct nodes used. */
    public int nodes() {
        return nodes;
    }

    /** Number of ranks described. */
    public int size() {
        return nodeOf.length;
    }

    @Override
    public String toString() {
        return format(nodeOf);
    }
}
