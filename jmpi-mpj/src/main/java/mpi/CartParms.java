package mpi;

/** What {@link Cartcomm#Get()} returns. */
public class CartParms {
    public int[] dims;
    public boolean[] periods;
    public int[] coords;
}
