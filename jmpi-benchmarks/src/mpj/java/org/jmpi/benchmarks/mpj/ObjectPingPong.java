package org.jmpi.benchmarks.mpj;

import mpi.MPI;

/**
 * {@code MPI.OBJECT} messages as MPJ Express programs send them, cold (fresh JVMs, the program's own warm-up only): a
 * ping-pong of the rows of a {@code double[64][1024]} (64 objects, 512 KiB) and one of an {@code Object[1000]} of short
 * strings, each 50 untimed and 200 timed round trips after a barrier; rank 0 prints the milliseconds a round trip
 * takes and checks what came back. Runs unchanged on MPJ Express and on jmpi's MPJ API. Needs 2 ranks.
 *
 * <pre>mpjrun.sh -np 2 -dev multicore|niodev -cp CLASSES org.jmpi.benchmarks.mpj.ObjectPingPong [ROUNDTRIPS]</pre>
 */
public final class ObjectPingPong {
    private ObjectPingPong() {}

    public static void main(String[] args) {
        String[] rest = MPI.Init(args);
        int timed = rest.length > 0 ? Integer.parseInt(rest[0]) : 200;
        int rank = MPI.COMM_WORLD.Rank();
        Object[] rows = new double[64][1024];
        for (int i = 0; i < rows.length; i++) {
            java.util.Arrays.fill((double[]) rows[i], i + 0.5);
        }
        Object[] strings = new Object[1000];
        for (int i = 0; i < strings.length; i++) {
            strings[i] = "element " + i;
        }
        report(rank, "rows double[64][1024]", run(rank, rows, new double[64][], timed));
        report(rank, "strings Object[1000]", run(rank, strings, new Object[1000], timed));
        MPI.Finalize();
    }

    /** Milliseconds per round trip; rank 0 checks the last echo. */
    private static double run(int rank, Object[] out, Object[] in, int timed) {
        pingPong(rank, out, in, 50);
        MPI.COMM_WORLD.Barrier();
        long t0 = System.nanoTime(); // not MPI.Wtime: MPJ Express's counts whole seconds
        pingPong(rank, out, in, timed);
        double t = (System.nanoTime() - t0) * 1e-9;
        if (rank == 0) {
            for (int i = 0; i < out.length; i++) {
                // an array must come back as a copy; a string may come back as the same (immutable) object
                boolean same = out[i] instanceof double[] d
                        ? d != in[i] && java.util.Arrays.equals(d, (double[]) in[i])
                        : out[i].equals(in[i]);
                if (!same) {
                    throw new IllegalStateException("element " + i + " came back wrong");
                }
            }
        }
        return t * 1e3 / timed;
    }

    private static void pingPong(int rank, Object[] out, Object[] in, int n) {
        for (int i = 0; i < n; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.Send(out, 0, out.length, MPI.OBJECT, 1, 1);
                MPI.COMM_WORLD.Recv(in, 0, in.length, MPI.OBJECT, 1, 1);
            } else if (rank == 1) {
                MPI.COMM_WORLD.Recv(in, 0, in.length, MPI.OBJECT, 0, 1);
                MPI.COMM_WORLD.Send(in, 0, in.length, MPI.OBJECT, 0, 1);
            }
        }
    }

    private static void report(int rank, String what, double ms) {
        if (rank == 0) {
            System.out.printf("%s: %.3f ms a round trip%n", what, ms);
        }
    }
}
