/** Assertions for the MPJ API test programs: a failed check prints one FAIL line; the test looks for none. */
final class MpjCheck {
    private MpjCheck() {}

    static int failures;

    static void check(boolean ok, String what) {
        if (!ok) {
            failures++;
            System.out.println("FAIL rank " + mpi.MPI.COMM_WORLD.Rank() + ": " + what);
        }
    }

    static void equal(long got, long want, String what) {
        check(got == want, what + ": got " + got + ", want " + want);
    }

    /** Runs {@code body}, which must throw an MPIException of error class {@code errorClass}. */
    static void fails(Runnable body, int errorClass, String what) {
        try {
            body.run();
            check(false, what + ": no exception");
        } catch (mpi.MPIException e) {
            check(e.getErrorClass() == errorClass, what + ": error class " + e.getErrorClass() + ", want " + errorClass
                    + " (" + e.getMessage() + ")");
        }
    }

    /** After a final barrier, rank 0 prints "DONE name" (only if every rank got there). */
    static void done(String name) {
        mpi.MPI.COMM_WORLD.Barrier();
        if (mpi.MPI.COMM_WORLD.Rank() == 0) {
            System.out.println("DONE " + name);
        }
    }
}
