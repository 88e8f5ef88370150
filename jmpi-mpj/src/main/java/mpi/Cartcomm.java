package mpi;

/** A communicator with a Cartesian topology. */
public class Cartcomm extends Intracomm {
    Cartcomm(org.jmpi.mpj.ompi.CartComm runtime) {
        super(runtime);
    }

    private org.jmpi.mpj.ompi.CartComm cart() {
        return (org.jmpi.mpj.ompi.CartComm) live();
    }

    @Override
    public Object clone() {
        return super.clone();
    }

    /** The dimensions, periodicity and this rank's coordinates. */
    public CartParms Get() {
        try {
            org.jmpi.mpj.ompi.CartParms p = cart().getTopo();
            int n = p.getDimCount();
            CartParms r = new CartParms();
            r.dims = new int[n];
            r.periods = new boolean[n];
            r.coords = new int[n];
            for (int i = 0; i < n; i++) {
                r.dims[i] = p.getDim(i);
                r.periods[i] = p.getPeriod(i);
                r.coords[i] = p.getCoord(i);
            }
            return r;
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public int Rank(int[] coords) {
        try {
            return cart().getRank(coords);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public int[] Coords(int rank) {
        try {
            return cart().getCoords(rank);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** Neighbours {@code disp} steps along {@code direction}: MPI.PROC_NULL past a non-periodic edge. */
    public ShiftParms Shift(int direction, int disp) {
        try {
            org.jmpi.mpj.ompi.ShiftParms p = cart().shift(direction, disp);
            ShiftParms r = new ShiftParms();
            r.rank_source = p.getRankSource() == org.jmpi.mpj.ompi.MPI.PROC_NULL ? MPI.PROC_NULL : p.getRankSource();
            r.rank_dest = p.getRankDest() == org.jmpi.mpj.ompi.MPI.PROC_NULL ? MPI.PROC_NULL : p.getRankDest();
            return r;
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public Cartcomm Sub(boolean[] remain_dims) {
        try {
            return new Cartcomm(cart().sub(remain_dims));
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** This rank's rank in a Cartesian layout of the given shape; MPI.UNDEFINED if it has none. */
    public int Map(int[] dims, boolean[] periods) {
        try {
            int r = cart().map(dims, periods);
            return r == org.jmpi.mpj.ompi.MPI.UNDEFINED ? MPI.UNDEFINED : r;
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    @Override
    public int Topo_test() {
        return MPI.CART;
    }

    /** Fills the zero entries of {@code dims} with a balanced factorisation of {@code nnodes}. */
    public static void Dims_create(int nnodes, int[] dims) {
        try {
            org.jmpi.mpj.ompi.CartComm.createDims(nnodes, dims);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }
}
