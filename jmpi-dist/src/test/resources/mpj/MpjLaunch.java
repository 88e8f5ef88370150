import mpi.*;

/**
 * Launcher conventions: prints the arguments main got and what Init returned; with "fail R" rank R throws after
 * Init, with "abort R" it calls Abort(5), with "exit R" it calls System.exit(3).
 */
public class MpjLaunch {
    public static void main(String[] args) {
        String[] mine = MPI.Init(args);
        int me = MPI.COMM_WORLD.Rank();
        System.out.println("rank " + me + " main " + String.join(",", args) + " init " + String.join(",", mine));
        if (mine.length == 2 && mine[0].matches("fail|abort|exit") && Integer.parseInt(mine[1]) == me) {
            switch (mine[0]) {
                case "fail" -> throw new IllegalStateException("rank " + me + " fails on purpose");
                case "abort" -> MPI.COMM_WORLD.Abort(5);
                case "exit" -> System.exit(3);
                default -> { }
            }
        }
        MPI.COMM_WORLD.Barrier();
        MPI.Finalize();
    }
}
