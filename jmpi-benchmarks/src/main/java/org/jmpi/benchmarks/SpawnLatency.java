package org.jmpi.benchmarks;

import java.util.Arrays;
import mpi.Intercomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Spawn latency: the time from the start of {@code MPI_Comm_spawn} of N Java children (this class) at the root until
 * the root has received the first message from the children (child rank 0 sends one int right after
 * {@code MPI_Init}), i.e. child start-up, connect and the first message back. The disconnect and the children's exit
 * are outside the timed span. C twin: {@code jmpi-benchmarks/src/main/c/spawn_latency.c}; script:
 * {@code jmpi-benchmarks/scripts/spawn-vs-mpich.sh}.
 *
 * <p>Options: {@code --children N} (default 1), {@code --reps R} (default 10, after one untimed warm-up spawn).
 * Prints {@code spawn N children: rep i ms} per repetition, then {@code spawn N children: min ms median ms max ms}.
 */
public final class SpawnLatency {
    private SpawnLatency() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intercomm parent = Intercomm.getParent();
        if (!parent.isNull()) {
            if (MPI.COMM_WORLD.getRank() == 0) {
                parent.send(new int[] {MPI.COMM_WORLD.getSize()}, 1, MPI.INT, 0, 1);
            }
            parent.disconnect();
            MPI.Finalize();
            return;
        }
        int children = intOption(args, "--children", 1);
        int reps = intOption(args, "--reps", 10);
        double[] ms = new double[reps];
        for (int r = -1; r < reps; r++) {
            long t0 = System.nanoTime();
            Intercomm c = MPI.COMM_WORLD.spawn(SpawnLatency.class.getName(), new String[0], children, MPI.INFO_NULL,
                    0, null);
            int[] got = new int[1];
            if (MPI.COMM_WORLD.getRank() == 0) {
                c.recv(got, 1, MPI.INT, 0, 1);
            }
            long t1 = System.nanoTime();
            c.disconnect();
            if (r >= 0) {
                ms[r] = (t1 - t0) / 1e6;
                if (MPI.COMM_WORLD.getRank() == 0) {
                    System.out.printf("spawn %d children: rep %d %.1f ms%n", children, r, ms[r]);
                }
            }
        }
        if (MPI.COMM_WORLD.getRank() == 0) {
            double[] s = ms.clone();
            Arrays.sort(s);
            System.out.printf("spawn %d children: min %.1f ms median %.1f ms max %.1f ms%n", children, s[0],
                    s[s.length / 2], s[s.length - 1]);
        }
        MPI.Finalize();
    }

    private static int intOption(String[] args, String name, int fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return Integer.parseInt(args[i + 1]);
            }
        }
        return fallback;
    }
}
