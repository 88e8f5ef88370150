package org.jmpi.launcher.ranks;

import java.io.IOException;
import mpi.MPI;
import mpi.MPIException;

/**
 * An MPI program for the fault tests: every rank prints {@code ready <rank> pid <pid>}, all meet in a barrier, then
 * the last rank misbehaves as the first argument says while every other rank waits in a receive from it (which never
 * completes: only the launcher can end them).
 *
 * <ul>
 *   <li>{@code exit3}: {@code System.exit(3)};
 *   <li>{@code sigkill}: sends itself SIGKILL;
 *   <li>{@code halt}: {@code Runtime.getRuntime().halt(5)};
 *   <li>{@code abort7}: {@code MPI.COMM_WORLD.abort(7)};
 *   <li>{@code nofinalize}: returns from main without {@code MPI.Finalize} (exit code 0);
 *   <li>{@code hang}: waits too, for ever (the test cuts a link or kills something);
 *   <li>{@code card}: as {@code hang}, after every rank printed {@code card <rank> <tcp card> job <job id>};
 *   <li>{@code ok}: sends the others a message; everyone finalizes;
 *   <li>{@code survive} (for --continue-on-failure): after a dup of the world, exits 3; the others, with
 *       {@code ERRORS_RETURN}, see their receives from it (on the dup and the world) and a send to it fail, print the
 *       error class, and finalize.
 * </ul>
 */
public final class FaultRank {
    private FaultRank() {
    }

    public static void main(String[] args) throws MPIException, IOException, InterruptedException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int victim = size - 1;
        System.out.println("ready " + rank + " pid " + ProcessHandle.current().pid() + " on "
                + System.getenv("JMPI_NODE_ID"));
        if (args[0].equals("card")) {
            org.jmpi.runtime.JmpiRuntime rt = org.jmpi.runtime.JmpiRuntime.get();
            System.out.println("card " + rank + " " + rt.bootstrap().get("tcp-" + rank) + " job "
                    + rt.bootstrap().jobId());
        }
        MPI.COMM_WORLD.barrier();
        int[] buf = new int[1];
        if (args[0].equals("survive")) {
            mpi.Intracomm dup = MPI.COMM_WORLD.dup();
            if (rank == victim) {
                System.exit(3);
            }
            dup.setErrhandler(MPI.ERRORS_RETURN);
            try {
                dup.recv(buf, 1, MPI.INT, victim, 0);
                System.out.println("rank " + rank + " received on a dup from a dead rank?");
            } catch (MPIException e) {
                System.out.println("rank " + rank + " recv on a dup failed with error class " + e.getErrorClass());
            }
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            try {
                MPI.COMM_WORLD.recv(buf, 1, MPI.INT, victim, 0);
                System.out.println("rank " + rank + " received from a dead rank?");
            } catch (MPIException e) {
                System.out.println("rank " + rank + " recv failed with error class " + e.getErrorClass());
            }
            try {
                MPI.COMM_WORLD.send(buf, 1, MPI.INT, victim, 0);
                System.out.println("rank " + rank + " sent to a dead rank?");
            } catch (MPIException e) {
                System.out.println("rank " + rank + " send failed with error class " + e.getErrorClass());
            }
            MPI.Finalize();
            return;
        }
        if (rank == victim) {
            switch (args[0]) {
                case "exit3" -> System.exit(3);
                case "sigkill" -> {
                    new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                    Thread.sleep(60_000);
                }
                case "halt" -> Runtime.getRuntime().halt(5);
                case "abort7" -> MPI.COMM_WORLD.abort(7);
                case "nofinalize" -> {
                    return;
                }
                case "hang", "card" -> Thread.sleep(600_000);
                case "ok" -> {
                    for (int r = 0; r < size - 1; r++) {
                        buf[0] = 42;
                        MPI.COMM_WORLD.send(buf, 1, MPI.INT, r, 0);
                    }
                    MPI.Finalize();
                    return;
                }
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            }
        }
        MPI.COMM_WORLD.recv(buf, 1, MPI.INT, victim, 0);
        System.out.println("rank " + rank + " got " + buf[0]);
        MPI.Finalize();
    }
}
