import java.nio.ByteBuffer;
import mpi.*;

/*
 * MINLOC and MAXLOC with the pair types over an int[], a byte[] and a direct ByteBuffer sized with the types'
 * extents, read back through the MPI.int2 / MPI.doubleInt / MPI.shortInt helper structs.
 */
class PairReductions {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();

        // (value, index) pairs in an int[]: the largest value is 3 * (size - 1), at rank size - 1
        int[] pairs = {3 * rank, rank, -rank, rank};
        int[] best = new int[4];
        world.allReduce(pairs, best, 2, MPI.INT2, MPI.MAXLOC);
        Corpus.check(best[0] == 3 * (size - 1) && best[1] == size - 1, "MAXLOC on INT2 in int[]");
        Corpus.check(best[2] == 0 && best[3] == 0, "MAXLOC on the second pair");

        // the same type in a direct buffer sized by its extent
        ByteBuffer buf = MPI.newByteBuffer(MPI.INT2.getExtent());
        Int2.Data in = MPI.int2.getData(buf);
        in.putValue(100 - rank);
        in.putIndex(rank);
        world.allReduce(buf, 1, MPI.INT2, MPI.MINLOC);
        Int2.Data min = MPI.int2.getData(buf);
        Corpus.check(min.getValue() == 100 - (size - 1) && min.getIndex() == size - 1, "MINLOC on INT2 in a buffer");

        // double and int in a byte[], two pairs, reduced to rank 0
        int extent = MPI.DOUBLE_INT.getExtent();
        byte[] data = new byte[2 * extent];
        DoubleInt.Data first = MPI.doubleInt.getData(data, 0);
        first.putValue(Math.sin(rank));
        first.putIndex(rank);
        DoubleInt.Data second = MPI.doubleInt.getData(data, 1);
        second.putValue(rank == 0 ? 1e9 : rank);
        second.putIndex(rank);
        byte[] result = new byte[2 * extent];
        world.reduce(data, result, 2, MPI.DOUBLE_INT, MPI.MAXLOC, 0);
        if (rank == 0) {
            int at = 0;
            for (int r = 1; r < size; r++) {
                if (Math.sin(r) > Math.sin(at)) {
                    at = r;
                }
            }
            DoubleInt.Data r0 = MPI.doubleInt.getData(result, 0);
            DoubleInt.Data r1 = MPI.doubleInt.getData(result, 1);
            Corpus.check(r0.getIndex() == at && r0.getValue() == Math.sin(at), "MAXLOC on DOUBLE_INT in byte[]");
            Corpus.check(r1.getIndex() == 0 && r1.getValue() == 1e9, "second DOUBLE_INT pair");
        }

        // short and int in place
        byte[] si = new byte[MPI.SHORT_INT.getExtent()];
        ShortInt.Data s = MPI.shortInt.getData(si);
        s.putValue((short) (rank % 2));
        s.putIndex(rank);
        world.allReduce(si, 1, MPI.SHORT_INT, MPI.MINLOC);
        ShortInt.Data sr = MPI.shortInt.getData(si);
        Corpus.check(sr.getValue() == 0 && sr.getIndex() == 0, "MINLOC on SHORT_INT in place");

        Corpus.passed("PairReductions");
        MPI.Finalize();
    }
}
