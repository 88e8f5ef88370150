import mpi.*;

/*
 * Hello world in the style of the Open MPI Java examples: a class that is not public, MPI.Init with the
 * program's arguments, the rank, the size, the processor name and the library version.
 */
class Hello {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        String host = MPI.getProcessorName();
        System.out.println("Hello, world, I am " + rank + " of " + size + " on " + host + " ("
                + MPI.getLibVersion().trim().split("\n")[0] + ")");
        if (!MPI.INFO_ENV.get("maxprocs").equals(Integer.toString(size))) {
            throw new AssertionError("INFO_ENV maxprocs " + MPI.INFO_ENV.get("maxprocs") + ", size " + size);
        }
        if (!"Hello".equals(MPI.INFO_ENV.get("command"))) {
            throw new AssertionError("INFO_ENV command " + MPI.INFO_ENV.get("command"));
        }
        Corpus.passed("Hello");
        MPI.Finalize();
    }
}
