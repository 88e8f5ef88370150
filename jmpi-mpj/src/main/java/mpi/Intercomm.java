package mpi;

/** An inter-communicator: two groups; point-to-point ranks name the remote group. */
public class Intercomm extends Comm {
    Intercomm(org.jmpi.mpj.ompi.Intercomm runtime) {
        super(runtime);
    }

    private org.jmpi.mpj.ompi.Intercomm inter() {
        return (org.jmpi.mpj.ompi.Intercomm) live();
    }

    public int Remote_size() {
        try {
            return inter().getRemoteSize();
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public Group Remote_group() {
        try {
            return new Group(inter().getRemoteGroup());
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** The intra-communicator of both groups; the group passing {@code high} = true is ordered after the other. */
    public Intracomm Merge(boolean high) {
        try {
            return (Intracomm) wrap(inter().merge(high));
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    @Override
    public Object clone() {
        return super.clone();
    }
}
