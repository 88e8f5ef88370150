import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import mpi.*;

/*
 * MPI.slice over arrays and over direct buffers from MPI.newXxxBuffer: a message into the middle of an array,
 * a vector with a negative stride that reaches back before a direct slice, non-blocking calls on slices.
 */
class Slices {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;

        int[] row = new int[10];
        world.sendRecv(new int[] {rank, rank + 1, rank + 2}, 3, MPI.INT, next, 1, MPI.slice(row, 4), 3, MPI.INT,
                prev, 1);
        Corpus.check(row[3] == 0 && row[4] == prev && row[6] == prev + 2 && row[7] == 0, "receive into a slice");

        // every second element, walking backwards from the slice start
        Datatype back = Datatype.createVector(4, 1, -2, MPI.DOUBLE);
        back.commit();
        DoubleBuffer all = MPI.newDoubleBuffer(8);
        for (int i = 0; i < 8; i++) {
            all.put(i, 10 * rank + i);
        }
        double[] got = new double[4];
        world.sendRecv(MPI.slice(all, 7), 1, back, next, 2, got, 4, MPI.DOUBLE, prev, 2);
        Corpus.check(got[0] == 10 * prev + 7 && got[3] == 10 * prev + 1, "negative stride over a direct slice");
        back.free();

        IntBuffer direct = MPI.newIntBuffer(6);
        Request r = world.iRecv(MPI.slice(direct, 2), 2, MPI.INT, prev, 3);
        Request s = world.iSend(MPI.slice(MPI.newIntBuffer(4).put(0, 5).put(1, rank), 0), 2, MPI.INT, next, 3);
        s.waitFor();
        r.waitFor();
        Corpus.check(direct.get(2) == 5 && direct.get(3) == prev && direct.get(1) == 0, "non-blocking into a slice");

        Corpus.passed("Slices");
        MPI.Finalize();
    }
}
