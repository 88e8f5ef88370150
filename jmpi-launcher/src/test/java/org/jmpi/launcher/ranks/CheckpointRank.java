package org.jmpi.launcher.ranks;

import java.io.IOException;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.ft.Checkpoint;

/**
 * An MPI program for the restart tests: every rank iterates a small recurrence for {@code steps} steps, offering a
 * checkpoint ({@link Checkpoint}, settings from jmpirun) after every step; at the end rank 0 prints
 * {@code answer <sum of every rank's value>}, which depends only on {@code steps}. Arguments: {@code steps} and
 * {@code kill} (the last rank SIGKILLs itself after step steps/2 on the first run, {@code JMPI_RESTART_COUNT} 0),
 * {@code killAlways} (after the first step of every run), {@code abort} (rank 0 calls MPI_Abort(9) at that step on the first run), or
 * {@code none}. A resumed run prints {@code resumed <rank> at step <k>}.
 */
public final class CheckpointRank {
    private CheckpointRank() {
    }

    public static void main(String[] args) throws MPIException, IOException, InterruptedException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        long steps = Long.parseLong(args[0]);
        String fault = args[1];
        long[] state = {rank + 1, 0}; // value, step
        Checkpoint c = Checkpoint.open(MPI.COMM_WORLD);
        c.register("state", state);
        if (c.restore()) {
            System.out.println("resumed " + rank + " at step " + state[1]);
        }
        boolean firstRun = Checkpoint.restartCount() == 0;
        long start = state[1];
        while (state[1] < steps) {
            state[0] = (state[0] * 6364136223846793005L + 1442695040888963407L) >>> 1;
            state[1]++;
            MPI.COMM_WORLD.barrier();
            c.checkpoint();
            boolean kill = fault.equals("killAlways") ? state[1] == start + 1
                    : fault.equals("kill") && firstRun && state[1] == steps / 2;
            if (kill && rank == size - 1) {
                new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                Thread.sleep(60_000);
            }
            if (state[1] == steps / 2) {
                if (rank == 0 && fault.equals("abort") && firstRun) {
                    MPI.COMM_WORLD.abort(9);
                }
            }
        }
        long[] sum = {0};
        MPI.COMM_WORLD.reduce(new long[] {state[0]}, sum, 1, MPI.LONG, MPI.SUM, 0);
        if (rank == 0) {
            System.out.println("answer " + sum[0]);
        }
        MPI.Finalize();
    }
}
