package mpi;

/** A communicator with a graph topology. */
public class Graphcomm extends Intracomm {
    Graphcomm(org.jmpi.mpj.ompi.GraphComm runtime) {
        super(runtime);
    }

    private org.jmpi.mpj.ompi.GraphComm graph() {
        return (org.jmpi.mpj.ompi.GraphComm) live();
    }

    @Override
    public Object clone() {
        return super.clone();
    }

    public GraphParms Get() {
        try {
            org.jmpi.mpj.ompi.GraphParms p = graph().getDims();
            GraphParms r = new GraphParms();
            r.index = new int[p.getIndexCount()];
            for (int i = 0; i < r.index.length; i++) {
                r.index[i] = p.getIndex(i);
            }
            r.edges = new int[p.getEdgeCount()];
            for (int i = 0; i < r.edges.length; i++) {
                r.edges[i] = p.getEdge(i);
            }
            return r;
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public int[] Neighbours(int rank) {
        try {
            return graph().getNeighbors(rank);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public int Map(int[] index, int[] edges) {
        try {
            int r = graph().map(index, edges);
            return r == org.jmpi.mpj.ompi.MPI.UNDEFINED ? MPI.UNDEFINED : r;
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    @Override
    public int Topo_test() {
        return MPI.GRAPH;
    }
}
