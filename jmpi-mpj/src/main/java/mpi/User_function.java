package mpi;

/**
 * A user-defined reduction: {@code inoutvec[inoutoffset ..] = invec[inoffset ..] op inoutvec[inoutoffset ..]} for
 * {@code count} elements of {@code datatype}. The arrays are of the base type ({@code Object[]} for
 * {@link MPI#OBJECT}).
 */
public abstract class User_function {
    public User_function() {
    }

    public abstract void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count,
            Datatype datatype);
}
