package org.jmpi.mpj;

import java.nio.file.Files;
import java.nio.file.Path;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * The workload from which the build makes the class cache of ranks that run the MPJ Express API
 * ({@code lib/aot/jmpi-rank-mpj.aot}; jmpi-dist/src/build/aot-caches.sh): what {@code org.jmpi.examples.AotTraining}
 * does for the Open MPI API, through this facade (Java arrays, 1 byte to 1 MiB, point-to-point and collectives),
 * often enough that the JIT compiles the methods it runs. Not a benchmark and not an example to copy; it checks its
 * results. With a file name as first argument, rank 0 writes its process id there; a second argument sets the rounds.
 */
public final class AotTraining {
    private AotTraining() {}

    public static void main(String[] args) throws Exception {
        String[] a = MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.Rank();
        int size = world.Size();
        if (rank == 0 && a.length > 0) {
            Files.writeString(Path.of(a[0]), Long.toString(ProcessHandle.current().pid()));
        }
        int rounds = a.length > 1 ? Integer.parseInt(a[1]) : 300;
        System.out.println("training rank " + rank + " of " + size + " on " + MPI.Get_processor_name());
        MPI.Wtime();
        int peer = rank ^ 1;
        for (int n : new int[] {1, 8, 1024, 8 * 1024, 64 * 1024, 128 * 1024, 256 * 1024, 1024 * 1024}) {
            for (int i = n > 64 * 1024 ? rounds / 3 : rounds; i > 0; i--) {
                if (peer < size) {
                    pointToPoint(world, peer, n);
                }
                collectives(world, n);
            }
        }
        Intracomm half = world.Split(rank % 2, rank);
        half.Barrier();
        half.Free();
        world.Barrier();
        MPI.Finalize();
    }

    private static void pointToPoint(Intracomm c, int peer, int n) {
        byte[] bytes = new byte[n];
        int kd = Math.max(1, n / 8);
        double[] doubles = new double[kd];
        boolean first = c.Rank() < peer;
        for (int round = 0; round < 2; round++) {
            if (first == (round == 0)) {
                c.Send(bytes, 0, n, MPI.BYTE, peer, 1);
                c.Send(doubles, 0, kd, MPI.DOUBLE, peer, 2);
            } else {
                Status s = c.Recv(bytes, 0, n, MPI.BYTE, peer, 1);
                check(s.Get_count(MPI.BYTE) == n, "byte[] count");
                c.Probe(peer, 2);
                c.Recv(doubles, 0, kd, MPI.DOUBLE, MPI.ANY_SOURCE, 2);
            }
        }
        byte[] in = new byte[n];
        Request r = c.Irecv(in, 0, n, MPI.BYTE, peer, 4);
        Request s = c.Isend(bytes, 0, n, MPI.BYTE, peer, 4);
        Request.Waitall(new Request[] {r, s});
        c.Sendrecv(bytes, 0, n, MPI.BYTE, peer, 5, in, 0, n, MPI.BYTE, peer, 5);
        c.Sendrecv(doubles, 0, kd, MPI.DOUBLE, peer, 6, new double[kd], 0, kd, MPI.DOUBLE, peer, 6);
    }

    private static void collectives(Intracomm c, int n) {
        int size = c.Size();
        int k = Math.max(1, n / 4);
        int[] ints = new int[k];
        int[] sums = new int[k];
        java.util.Arrays.fill(ints, c.Rank() + 1);
        c.Bcast(ints, 0, k, MPI.INT, 0);
        c.Allreduce(ints, 0, sums, 0, k, MPI.INT, MPI.SUM);
        check(sums[k - 1] == size, "allreduce");
        int kd = Math.max(1, n / 8);
        double[] d = new double[kd];
        double[] dsum = new double[kd];
        c.Reduce(d, 0, dsum, 0, kd, MPI.DOUBLE, MPI.MAX, 0);
        c.Allreduce(d, 0, dsum, 0, kd, MPI.DOUBLE, MPI.SUM);
        int part = Math.max(1, k / size);
        int[] all = new int[part * size];
        c.Gather(ints, 0, part, MPI.INT, all, 0, part, MPI.INT, 0);
        c.Scatter(all, 0, part, MPI.INT, ints, 0, part, MPI.INT, 0);
        c.Allgather(ints, 0, part, MPI.INT, all, 0, part, MPI.INT);
        c.Alltoall(all, 0, part, MPI.INT, new int[part * size], 0, part, MPI.INT);
        c.Barrier();
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("training run computed a wrong " + what);
        }
    }
}
