import java.nio.IntBuffer;
import mpi.*;

/*
 * The classic ring: rank 0 sends a counter around, every pass through rank 0 takes one off, until it is 0.
 * Once with blocking calls on an int[], once with non-blocking calls on a direct IntBuffer.
 */
class Ring {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        int tag = 201;
        int[] message = new int[1];
        int passes = 0;
        if (rank == 0) {
            message[0] = 10;
            MPI.COMM_WORLD.send(message, 1, MPI.INT, next, tag);
        }
        while (true) {
            MPI.COMM_WORLD.recv(message, 1, MPI.INT, prev, tag);
            if (rank == 0) {
                message[0]--;
                passes++;
            }
            MPI.COMM_WORLD.send(message, 1, MPI.INT, next, tag);
            if (message[0] == 0) {
                break;
            }
        }
        if (rank == 0) {
            MPI.COMM_WORLD.recv(message, 1, MPI.INT, prev, tag);
            Corpus.check(passes == 10, "rank 0 saw " + passes + " passes");
        }

        IntBuffer out = MPI.newIntBuffer(2);
        IntBuffer in = MPI.newIntBuffer(2);
        out.put(0, rank).put(1, rank * rank);
        Request r = MPI.COMM_WORLD.iRecv(in, 2, MPI.INT, prev, tag + 1);
        Request s = MPI.COMM_WORLD.iSend(out, 2, MPI.INT, next, tag + 1);
        Request.waitAll(new Request[] {r, s});
        Corpus.check(in.get(0) == prev && in.get(1) == prev * prev, "non-blocking ring got " + in.get(0));
        Corpus.passed("Ring");
        MPI.Finalize();
    }
}
