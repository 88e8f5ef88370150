package mpi;

/** An error handler: {@code MPI.ERRORS_ARE_FATAL}, {@code MPI.ERRORS_ABORT} or {@code MPI.ERRORS_RETURN}. */
public final class Errhandler {
    final String name;

    Errhandler(String name) {
        this.name = name;
    }

    @Override
    public String toString() {
        return name;
    }
}
