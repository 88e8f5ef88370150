package mpi;

import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;
import org.jmpi.topo.CartTopology;
import org.jmpi.topo.Dims;

/** A communicator with a Cartesian topology (MPI_Cart_*); rank arithmetic in {@link CartTopology}. */
public final class CartComm extends Intracomm {
    CartComm() {}

    @Override
    public CartComm clone() {
        return (CartComm) super.clone();
    }

    @Override
    CartComm blank() {
        return new CartComm();
    }

    @Override
    public CartComm dup() throws MPIException {
        return (CartComm) super.dup();
    }

    @Override
    public CartComm iDup() throws MPIException {
        return (CartComm) super.iDup();
    }

    @Override
    public CartComm dupWithInfo(Info info) throws MPIException {
        return (CartComm) super.dupWithInfo(info);
    }

    @Override
    public CartComm iDupWithInfo(Info info) throws MPIException {
        return (CartComm) super.iDupWithInfo(info);
    }

    private CartTopology cart() {
        live();
        if (!(topology instanceof CartTopology t)) {
            throw new MpiError(ErrorClass.ERR_TOPOLOGY, "the communicator has no Cartesian topology");
        }
        return t;
    }

    public CartParms getTopo() throws MPIException {
        try {
            CartTopology t = cart();
            return new CartParms(t.dims(), t.periods(), t.coords(impl.rank()));
        } catch (MpiError e) {
            throw fail("MPI_Cart_get", e);
        }
    }

    public int getRank(int[] coords) throws MPIException {
        try {
            return cart().rank(coords);
        } catch (MpiError e) {
            throw fail("MPI_Cart_rank", e);
        }
    }

    public int[] getCoords(int rank) throws MPIException {
        try {
            return cart().coords(rank);
        } catch (MpiError e) {
            throw fail("MPI_Cart_coords", e);
        }
    }

    public ShiftParms shift(int direction, int disp) throws MPIException {
        try {
            int[] sd = cart().shift(impl.rank(), direction, disp);
            return new ShiftParms(sd[0], sd[1]);
        } catch (MpiError e) {
            throw fail("MPI_Cart_shift", e);
        }
    }

    /** The sub-grids keeping the dimensions where {@code remainDims} is true; collective. */
    public CartComm sub(boolean[] remainDims) throws MPIException {
        try {
            CartTopology t = cart();
            CartTopology s = t.sub(remainDims);
            Communicator c = impl;
            Communicator n = CommOps.split(c, t.subColor(c.rank(), remainDims), t.subKey(c.rank(), remainDims));
            CartComm r = CommOps.adopt(this, new CartComm(), n, false);
            r.topology = s;
            return r;
        } catch (MpiError e) {
            throw fail("MPI_Cart_sub", e);
        }
    }

    /** The rank this process would have in a grid of {@code dims} (jmpi keeps ranks: its rank, or UNDEFINED). */
    public int map(int[] dims, boolean[] periods) throws MPIException {
        try {
            Communicator c = live();
            int n = CartTopology.check(dims, periods, c.size());
            return c.rank() < n ? c.rank() : MPI.UNDEFINED;
        } catch (MpiError e) {
            throw fail("MPI_Cart_map", e);
        }
    }

    /** Fills the zero entries of {@code dims} with a balanced factorisation of {@code nnodes}. */
    public static void createDims(int nnodes, int[] dims) throws MPIException {
        try {
            Dims.create(nnodes, dims);
        } catch (MpiError e) {
            throw Errors.raise("MPI_Dims_create", e);
        }
    }
}
