package org.jmpi.benchmarks.cold;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import mpi.MPI;
import mpi.MPIException;

/**
 * What a job of many ranks costs each rank, and whether its collectives are right: every rank runs {@code barrier},
 * an {@code allReduce} of a {@code long} and of 1,000 {@code int}s, an {@code allToAll} of one {@code int} per rank
 * pair and a ring {@code sendRecv}, checks every value, then reports what it holds (open file descriptors, of them
 * sockets, threads, resident memory, from {@code /proc/self}) and how long its start took (from its JVM's start to
 * the end of {@code MPI.Init}). Rank 0 prints the minimum, median and maximum over the ranks.
 *
 * <p>Usage: {@code ScaleCheck}. Rank 0 prints {@code RESULT scale-check seconds=<s> check=<OK|FAIL-n>} (the time of the
 * collectives, n the number of wrong values over all ranks) and a {@code SCALE} line per measure. Compiles against
 * jmpi and Open MPI's Java bindings; Linux only for the resources (elsewhere they are -1).
 */
public final class ScaleCheck {
    private ScaleCheck() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        long initMillis = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        MPI.COMM_WORLD.barrier();
        double t0 = MPI.wtime();
        long errors = 0;

        long[] one = {rank};
        long[] total = new long[1];
        MPI.COMM_WORLD.allReduce(one, total, 1, MPI.LONG, MPI.SUM);
        if (total[0] != (long) size * (size - 1) / 2) {
            errors++;
        }
        int[] mine = new int[1000];
        int[] sums = new int[1000];
        for (int i = 0; i < mine.length; i++) {
            mine[i] = rank + i;
        }
        MPI.COMM_WORLD.allReduce(mine, sums, mine.length, MPI.INT, MPI.SUM);
        for (int i = 0; i < sums.length; i++) {
            if (sums[i] != size * (size - 1) / 2 + size * i) {
                errors++;
            }
        }
        int[] out = new int[size];
        int[] in = new int[size];
        for (int j = 0; j < size; j++) {
            out[j] = rank * size + j;
        }
        MPI.COMM_WORLD.allToAll(out, 1, MPI.INT, in, 1, MPI.INT);
        for (int j = 0; j < size; j++) {
            if (in[j] != j * size + rank) {
                errors++;
            }
        }
        int[] token = {rank};
        int[] got = new int[1];
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        MPI.COMM_WORLD.sendRecv(token, 1, MPI.INT, right, 7, got, 1, MPI.INT, left, 7);
        if (got[0] != left) {
            errors++;
        }
        for (int i = 0; i < 10; i++) {
            MPI.COMM_WORLD.barrier();
        }
        double seconds = MPI.wtime() - t0;

        long[] mineStats = {initMillis, count("/proc/self/fd", false), count("/proc/self/fd", true),
            status("Threads:"), status("VmRSS:"), errors};
        long[] all = new long[mineStats.length * size];
        MPI.COMM_WORLD.gather(mineStats, mineStats.length, MPI.LONG, all, mineStats.length, MPI.LONG, 0);
        if (rank == 0) {
            long wrong = 0;
            for (int r = 0; r < size; r++) {
                wrong += all[r * mineStats.length + 5];
            }
            System.out.printf("RESULT scale-check seconds=%.6e check=%s%n", seconds, wrong == 0 ? "OK" : "FAIL-" + wrong);
            String[] names = {"init_ms", "fds", "sockets", "threads", "rss_kb"};
            for (int k = 0; k < names.length; k++) {
                long[] v = new long[size];
                for (int r = 0; r < size; r++) {
                    v[r] = all[r * mineStats.length + k];
                }
                Arrays.sort(v);
                System.out.printf("SCALE ranks=%d %s min=%d median=%d max=%d%n", size, names[k], v[0], v[size / 2],
                        v[size - 1]);
            }
        }
        MPI.Finalize();
    }

    /** Entries of a /proc directory (or only the sockets among them), -1 where there is no such directory. */
    private static long count(String dir, boolean socketsOnly) {
        try (Stream<Path> s = Files.list(Path.of(dir))) {
            return s.filter(p -> !socketsOnly || isSocket(p)).count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static boolean isSocket(Path fd) {
        try {
            return Files.readSymbolicLink(fd).toString().startsWith("socket:");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** A number of /proc/self/status (threads, or kB), -1 where there is none. */
    private static long status(String key) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(key)) {
                    return Long.parseLong(line.substring(key.length()).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return -1;
    }
}
