package mpi;

import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;
import org.jmpi.topo.DistGraphTopology;
import org.jmpi.topo.GraphTopology;

/** A communicator with a graph or distributed-graph topology. */
public final class GraphComm extends Intracomm {
    GraphComm() {}

    @Override
    public GraphComm clone() {
        return (GraphComm) super.clone();
    }

    @Override
    GraphComm blank() {
        return new GraphComm();
    }

    @Override
    public GraphComm dup() throws MPIException {
        return (GraphComm) super.dup();
    }

    @Override
    public GraphComm iDup() throws MPIException {
        return (GraphComm) super.iDup();
    }

    @Override
    public GraphComm dupWithInfo(Info info) throws MPIException {
        return (GraphComm) super.dupWithInfo(info);
    }

    @Override
    public GraphComm iDupWithInfo(Info info) throws MPIException {
        return (GraphComm) super.iDupWithInfo(info);
    }

    private GraphTopology graph() {
        live();
        if (!(topology instanceof GraphTopology g)) {
            throw new MpiError(ErrorClass.ERR_TOPOLOGY, "the communicator has no graph topology");
        }
        return g;
    }

    public GraphParms getDims() throws MPIException {
        try {
            GraphTopology g = graph();
            return new GraphParms(g.index(), g.edges());
        } catch (MpiError e) {
            throw fail("MPI_Graph_get", e);
        }
    }

    public int[] getNeighbors(int rank) throws MPIException {
        try {
            return graph().neighbors(rank);
        } catch (MpiError e) {
            throw fail("MPI_Graph_neighbors", e);
        }
    }

    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException {
        try {
            live();
            if (!(topology instanceof DistGraphTopology d)) {
                throw new MpiError(ErrorClass.ERR_TOPOLOGY, "the communicator has no distributed graph topology");
            }
            return new DistGraphNeighbors(d.sources(), d.weighted() ? d.sourceWeights() : null, d.destinations(),
                    d.weighted() ? d.destWeights() : null);
        } catch (MpiError e) {
            throw fail("MPI_Dist_graph_neighbors", e);
        }
    }

    /** The rank this process would have in the graph (jmpi keeps ranks: its rank, or UNDEFINED). */
    public int map(int[] index, int[] edges) throws MPIException {
        try {
            Communicator c = live();
            GraphTopology.check(index, edges, c.size());
            return c.rank() < index.length ? c.rank() : MPI.UNDEFINED;
        } catch (MpiError e) {
            throw fail("MPI_Graph_map", e);
        }
    }
}
