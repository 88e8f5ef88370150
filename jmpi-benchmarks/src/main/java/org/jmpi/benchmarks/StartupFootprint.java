package org.jmpi.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import mpi.MPI;
import mpi.MPIException;

/**
 * Resident memory of a rank right after {@code MPI_Init} (and a barrier), against a bare JVM that runs this same main
 * without MPI ({@code --bare}): prints {@code rss_kib} and {@code hwm_kib} (VmRSS and VmHWM of /proc/self/status) per
 * rank, and for rank 0 also those of its parent process (jmpirun's JVM when jmpirun started the job). One line per
 * rank, gathered at rank 0:
 *
 * <pre>
 * footprint rank=R rss_kib=.. hwm_kib=.. parent_rss_kib=.. parent_hwm_kib=..
 * </pre>
 */
public final class StartupFootprint {
    private StartupFootprint() {}

    public static void main(String[] args) throws MPIException, IOException {
        if (args.length > 0 && args[0].equals("--bare")) {
            long[] me = status(Path.of("/proc/self/status"));
            System.out.println("footprint bare rss_kib=" + me[0] + " hwm_kib=" + me[1]);
            return;
        }
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        MPI.COMM_WORLD.barrier();
        long[] me = status(Path.of("/proc/self/status"));
        long parent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        long[] p = parent > 0 ? status(Path.of("/proc/" + parent + "/status")) : new long[] {-1, -1};
        long[] mine = {rank, me[0], me[1], p[0], p[1]};
        long[] all = new long[5 * size];
        MPI.COMM_WORLD.gather(mine, 5, MPI.LONG, all, 5, MPI.LONG, 0);
        if (rank == 0) {
            for (int r = 0; r < size; r++) {
                System.out.println("footprint rank=" + all[5 * r] + " rss_kib=" + all[5 * r + 1] + " hwm_kib="
                        + all[5 * r + 2] + (r == 0 ? " parent_rss_kib=" + all[3] + " parent_hwm_kib=" + all[4] : ""));
            }
        }
        MPI.Finalize();
    }

    /** VmRSS and VmHWM in KiB, -1 where unreadable. */
    private static long[] status(Path file) {
        long rss = -1;
        long hwm = -1;
        try {
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith("VmRSS:")) {
                    rss = kib(line);
                } else if (line.startsWith("VmHWM:")) {
                    hwm = kib(line);
                }
            }
        } catch (IOException | RuntimeException e) {
            // a process that is gone
        }
        return new long[] {rss, hwm};
    }

    private static long kib(String line) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
    }
}
