package org.jmpi.junit;

import java.nio.ByteBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * The body of the training job behind {@link RankClassCache}: a little of what tests do on every rank (messages of
 * each protocol on arrays and direct buffers, non-blocking calls, probes, the common collectives, a derived datatype,
 * a split communicator), so that the classes they load are in the cache. Run by {@link RankMain} as a task, like a
 * test method; it checks nothing.
 */
final class RankTraining {
    private RankTraining() {}

    static void exercise() throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        for (int bytes : new int[] {8, 4 << 10, 64 << 10, 1 << 20}) {
            byte[] out = new byte[bytes];
            byte[] in = new byte[bytes];
            world.sendRecv(out, bytes, MPI.BYTE, next, 1, in, bytes, MPI.BYTE, prev, 1);
            ByteBuffer dout = MPI.newByteBuffer(bytes);
            ByteBuffer din = MPI.newByteBuffer(bytes);
            Request r = world.iRecv(din, bytes, MPI.BYTE, prev, 2);
            world.send(dout, bytes, MPI.BYTE, next, 2);
            r.waitFor();
        }
        double[] d = new double[64];
        int[] i = new int[64];
        Request[] rs = {world.iRecv(d, 64, MPI.DOUBLE, prev, 3), world.iSend(d, 64, MPI.DOUBLE, next, 3)};
        Request.waitAll(rs);
        world.send(i, 64, MPI.INT, next, 4);
        Status s = world.probe(prev, 4);
        world.recv(i, s.getCount(MPI.INT), MPI.INT, prev, 4);
        world.barrier();
        world.bcast(i, 64, MPI.INT, 0);
        world.allReduce(d, new double[64], 64, MPI.DOUBLE, MPI.SUM);
        world.reduce(i, new int[64], 64, MPI.INT, MPI.MAX, 0);
        world.allGather(i, 1, MPI.INT, new int[size], 1, MPI.INT);
        world.gather(i, 1, MPI.INT, new int[size], 1, MPI.INT, 0);
        world.scatter(new int[size], 1, MPI.INT, i, 1, MPI.INT, 0);
        world.allToAll(new long[size], 1, MPI.LONG, new long[size], 1, MPI.LONG);
        Datatype column = Datatype.createVector(8, 1, 8, MPI.DOUBLE);
        column.commit();
        world.sendRecv(d, 1, column, next, 5, new double[64], 1, column, prev, 5);
        column.free();
        Comm half = world.split(rank % 2, rank);
        half.barrier();
        half.free();
    }
}
