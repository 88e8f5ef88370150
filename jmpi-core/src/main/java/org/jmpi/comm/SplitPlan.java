package org.jmpi.comm;

import java.util.Arrays;

/**
 * The membership of one part of MPI_Comm_split: from every rank's (colour, key), the ranks of the parent that share
 * a colour, ordered by key and then by parent rank.
 *
 * <p>Cost: {@code O(P log P)} local work on the allgathered pairs ({@code O(P)} data per rank, as in every MPI).
 *
 * <p>Threading: stateless.
 */
public final class SplitPlan {
    private SplitPlan() {}

    /**
     * @param pairs colour and key of each parent rank: {@code pairs[2r]}, {@code pairs[2r+1]}
     * @param color the colour whose members are wanted
     * @return the parent ranks of the part, in new-rank order
     */
    public static int[] members(int[] pairs, int color, int undefined) {
        int p = pairs.length / 2;
        long[] sortable = new long[p];
        int n = 0;
        for (int r = 0; r < p; r++) {
            if (pairs[2 * r] == color && color != undefined) {
                // key in the high half (signed order kept), parent rank (non-negative) in the low half
                sortable[n++] = ((long) pairs[2 * r + 1] << 32) | r;
            }
        }
        long[] part = Arrays.copyOf(sortable, n);
        Arrays.sort(part);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = (int) part[i];
        }
        return out;
    }
}
