package org.jmpi.launcher.ranks;

import java.nio.file.Files;
import java.nio.file.Path;
import mpi.MPI;

/**
 * A rank for the shared-memory clean-up tests: MPI.Init, every rank sends one message to every other, prints
 * {@code segment <path> <exists>} (every peer mapped every segment in MPI.Init, so the files are gone by now), then,
 * by the first argument:
 *
 * <ul>
 *   <li>{@code finalize}: MPI.Finalize;
 *   <li>{@code kill9}: rank 1 puts a file where its segment was (what a rank killed in the middle of start-up leaves),
 *       prints {@code left <path>} and sends itself SIGKILL; the others wait for a message from it that never comes.
 * </ul>
 *
 * <p>With {@code killDuringInit} nothing of the above runs: rank 1 starts MPI.Init in another thread, waits until its
 * segment file exists in {@code JMPI_SHM_DIR}, prints {@code created <path>} and sends itself SIGKILL while still in
 * MPI.Init; the other ranks never call MPI.Init (so nobody maps, and removes, that file) and wait to be ended.
 */
public final class ShmRank {
    private ShmRank() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("killDuringInit")) {
            killDuringInit(args);
            return;
        }
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int[] one = {rank};
        for (int k = 1; k < size; k++) {
            MPI.COMM_WORLD.sendRecv(one, 1, MPI.INT, (rank + k) % size, 5, new int[1], 1, MPI.INT,
                    (rank - k + size) % size, 5);
        }
        Path segment = Path.of("/dev/shm", "jmpi-" + System.getenv("JMPI_JOBID") + "-" + rank);
        System.out.println("segment " + segment + " " + Files.exists(segment));
        System.out.flush();
        MPI.COMM_WORLD.barrier();
        if (args[0].equals("kill9")) {
            if (rank == 1) {
                Files.write(segment, new byte[4096]);
                System.out.println("left " + segment);
                System.out.flush();
                new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                Thread.sleep(60_000);
            }
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 1, 6);
        }
        MPI.Finalize();
    }

    private static void killDuringInit(String[] args) throws Exception {
        if (!"1".equals(System.getenv("JMPI_RANK"))) {
            Thread.sleep(120_000); // ended by the launcher when rank 1 dies
            return;
        }
        Path segment = Path.of(System.getenv("JMPI_SHM_DIR"), "jmpi-" + System.getenv("JMPI_JOBID") + "-1");
        Thread init = new Thread(() -> {
            try {
                MPI.Init(args);
            } catch (mpi.MPIException e) {
                e.printStackTrace();
            }
        }, "init");
        init.setDaemon(true);
        init.start();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Files.exists(segment) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        System.out.println("created " + segment + " " + Files.exists(segment));
        System.out.flush();
        new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
        Thread.sleep(60_000);
    }
}
