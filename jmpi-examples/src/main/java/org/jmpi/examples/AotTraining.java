package org.jmpi.examples;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * The workload from which the build makes the ranks' class cache (see docs/launching.md, "Start-up"): the calls most
 * programs make, on Java arrays and direct buffers, from 1 byte to 1 MiB (eager, streamed and rendezvous messages),
 * so that the classes they need are in the cache, and often enough (a few hundred times each) that the JIT compiles
 * the methods they run: the cache records which ones it compiled, and a rank that starts from it compiles those at
 * once with C1's final tier. Not a benchmark and not an example to copy; it checks its results so that a broken build
 * does not make a cache from a failing run. The build runs it on three ranks, two on this host and one on another
 * (this machine again, reached through jmpirun's launch agent: TCP between them, as between hosts), or on two when that
 * cannot be done; with a file name as first argument, rank 0 writes its process id there (the build keeps that rank's
 * cache); a second argument sets the rounds (300). Rank 0 exchanges the point-to-point messages with its neighbour on
 * its host and with the rank of the other host (TCP's lane), and the collectives run on each host and across both (the
 * hierarchical ones). At the end the job spawns one more process, which rank 0 exchanges the same point-to-point
 * messages with: a process of another job is reached over TCP, without the lane, so the cache holds that path too.
 */
public final class AotTraining {
    private AotTraining() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intercomm parent = Intercomm.getParent();
        if (parent != null && !parent.isNull()) {
            overTcp(parent, false, args.length > 0 ? Integer.parseInt(args[0]) : 300);
            parent.disconnect();
            MPI.Finalize();
            return;
        }
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        if (rank == 0 && args.length > 0) {
            Files.writeString(Path.of(args[0]), Long.toString(ProcessHandle.current().pid()));
        }
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        System.out.println("training rank " + rank + " of " + size + " on " + MPI.getProcessorName());
        MPI.wtime();
        Intracomm host = world.splitType(Comm.TYPE_SHARED, rank, MPI.INFO_NULL);
        // ranks 0 .. local - 1 share rank 0's host (jmpirun places ranks in blocks); rank local is on another one
        int[] local = {host.getSize()};
        world.bcast(local, 1, MPI.INT, 0);
        int peer = rank ^ 1;
        int remote = rank == 0 && local[0] < size ? local[0] : rank == local[0] ? 0 : -1;
        for (int n : new int[] {1, 8, 1024, 8 * 1024, 64 * 1024, 128 * 1024, 256 * 1024, 1024 * 1024}) {
            // a third of the rounds above the eager limit: their paths loop over pieces
            for (int i = n > 64 * 1024 ? rounds / 3 : rounds; i > 0; i--) {
                if (rank < local[0] && peer < local[0]) {
                    pointToPoint(world, peer, n, rank < peer);
                }
                if (remote >= 0) {
                    pointToPoint(world, remote, n, rank == 0);
                }
                collectives(host, n);
                if (local[0] < size && n <= 64 * 1024) {
                    collectives(world, n);
                }
            }
        }
        host.free();
        Intercomm child = world.spawn(AotTraining.class.getName(), new String[] {Integer.toString(rounds)}, 1,
                MPI.INFO_NULL, 0, null);
        if (rank == 0) {
            overTcp(child, true, rounds);
        }
        child.disconnect();
        Comm half = world.split(rank % 2, rank);
        half.barrier();
        half.free();
        Intracomm dup = world.dup();
        dup.barrier();
        dup.free();
        world.barrier();
        MPI.Finalize();
    }

    /** The point-to-point part with rank 0 on the other side of {@code c} (the spawned process and rank 0). */
    private static void overTcp(Intercomm c, boolean first, int rounds) throws MPIException {
        for (int n : new int[] {1, 8, 1024, 8 * 1024, 64 * 1024, 128 * 1024, 256 * 1024, 1024 * 1024}) {
            for (int i = n > 64 * 1024 ? rounds / 3 : rounds; i > 0; i--) {
                pointToPoint(c, 0, n, first);
            }
        }
    }

    private static void pointToPoint(Comm c, int peer, int n, boolean first) throws MPIException {
        // n bytes of each kind
        byte[] bytes = new byte[n];
        int kd = Math.max(1, n / 8);
        double[] doubles = new double[kd];
        ByteBuffer direct = MPI.newByteBuffer(n);
        for (int round = 0; round < 2; round++) {
            if (first == (round == 0)) {
                c.send(bytes, n, MPI.BYTE, peer, 1);
                c.send(doubles, kd, MPI.DOUBLE, peer, 2);
                c.send(direct, n, MPI.BYTE, peer, 3);
            } else {
                Status s = c.recv(bytes, n, MPI.BYTE, peer, 1);
                check(s.getCount(MPI.BYTE) == n, "byte[] count");
                c.probe(peer, 2);
                c.recv(doubles, kd, MPI.DOUBLE, MPI.ANY_SOURCE, 2);
                c.recv(direct, n, MPI.BYTE, peer, MPI.ANY_TAG);
            }
        }
        // a ping-pong on direct buffers: from 64 KiB the receiver reads the sender's buffer itself (one copy)
        for (int round = 0; round < 2; round++) {
            if (first == (round == 0)) {
                c.send(direct, n, MPI.BYTE, peer, 7);
            } else {
                c.recv(direct, n, MPI.BYTE, peer, 7);
            }
        }
        Request r = c.iRecv(direct, n, MPI.BYTE, peer, 4);
        Request s = c.iSend(MPI.newByteBuffer(n), n, MPI.BYTE, peer, 4);
        Request.waitAll(new Request[] {r, s});
        c.sendRecv(bytes, n, MPI.BYTE, peer, 5, new byte[n], n, MPI.BYTE, peer, 5);
        c.sendRecv(doubles, kd, MPI.DOUBLE, peer, 6, new double[kd], kd, MPI.DOUBLE, peer, 6);
        if (kd >= 4) {
            // a matrix column (a vector type) from a slice of the doubles, on the array and on direct buffers
            Datatype column = Datatype.createVector(kd / 4, 1, 4, MPI.DOUBLE);
            column.commit();
            c.sendRecv(MPI.slice(doubles, 1), 1, column, peer, 8, MPI.slice(new double[kd], 1), 1, column, peer, 8);
            c.sendRecv(MPI.slice(MPI.newDoubleBuffer(kd), 1), 1, column, peer, 9, MPI.newDoubleBuffer(kd), 1, column,
                    peer, 9);
            column.free();
        }
    }

    private static void collectives(Intracomm c, int n) throws MPIException {
        int size = c.getSize();
        // n bytes of each kind
        int k = Math.max(1, n / 4);
        int[] ints = new int[k];
        int[] sums = new int[k];
        java.util.Arrays.fill(ints, c.getRank() + 1);
        c.bcast(ints, k, MPI.INT, 0);
        c.bcast(MPI.newByteBuffer(n), n, MPI.BYTE, 0);
        c.allReduce(ints, sums, k, MPI.INT, MPI.SUM);
        check(sums[k - 1] == size, "allreduce");
        int kd = Math.max(1, n / 8);
        double[] d = new double[kd];
        double[] dsum = new double[kd];
        c.reduce(d, dsum, kd, MPI.DOUBLE, MPI.MAX, 0);
        c.allReduce(d, dsum, kd, MPI.DOUBLE, MPI.SUM);
        c.allReduce(MPI.newDoubleBuffer(kd), MPI.newDoubleBuffer(kd), kd, MPI.DOUBLE, MPI.SUM);
        int part = Math.max(1, k / size);
        int[] all = new int[part * size];
        c.gather(ints, part, MPI.INT, all, part, MPI.INT, 0);
        c.scatter(all, part, MPI.INT, ints, part, MPI.INT, 0);
        c.allGather(ints, part, MPI.INT, all, part, MPI.INT);
        c.allToAll(all, part, MPI.INT, new int[part * size], part, MPI.INT);
        // the v forms (programs that exchange uneven parts: sorts, particle codes) and scans
        int[] counts = new int[size];
        int[] displs = new int[size];
        for (int r = 0; r < size; r++) {
            counts[r] = part;
            displs[r] = r * part;
        }
        c.allGatherv(ints, part, MPI.INT, all, counts, displs, MPI.INT);
        c.allToAllv(all, counts, displs, MPI.INT, new int[part * size], counts, displs, MPI.INT);
        c.gatherv(ints, part, MPI.INT, all, counts, displs, MPI.INT, 0);
        c.scatterv(all, counts, displs, MPI.INT, ints, part, MPI.INT, 0);
        c.scan(ints, sums, part, MPI.INT, MPI.SUM);
        c.reduceScatter(all, ints, counts, MPI.INT, MPI.SUM);
        c.barrier();
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("training run computed a wrong " + what);
        }
    }
}
