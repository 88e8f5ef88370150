package mpi;

/** An error handler: MPI.ERRORS_RETURN (errors throw {@link MPIException}) or MPI.ERRORS_ARE_FATAL. */
public class Errhandler {
    final org.jmpi.mpj.ompi.Errhandler runtime;
    private final String name;

    Errhandler(org.jmpi.mpj.ompi.Errhandler runtime, String name) {
        this.runtime = runtime;
        this.name = name;
    }

    static Errhandler of(org.jmpi.mpj.ompi.Errhandler h) {
        if (h == org.jmpi.mpj.ompi.MPI.ERRORS_ARE_FATAL) {
            return MPI.ERRORS_ARE_FATAL;
        }
        if (h == org.jmpi.mpj.ompi.MPI.ERRORS_RETURN) {
            return MPI.ERRORS_RETURN;
        }
        return new Errhandler(h, String.valueOf(h));
    }

    @Override
    public String toString() {
        return name;
    }
}
