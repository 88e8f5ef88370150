package org.jmpi.topo;

import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * A Cartesian grid: dimensions, periodicity, and row-major rank order (the last dimension varies fastest), as
 * MPI_Cart_create lays processes out. Converts between ranks and coordinates, computes shifts and sub-grids.
 *
 * <p>Cost: every operation is {@code O(ndims)}. Restriction: {@code reorder} is ignored, ranks keep their order.
 *
 * <p>Threading: immutable.
 */
public final class CartTopology implements Topology {
    /** The value MPI uses for "no process" (MPI.PROC_NULL). */
    public static final int PROC_NULL = -2;

    private final int[] dims;
    private final boolean[] periods;
    private final int size;

    public CartTopology(int[] dims, boolean[] periods) {
        this.dims = dims.clone();
        this.periods = periods.clone();
        this.size = product(dims);
    }

    /**
     * Checks the arguments of MPI_Cart_create / MPI_Cart_map over a communicator of {@code commSize} ranks.
     *
     * @return the number of ranks the grid holds
     */
    public static int check(int[] dims, boolean[] periods, int commSize) {
        if (dims == null || periods == null) {
            throw new MpiError(ErrorClass.ERR_ARG, "dims and periods must not be null");
        }
        if (periods.length < dims.length) {
            throw new MpiError(ErrorClass.ERR_ARG, "periods has " + periods.length + " entries for " + dims.length
                    + " dimensions");
        }
        long n = 1;
        for (int d : dims) {
            if (d <= 0) {
                throw new MpiError(ErrorClass.ERR_DIMS, "invalid dimension " + d + " (dimensions must be positive)");
            }
            n *= d;
            if (n > commSize) {
                break;
            }
        }
        if (n > commSize) {
            throw new MpiError(ErrorClass.ERR_TOPOLOGY, "a grid of " + java.util.Arrays.toString(dims)
                    + " needs more processes than the communicator's " + commSize);
        }
        return (int) n;
    }

    private static int product(int[] dims) {
        int n = 1;
        for (int d : dims) {
            n *= d;
        }
        return n;
    }

    public int size() {
        return size;
    }

    public int[] dims() {
        return dims.clone();
    }

    public boolean[] periods() {
        return periods.clone();
    }

    public int[] coords(int rank) {
        if (rank < 0 || rank >= size) {
            throw new MpiError(ErrorClass.ERR_RANK, "invalid rank " + rank + " (grid of " + size + " processes)");
        }
        int[] c = new int[dims.length];
        for (int i = dims.length - 1; i >= 0; i--) {
            c[i] = rank % dims[i];
            rank /= dims[i];
        }
        return c;
    }

    /** The rank at {@code coords}; periodic dimensions wrap, others must be in range. */
    public int rank(int[] coords) {
        if (coords == null || coords.length < dims.length) {
            throw new MpiError(ErrorClass.ERR_ARG, "coords must have " + dims.length + " entries");
        }
        int r = 0;
        for (int i = 0; i < dims.length; i++) {
            int c = coords[i];
            if (c < 0 || c >= dims[i]) {
                if (!periods[i]) {
                    throw new MpiError(ErrorClass.ERR_ARG, "coordinate " + c + " is outside dimension " + i
                            + " of size " + dims[i] + ", which is not periodic");
                }
                c = Math.floorMod(c, dims[i]);
            }
            r = r * dims[i] + c;
        }
        return r;
    }

    /** The rank {@code disp} steps along {@code dim} from {@code rank}, or PROC_NULL off a non-periodic edge. */
    public int neighbor(int rank, int dim, int disp) {
        int[] c = coords(rank);
        long x = (long) c[dim] + disp;
        if (x < 0 || x >= dims[dim]) {
            if (!periods[dim]) {
                return PROC_NULL;
            }
            x = Math.floorMod(x, (long) dims[dim]);
        }
        c[dim] = (int) x;
        return rank(c);
    }

    /** MPI_Cart_shift: {source, dest}. */
    public int[] shift(int rank, int dim, int disp) {
        if (dim < 0 || dim >= dims.length) {
            throw new MpiError(ErrorClass.ERR_DIMS, "invalid direction " + dim + " (grid of " + dims.length
                    + " dimensions)");
        }
        return new int[] {neighbor(rank, dim, -disp), neighbor(rank, dim, disp)};
    }

    /**
     * For MPI_Cart_sub: the colour (the coordinates in the dropped dimensions) and key (the rank in the kept ones)
     * with which to split the grid's communicator, and the sub-grid.
     */
    public int subColor(int rank, boolean[] remain) {
        int[] c = coords(rank);
        int color = 0;
        for (int i = 0; i < dims.length; i++) {
            if (!remain[i]) {
                color = color * dims[i] + c[i];
            }
        }
        return color;
    }

    public int subKey(int rank, boolean[] remain) {
        int[] c = coords(rank);
        int key = 0;
        for (int i = 0; i < dims.length; i++) {
            if (remain[i]) {
                key = key * dims[i] + c[i];
            }
        }
        return key;
    }

    public CartTopology sub(boolean[] remain) {
        if (remain == null || remain.length < dims.length) {
            throw new MpiError(ErrorClass.ERR_ARG, "remainDims must have " + dims.length + " entries");
        }
        int n = 0;
        for (int i = 0; i < dims.length; i++) {
            if (remain[i]) {
                n++;
            }
        }
        int[] d = new int[n];
        boolean[] p = new boolean[n];
        for (int i = 0, j = 0; i < dims.length; i++) {
            if (remain[i]) {
                d[j] = dims[i];
                p[j++] = periods[i];
            }
        }
        return new CartTopology(d, p);
    }

    @Override
    public int[] inNeighbors(int rank) {
        int[] n = new int[2 * dims.length];
        for (int d = 0; d < dims.length; d++) {
            n[2 * d] = neighbor(rank, d, -1);
            n[2 * d + 1] = neighbor(rank, d, 1);
        }
        return n;
    }

    @Override
    public int[] outNeighbors(int rank) {
        return inNeighbors(rank);
    }

    /** Slot 2d receives what the lower neighbour sent upwards (code 2d), slot 2d+1 what the upper one sent down. */
    @Override
    public int[] inCodes(int rank) {
        int[] c = new int[2 * dims.length];
        for (int i = 0; i < c.length; i++) {
            c[i] = i;
        }
        return c;
    }

    /** A message sent down (slot 2d) arrives in the receiver's upper slot (code 2d+1), and the other way round. */
    @Override
    public int[] outCodes(int rank) {
        int[] c = new int[2 * dims.length];
        for (int i = 0; i < c.length; i++) {
            c[i] = i ^ 1;
        }
        return c;
    }
}
