import java.nio.ByteBuffer;
import mpi.*;

/*
 * A C-like struct (mpi.Struct) of an int, a double and a char array sent in a direct ByteBuffer; an int[] packed
 * with a byte-based struct datatype and unpacked into a long[].
 */
class StructsAndPacking {
    static class Particle extends Struct {
        final int id = addInt();
        final int mass = addDouble();
        final int tag = addChar(4);

        @Override
        protected Data newData() {
            return new Data();
        }

        class Data extends Struct.Data {
            int id() {
                return getInt(id);
            }

            double mass() {
                return getDouble(mass);
            }

            char tag(int i) {
                return getChar(tag, i);
            }

            void set(int i, double m, String t) {
                putInt(id, i);
                putDouble(mass, m);
                for (int k = 0; k < 4; k++) {
                    putChar(tag, k, t.charAt(k));
                }
            }
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();

        Particle p = new Particle();
        int n = 3;
        ByteBuffer out = MPI.newByteBuffer(n * p.getExtent());
        ByteBuffer in = MPI.newByteBuffer(n * p.getExtent());
        for (int i = 0; i < n; i++) {
            Particle.Data d = p.getData(out, i);
            d.set(rank * 10 + i, rank + i / 2.0, "ab" + i + "z");
        }
        int prev = (rank + size - 1) % size;
        world.sendRecv(out, n, p.getType(), (rank + 1) % size, 1, in, n, p.getType(), prev, 1);
        for (int i = 0; i < n; i++) {
            Particle.Data d = p.getData(in, i);
            Corpus.check(d.id() == prev * 10 + i && d.mass() == prev + i / 2.0 && d.tag(2) == (char) ('0' + i),
                    "struct " + i);
        }

        Datatype shortThenInt = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 4},
                new Datatype[] {MPI.SHORT, MPI.INT});
        shortThenInt.commit();
        int[] src = new int[4];
        ByteBuffer layout = ByteBuffer.allocate(16).order(java.nio.ByteOrder.nativeOrder());
        layout.putShort(0, (short) rank).putInt(4, 1000 + rank).putShort(8, (short) -rank).putInt(12, 7);
        layout.asIntBuffer().get(src);
        byte[] packed = new byte[world.packSize(2, shortThenInt)];
        int position = world.pack(src, 2, shortThenInt, packed, 0);
        Corpus.check(position == 12, "packed " + position + " bytes");
        long[] dst = new long[2];
        world.unpack(packed, 0, dst, 2, shortThenInt);
        ByteBuffer back = ByteBuffer.allocate(16).order(java.nio.ByteOrder.nativeOrder());
        back.asLongBuffer().put(dst);
        Corpus.check(back.getShort(0) == rank && back.getInt(4) == 1000 + rank && back.getInt(12) == 7,
                "unpacked into long[]");
        shortThenInt.free();
        Corpus.passed("StructsAndPacking");
        MPI.Finalize();
    }
}
