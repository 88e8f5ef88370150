package mpi;

/** What {@link Graphcomm#Get()} returns. */
public class GraphParms {
    public int[] index;
    public int[] edges;
}
