package mpi;

/** An intra-communicator: collective operations, splitting, and topologies. */
public class Intracomm extends Comm {
    Intracomm(org.jmpi.mpj.ompi.Intracomm runtime) {
        super(runtime);
    }

    org.jmpi.mpj.ompi.Intracomm intra() {
        return (org.jmpi.mpj.ompi.Intracomm) live();
    }

    public static int Compare(Comm comm1, Comm comm2) {
        return Comm.Compare(comm1, comm2);
    }

    @Override
    public Object clone() {
        return super.clone();
    }

    public Intracomm Split(int colour, int key) {
        try {
            org.jmpi.mpj.ompi.Intracomm c = intra().split(colour == MPI.UNDEFINED ? org.jmpi.mpj.ompi.MPI.UNDEFINED
                    : colour, key);
            return c == null || c.isNull() ? null : (Intracomm) wrap(c);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** The communicator of {@code group}'s ranks; null on ranks outside the group (MPI_COMM_NULL). */
    public Intracomm Create(Group group) {
        try {
            org.jmpi.mpj.ompi.Intracomm c = intra().create(group.runtime);
            return c == null || c.isNull() ? null : (Intracomm) wrap(c);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public Cartcomm Create_cart(int[] dims, boolean[] periods, boolean reorder) {
        try {
            org.jmpi.mpj.ompi.CartComm c = intra().createCart(dims, periods, reorder);
            return c == null || c.isNull() ? null : new Cartcomm(c);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public Graphcomm Create_graph(int[] index, int[] edges, boolean reorder) {
        try {
            org.jmpi.mpj.ompi.GraphComm c = intra().createGraph(index, edges, reorder);
            return c == null || c.isNull() ? null : new Graphcomm(c);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    // ---------------------------------------------------------------- collectives

    /** {@code n} counts of {@code count} (the v-form of a collective with one count for every rank). */
    private static int[] uniform(int n, int count) {
        int[] c = new int[n];
        java.util.Arrays.fill(c, count);
        return c;
    }

    /** The displacements of blocks of these counts laid end to end. */
    private static int[] consecutive(int[] counts) {
        int[] d = new int[counts.length];
        for (int i = 1; i < d.length; i++) {
            d[i] = d[i - 1] + counts[i - 1];
        }
        return d;
    }

    public void Barrier() {
        try {
            live().barrier();
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public void Bcast(Object buf, int offset, int count, Datatype type, int root) {
        if (type.isObject()) {
            ObjectCollectives.bcast(this, buf, offset, count, type, root);
            return;
        }
        try {
            Object b = Buf.collective(buf, offset, type);
            live().bcast(b, count, type.runtime(), root);
            Buf.back(b, buf, offset);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public void Gather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
            int recvoffset, int recvcount, Datatype recvtype, int root) {
        sendbuf = Buf.unaliased(sendbuf, recvbuf);
        if (sendtype.isObject() || recvtype.isObject()) {
            int[] counts = uniform(Size(), recvcount);
            int[] displs = consecutive(counts);
            ObjectCollectives.gatherv(this, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, counts,
                    displs, recvtype, root, false);
            return;
        }
        try {
            boolean isRoot = Rank() == root;
            Object r = isRoot ? Buf.collective(recvbuf, recvoffset, recvtype) : recvbuf;
            live().gather(Buf.collective(sendbuf, sendoffset, sendtype), sendcount, sendtype.runtime(),
                    r, recvcount,
                    isRoot ? recvtype.runtime() : sendtype.runtime(), root);
            Buf.back(r, recvbuf, recvoffset);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public void Gatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
            int recvoffset, int[] recvcount, int[] displs, Datatype recvtype, int root) {
        sendbuf = Buf.unaliased(sendbuf, recvbuf);
        if (sendtype.isObject() || recvtype.isObject()) {
            ObjectCollectives.gatherv(this, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount,
                    displs, recvtype, root, false);
            return;
        }
        try {
            boolean isRoot = Rank() == root;
            Object r = isRoot ? Buf.collective(recvbuf, recvoffset, recvtype) : recvbuf;
            live().gatherv(Buf.collective(sendbuf, sendoffset, sendtype), sendcount, sendtype.runtime(),
                    r, recvcount, displs,
                    isRoot ? recvtype.runtime() : sendtype.runtime(), root);
            Buf.back(r, recvbuf, recvoffset);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public void Scatter(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
            int recvoffset, int recvcount, Datatype recvtype, int root) {
        sendbuf = Buf.unaliased(sendbuf, recvbuf);
        if (sendtype.isObject() || recvtype.isObject()) {
            int[] counts = uniform(Size(), sendcount);
            int[] displs = consecutive(counts);
            ObjectCollectives.scatterv(this, sendbuf, sendoffset, counts, displs, sendtype, recvbuf, recvoffset,
                    recvcount, recvtype, root);
            return;
        }
        try {
            boolean isRoot = Rank() == root;
            Object r = Buf.collective(recvbuf, recvoffset, recvtype);
            live().scatter(isRoot ? Buf.collective(sendbuf, sendoffset, sendtype) : sendbuf, sendcount,
                    isRoot ? sendtype.runtime() : recvtype.runtime(), r,
                    recvcount, recvtype.runtime(), root);
            Buf.back(r, recvbuf, recvoffset);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public void Scatterv(Object sendbuf, int sendoffset, int[] sendcount, int[] displs, Datatype sendtype,
            Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        sendbuf = Buf.unaliased(sendbuf, recvbuf);
        if (sendtype.isObject() || recvtype.isObject()) {
            ObjectCollectives.scatterv(this, sendbuf, sendoffset, sendcount, displs, sendtype, recvbuf, recvoffset,
                    recvcount, recvtype, root);
            return;
        }
        try {
            boolean isRoot = Rank() == root;
            Object r = Buf.collective(recvbuf, recvoffset, recvtype);
            live().scatterv(isRoot ? Buf.collective(sendbuf, sendoffset, sendtype) : sendbuf, sendcount, displs,
                    isRoot ? sendtype.runtime() : recvtype.runtime(), r,
                    recvcount, recvtype.runtime(), root);
            Buf.back(r, recvbuf, recvoffset);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public void Allgather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
            int recvoffset, int recvcount, Datatype recvtype) {
        sendbuf = Buf.unaliased(sendbuf, recvbuf);
        if (sendtype.isObject() || recvtype.isObject()) {
            int[] counts = uniform(Size(), recvcount);
            int[] displs = consecutive(counts);
            ObjectCollectives.gatherv(this, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, counts,
                    displs, recvtype, 0, true);
            return;
        }
        try {
            Object r = Buf.collective(recvbuf, recvoffset, recvtype);
            live().allGather(Buf.collective(sendbuf, sendoffset, sendtype), sendcount, sendtype.runtime(),
                    r, recvcount, recvtype.runtime());
            Buf.back(r, recvbuf, recvoffset);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public void Allgatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
            int recvoffset, int[] recvcount, int[] displs, Datatype recvtype) {
        sendbuf = Buf.unaliased(sendbuf, recvbuf);
        if (sendtype.isObject() || recvtype.isObject()) {
            ObjectCollectives.gatherv(this, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount,
                    displs, recvtype, 0, true);
            return;
        }
        try {
            Object r = Buf.collective(recvbuf, recvoffset, recvtype);
            live().allGatherv(Buf.collective(sendbuf, sendoffset, sendtype), sendcount, sendtype.runtime(),
                    r, recvcount, displs, recvtype.runtime());
            Buf.back(r, recvbuf, recvoffset);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public void Alltoall(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
            int recvoffset, int recvcount, Datatype recvtype) {
        sendbuf = Buf.unaliased(sendbuf, recvbuf);
        if (sendtype.isObject() || recvtype.isObject()) {
            int[] sc = uniform(Size(), sendcount);
            int[] rc = uniform(Size(), recvcount);
            ObjectCollectives.alltoallv(this, sendbuf, sendoffset, sc, consecutive(sc), sendtype, recvbuf, recvoffset,
                    rc, consecutive(rc), recvtype);
            return;
        }
        try {
            Object r = Buf.collective(recvbuf, recvoffset, recvtype);
            live().allToAll(Buf.collective(sendbuf, sendoffset, sendtype), sendcount, sendtype.runtime(),
                    r, recvcount, recvtype.runtime());
            Buf.back(r, recvbuf, recvoffset);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public void Alltoallv(Object sendbuf, int sendoffset, int[] sendcount, int[] sdispls, Datatype sendtype,
            Object recvbuf, int recvoffset, int[] recvcount, int[] rdispls, Datatype recvtype) {
        sendbuf = Buf.unaliased(sendbuf, recvbuf);
        if (sendtype.isObject() || recvtype.isObject()) {
            ObjectCollectives.alltoallv(this, sendbuf, sendoffset, sendcount, sdispls, sendtype, recvbuf, recvoffset,
                    recvcount, rdispls, recvtype);
            return;
        }
        try {
            Object r = Buf.collective(recvbuf, recvoffset, recvtype);
            live().allToAllv(Buf.collective(sendbuf, sendoffset, sendtype), sendcount, sdispls, sendtype.runtime(),
                    r, recvcount, rdispls, recvtype.runtime());
            Buf.back(r, recvbuf, recvoffset);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public void Reduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
            Op op, int root) {
        sendbuf = Buf.unaliased(sendbuf, recvbuf);
        if (datatype.isObject()) {
            ObjectCollectives.reduce(this, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, root);
            return;
        }
        org.jmpi.mpj.ompi.Op o = op.runtimeFor(datatype);
        try {
            boolean isRoot = Rank() == root;
            Object r = isRoot ? Buf.collective(recvbuf, recvoffset, datatype) : recvbuf;
            live().reduce(Buf.collective(sendbuf, sendoffset, datatype),
                    r, count, datatype.runtime(), o,
                    root);
            Buf.back(r, recvbuf, recvoffset);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        } finally {
            op.release(o);
        }
    }

    public void Allreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
            Datatype datatype, Op op) {
        sendbuf = Buf.unaliased(sendbuf, recvbuf);
        if (datatype.isObject()) {
            ObjectCollectives.reduce(this, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, -1);
            return;
        }
        org.jmpi.mpj.ompi.Op o = op.runtimeFor(datatype);
        try {
            Object r = Buf.collective(recvbuf, recvoffset, datatype);
            live().allReduce(Buf.collective(sendbuf, sendoffset, datatype),
                    r, count, datatype.runtime(), o);
            Buf.back(r, recvbuf, recvoffset);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        } finally {
            op.release(o);
        }
    }

    public void Reduce_scatter(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int[] recvcounts,
            Datatype datatype, Op op) {
        sendbuf = Buf.unaliased(sendbuf, recvbuf);
        if (datatype.isObject()) {
            ObjectCollectives.reduceScatter(this, sendbuf, sendoffset, recvbuf, recvoffset, recvcounts, datatype, op);
            return;
        }
        org.jmpi.mpj.ompi.Op o = op.runtimeFor(datatype);
        try {
            Object r = Buf.collective(recvbuf, recvoffset, datatype);
            live().reduceScatter(Buf.collective(sendbuf, sendoffset, datatype),
                    r, recvcounts, datatype.runtime(), o);
            Buf.back(r, recvbuf, recvoffset);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        } finally {
            op.release(o);
        }
    }

    public void Scan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
            Op op) {
        sendbuf = Buf.unaliased(sendbuf, recvbuf);
        if (datatype.isObject()) {
            ObjectCollectives.scan(this, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op);
            return;
        }
        org.jmpi.mpj.ompi.Op o = op.runtimeFor(datatype);
        try {
            Object r = Buf.collective(recvbuf, recvoffset, datatype);
            intra().scan(Buf.collective(sendbuf, sendoffset, datatype), r, count, datatype.runtime(), o);
            Buf.back(r, recvbuf, recvoffset);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        } finally {
            op.release(o);
        }
    }
}
