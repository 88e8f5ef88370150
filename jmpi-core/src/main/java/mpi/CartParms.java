package mpi;

import java.util.Objects;

/** The topology of a Cartesian communicator and the caller's place in it, as returned by {@link CartComm#getTopo()}. */
public final class CartParms {
    private final int[] dims;
    private final boolean[] periods;
    private final int[] coords;

    /** Copies the three arrays, which must have the same length. */
    CartParms(int[] dims, boolean[] periods, int[] coords) {
        if (dims.length != periods.length || dims.length != coords.length) {
            throw new IllegalArgumentException("dims, periods and coords must have the same length");
        }
        this.dims = dims.clone();
        this.periods = periods.clone();
        this.coords = coords.clone();
    }

    /** The number of dimensions. */
    public int getDimCount() {
        return dims.length;
    }

    /** The number of processes along dimension {@code i}. */
    public int getDim(int i) {
        return dims[Objects.checkIndex(i, dims.length)];
    }

    /** Whether dimension {@code i} is periodic. */
    public boolean getPeriod(int i) {
        return periods[Objects.checkIndex(i, periods.length)];
    }

    /** The caller's coordinate along dimension {@code i}. */
    public int getCoord(int i) {
        return coords[Objects.checkIndex(i, coords.length)];
    }
}
