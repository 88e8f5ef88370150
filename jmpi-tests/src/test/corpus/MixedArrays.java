import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import mpi.*;

/*
 * Arrays of every primitive type moved as raw bytes (MPI.BYTE) or as another type, as programs written for
 * Open MPI do: a long[] broadcast as bytes, a double[] gathered as MPI.LONG, a char[] received into a short[],
 * a float[] reduced as MPI.INT with BOR, a boolean[] sent as bytes.
 */
class MixedArrays {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();

        long[] big = new long[4];
        if (rank == 0) {
            big = new long[] {Long.MIN_VALUE, -1, 42, Long.MAX_VALUE};
        }
        world.bcast(big, 32, MPI.BYTE, 0);
        Corpus.check(big[0] == Long.MIN_VALUE && big[2] == 42 && big[3] == Long.MAX_VALUE, "bcast of long[] as bytes");

        double[] mine = {rank + 0.25};
        long[] bits = new long[size];
        world.allGather(mine, 1, MPI.LONG, bits, 1, MPI.LONG);
        for (int r = 0; r < size; r++) {
            Corpus.check(Double.longBitsToDouble(bits[r]) == r + 0.25, "allGather of double[] as MPI.LONG");
        }

        char[] word = "jmpi".toCharArray();
        short[] got = new short[4];
        world.sendRecv(word, 4, MPI.CHAR, (rank + 1) % size, 7, got, 4, MPI.SHORT, (rank + size - 1) % size, 7);
        Corpus.check(got[0] == 'j' && got[3] == 'i', "char[] into short[]");

        int[] asBytes = {0x01020304, rank};
        byte[] raw = new byte[8];
        world.sendRecv(asBytes, 8, MPI.BYTE, rank, 8, raw, 8, MPI.BYTE, rank, 8);
        ByteBuffer view = ByteBuffer.wrap(raw).order(ByteOrder.nativeOrder());
        Corpus.check(view.getInt(0) == 0x01020304 && view.getInt(4) == rank, "int[] as bytes, native order");

        float[] flags = {Float.intBitsToFloat(1 << rank)};
        int[] any = new int[1];
        world.allReduce(flags, any, 1, MPI.INT, MPI.BOR);
        Corpus.check(any[0] == (size >= 31 ? -1 : (1 << size) - 1), "BOR over float bits: " + any[0]);

        boolean[] yes = {true, rank % 2 == 0, false};
        byte[] asByte = new byte[3];
        world.sendRecv(yes, 3, MPI.BYTE, rank, 9, asByte, 3, MPI.BYTE, rank, 9);
        Corpus.check(asByte[0] == 1 && asByte[1] == (rank % 2 == 0 ? 1 : 0) && asByte[2] == 0, "boolean[] as bytes");

        Corpus.passed("MixedArrays");
        MPI.Finalize();
    }
}
