package org.jmpi.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.ft.Checkpoint;
import org.jmpi.ft.CheckpointOptions;

/**
 * The cost of a coordinated checkpoint ({@code org.jmpi.ft.Checkpoint}): every rank registers {@code --mib} MiB
 * (a {@code double[]}, or a direct {@code ByteBuffer} with {@code --buffer}) and writes {@code --reps} generations
 * with {@code checkpointNow()}, each part forced to the device (fsync) and renamed, then the manifest; then a fresh
 * {@code Checkpoint} restores the newest generation (every part's checksum verified first). Rank 0 prints, per
 * repetition, the slowest rank's time and the aggregate rate (all ranks' bytes over that time, GB/s = 10^9 B/s),
 * and the median:
 *
 * <pre>
 * checkpoint: 4 ranks x 64 MiB to /tmp/ckpt-cost: write 1.234 s (0.22 GB/s), ...; median write 1.2 s (0.22 GB/s)
 * </pre>
 *
 * <p>Options: {@code --dir DIR} (a fresh directory is made under it, default /tmp, and removed at the end),
 * {@code --mib N} (per rank, default 64), {@code --reps N} (default 3), {@code --keep K} (generations kept, default 2),
 * {@code --buffer}.
 */
public final class CheckpointCost {
    private CheckpointCost() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Path base = Path.of("/tmp");
        long mib = 64;
        int reps = 3;
        int keep = 2;
        boolean buffer = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> base = Path.of(args[++i]);
                case "--mib" -> mib = Long.parseLong(args[++i]);
                case "--reps" -> reps = Integer.parseInt(args[++i]);
                case "--keep" -> keep = Integer.parseInt(args[++i]);
                case "--buffer" -> buffer = true;
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        byte[] name = new byte[4096];
        int[] len = new int[1];
        if (rank == 0) {
            byte[] p = Files.createTempDirectory(base, "ckpt-cost").toString().getBytes();
            System.arraycopy(p, 0, name, 0, p.length);
            len[0] = p.length;
        }
        MPI.COMM_WORLD.bcast(len, 1, MPI.INT, 0);
        MPI.COMM_WORLD.bcast(name, len[0], MPI.BYTE, 0);
        Path dir = Path.of(new String(name, 0, len[0]));
        long bytes = mib << 20;
        CheckpointOptions options = CheckpointOptions.of(dir).keep(keep);
        Checkpoint c = Checkpoint.open(MPI.COMM_WORLD, options);
        if (buffer) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocateDirect((int) bytes);
            for (int i = 0; i < b.capacity(); i += 8) {
                b.putLong(i, rank * 31L + i);
            }
            c.register("state", b);
        } else {
            double[] a = new double[(int) (bytes / 8)];
            Arrays.setAll(a, i -> rank + i * 1e-3);
            c.register("state", a);
        }
        double[] writes = new double[reps];
        StringBuilder line = new StringBuilder();
        for (int r = 0; r < reps; r++) {
            MPI.COMM_WORLD.barrier();
            double t0 = MPI.wtime();
            c.checkpointNow();
            double[] t = {MPI.wtime() - t0};
            MPI.COMM_WORLD.allReduce(t, 1, MPI.DOUBLE, MPI.MAX);
            writes[r] = t[0];
            line.append(String.format(Locale.ROOT, "write %.3f s (%.2f GB/s), ", t[0], size * bytes / t[0] / 1e9));
        }
        Checkpoint again = Checkpoint.open(MPI.COMM_WORLD, options);
        if (buffer) {
            again.register("state", java.nio.ByteBuffer.allocateDirect((int) bytes));
        } else {
            again.register("state", new double[(int) (bytes / 8)]);
        }
        MPI.COMM_WORLD.barrier();
        double t0 = MPI.wtime();
        again.restore();
        double[] t = {MPI.wtime() - t0};
        MPI.COMM_WORLD.allReduce(t, 1, MPI.DOUBLE, MPI.MAX);
        Arrays.sort(writes);
        double median = writes[reps / 2];
        if (rank == 0) {
            System.out.printf(Locale.ROOT, "checkpoint: %d ranks x %d MiB to %s: %srestore %.3f s (%.2f GB/s); median "
                    + "write %.3f s (%.2f GB/s)%n", size, mib, base, line, t[0], size * bytes / t[0] / 1e9, median,
                    size * bytes / median / 1e9);
        }
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
        MPI.Finalize();
    }
}
