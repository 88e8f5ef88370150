package mpi;

/** What {@link Cartcomm#Shift} returns. */
public class ShiftParms {
    public int rank_source;
    public int rank_dest;
}
