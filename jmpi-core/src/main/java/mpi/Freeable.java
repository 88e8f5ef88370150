package mpi;

/** An MPI object that must be freed explicitly; the garbage collector does not free MPI objects. */
public interface Freeable {
    void free() throws MPIException;
}
