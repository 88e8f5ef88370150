package org.jmpi.tests.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jmpi.tests.io.IoTesting.assertImage;
import static org.jmpi.tests.io.IoTesting.putInt;
import static org.jmpi.tests.io.IoTesting.value;
import static org.jmpi.tests.io.IoTesting.values;

import java.nio.IntBuffer;
import java.nio.file.Path;
import mpi.Comm;
import mpi.Datatype;
import mpi.File;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * Every data-access flavour of mpi.File, each checked against an image of the file built sequentially: explicit
 * offsets, individual pointers, views with holes and block-cyclic file types (independent, with data sieving, and
 * collective, with two-phase I/O over several cycles and aggregators), non-blocking and split collectives.
 */
class FileAccessTest {
    private static final int N = 1000;

    private static Comm world() {
        return MPI.COMM_WORLD;
    }

    /** Each rank writes its block at an explicit offset; everyone reads every block back. */
    @MpiTest(ranks = {1, 2, 3, 4, 8}, timeoutSeconds = 120)
    void explicitOffsets() throws MPIException {
        Comm w = world();
        int rank = w.getRank();
        int size = w.getSize();
        Path dir = IoTesting.sharedTempDir(w);
        Path path = dir.resolve("explicit");
        File f = new File(w, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        assertThat(f.getAMode()).isEqualTo(MPI.MODE_CREATE | MPI.MODE_RDWR);
        assertThat(f.getGroup().getSize()).isEqualTo(size);
        Status s = f.writeAt((long) rank * N * 4, values(rank, N), N, MPI.INT);
        assertThat(s.getCount(MPI.INT)).isEqualTo(N);
        f.sync();
        w.barrier();
        f.sync();
        byte[] image = IoTesting.blocks(1, size, N);
        if (rank == 0) {
            assertImage(path, image);
        }
        assertThat(f.getSize()).isEqualTo(image.length);
        int[] back = new int[N];
        int other = (rank + 1) % size;
        s = f.readAt((long) other * N * 4, back, N, MPI.INT);
        assertThat(s.getCount(MPI.INT)).isEqualTo(N);
        assertThat(back).isEqualTo(values(other, N));
        // a read that meets the end of the file delivers what there is
        s = f.readAt((long) size * N * 4 - 8, back, 10, MPI.INT);
        assertThat(s.getCount(MPI.INT)).isEqualTo(2);
        assertThat(s.getElements(MPI.INT)).isEqualTo(2);
        // the collective forms give the same
        int[] all = new int[N];
        s = f.readAtAll((long) other * N * 4, all, N, MPI.INT);
        assertThat(all).isEqualTo(values(other, N));
        f.close();
        IoTesting.removeTempDir(w, dir);
    }

    /** Individual pointers: seek, getPosition, getByteOffset, read/write and their collective forms. */
    @MpiTest(ranks = {1, 2, 3, 4, 8}, timeoutSeconds = 120)
    void individualPointers() throws MPIException {
        Comm w = world();
        int rank = w.getRank();
        int size = w.getSize();
        Path dir = IoTesting.sharedTempDir(w);
        Path path = dir.resolve("pointers");
        File f = new File(w, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.INT, MPI.INT, "native");
        f.seek((long) rank * N, MPI.SEEK_SET);
        assertThat(f.getPosition()).isEqualTo((long) rank * N);
        assertThat(f.getByteOffset(f.getPosition())).isEqualTo((long) rank * N * 4);
        int[] v = values(rank, N);
        f.write(v, N / 2, MPI.INT);
        assertThat(f.getPosition()).isEqualTo((long) rank * N + N / 2);
        f.writeAll(MPI.slice(v, N / 2), N - N / 2, MPI.INT);
        assertThat(f.getPosition()).isEqualTo((long) (rank + 1) * N);
        f.seek(-N, MPI.SEEK_CUR);
        int[] back = new int[N];
        Status s = f.readAll(back, N, MPI.INT);
        assertThat(s.getCount(MPI.INT)).isEqualTo(N);
        assertThat(back).isEqualTo(v);
        f.sync();
        w.barrier();
        f.seek(0, MPI.SEEK_END);
        assertThat(f.getPosition()).isEqualTo((long) size * N);
        f.seek(-N, MPI.SEEK_END);
        s = f.read(back, N, MPI.INT);
        assertThat(back).isEqualTo(values(size - 1, N));
        s = f.read(back, N, MPI.INT);
        assertThat(s.getCount(MPI.INT)).isZero();
        byte[] image = IoTesting.blocks(1, size, N);
        f.close();
        if (rank == 0) {
            assertImage(path, image);
        }
        IoTesting.removeTempDir(w, dir);
    }

    /**
     * A block-cyclic view with holes (vector of blocks, resized so the tiles interleave): rank r owns blocks r,
     * r + p, ... of B ints. Written collectively (two-phase, forced, small buffers so it takes several cycles and
     * aggregators), independently with data sieving, and independently without; read back collectively.
     */
    @MpiTest(ranks = {1, 2, 3, 4, 8}, timeoutSeconds = 180)
    void blockCyclicViews() throws MPIException {
        blockCyclic();
    }

    /** The same between processes over forced TCP, the transport ranks on different hosts use. */
    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, jvmArgs = "-Djmpi.transport=tcp", timeoutSeconds = 180)
    void blockCyclicViewsOverTcp() throws MPIException {
        blockCyclic();
    }

    private static void blockCyclic() throws MPIException {
        Comm w = world();
        int rank = w.getRank();
        int size = w.getSize();
        Path dir = IoTesting.sharedTempDir(w);
        int block = 7;
        int blocks = 300;
        int count = block * blocks;
        Datatype tile = Datatype.createVector(1, block, 1, MPI.INT);
        Datatype cyclic = Datatype.createResized(tile, 0, block * size);
        cyclic.commit();
        byte[] image = new byte[size * count * 4];
        for (int r = 0; r < size; r++) {
            for (int b = 0; b < blocks; b++) {
                for (int i = 0; i < block; i++) {
                    putInt(image, ((b * size + r) * block + i) * 4, value(r, b * block + i));
                }
            }
        }
        String[][] variants = {
            {"collective", "romio_cb_write", "enable", "cb_buffer_size", "4096", "cb_nodes", "2"},
            {"collective-auto", "cb_buffer_size", "65536"},
            {"sieved", "ind_wr_buffer_size", "1000"},
            {"plain", "romio_ds_write", "disable", "romio_ds_read", "disable"},
        };
        for (String[] variant : variants) {
            Info info = new Info();
            for (int k = 1; k < variant.length; k += 2) {
                info.set(variant[k], variant[k + 1]);
            }
            Path path = dir.resolve(variant[0]);
            File f = new File(w, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR, info);
            f.setView((long) rank * block * 4, MPI.INT, cyclic, "native");
            assertThat(f.getByteOffset(block)).isEqualTo(((long) size + rank) * block * 4);
            int[] mine = values(rank, count);
            Status s;
            if (variant[0].startsWith("collective")) {
                s = f.writeAll(mine, count, MPI.INT);
            } else {
                // two independent halves, the second at the individual pointer
                f.write(mine, count / 2, MPI.INT);
                s = f.write(MPI.slice(mine, count / 2), count - count / 2, MPI.INT);
            }
            assertThat(f.getPosition()).isEqualTo(count);
            f.sync();
            w.barrier();
            f.sync();
            if (rank == 0) {
                assertImage(path, image);
            }
            int[] back = new int[count];
            s = f.readAtAll(0, back, count, MPI.INT);
            assertThat(s.getCount(MPI.INT)).as(variant[0]).isEqualTo(count);
            assertThat(back).as(variant[0]).isEqualTo(mine);
            int[] some = new int[block * 3];
            f.readAt(block, some, block * 3, MPI.INT);
            for (int i = 0; i < some.length; i++) {
                assertThat(some[i]).isEqualTo(value(rank, block + i));
            }
            f.close();
        }
        cyclic.free();
        IoTesting.removeTempDir(w, dir);
    }

    /** Non-blocking accesses (independent and collective) and split collectives. */
    @MpiTest(ranks = {1, 2, 3, 4, 8}, timeoutSeconds = 120)
    void nonBlockingAndSplit() throws MPIException {
        Comm w = world();
        int rank = w.getRank();
        int size = w.getSize();
        Path dir = IoTesting.sharedTempDir(w);
        Path path = dir.resolve("nonblocking");
        File f = new File(w, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.INT, MPI.INT, "native");
        // 5 regions of size * N ints: iWriteAt, iWriteAtAll, writeAtAllBegin/End, iWrite + iWriteAll, writeAllBegin/End
        IntBuffer a = MPI.newIntBuffer(N).put(values(rank, N));
        IntBuffer b = MPI.newIntBuffer(N).put(values(rank + size, N));
        Request r1 = f.iWriteAt((long) rank * N, a, N, MPI.INT);
        Request r2 = f.iWriteAtAll((long) (size + rank) * N, b, N, MPI.INT);
        Status s1 = r1.waitStatus();
        Status s2 = r2.waitStatus();
        assertThat(s1.getCount(MPI.INT)).isEqualTo(N);
        assertThat(s2.getCount(MPI.INT)).isEqualTo(N);
        int[] c = values(rank + 2 * size, N);
        f.writeAtAllBegin((long) (2 * size + rank) * N, c, N, MPI.INT);
        Status s3 = f.writeAtAllEnd(c);
        assertThat(s3.getCount(MPI.INT)).isEqualTo(N);
        IntBuffer d = MPI.newIntBuffer(N).put(values(rank + 3 * size, N));
        f.seek((long) (3 * size + rank) * N, MPI.SEEK_SET);
        Request r4 = f.iWrite(d, N / 2, MPI.INT);
        assertThat(f.getPosition()).isEqualTo((long) (3 * size + rank) * N + N / 2);
        Request r5 = f.iWriteAll(MPI.slice(d, N / 2), N - N / 2, MPI.INT);
        Request.waitAll(new Request[] {r4, r5});
        // a fifth region by the split collective at the individual file pointer
        int[] e = values(rank + 4 * size, N);
        f.seek((long) (4 * size + rank) * N, MPI.SEEK_SET);
        f.writeAllBegin(e, N, MPI.INT);
        Status s6 = f.writeAllEnd(e);
        assertThat(s6.getCount(MPI.INT)).isEqualTo(N);
        assertThat(f.getPosition()).isEqualTo((long) (4 * size + rank + 1) * N);
        f.sync();
        w.barrier();
        f.sync();
        byte[] image = IoTesting.blocks(5, size, N);
        if (rank == 0) {
            assertImage(path, image);
        }
        // read back through every non-blocking and split form
        int other = (rank + 1) % size;
        IntBuffer in = MPI.newIntBuffer(N);
        f.iReadAt((long) other * N, in, N, MPI.INT).waitFor();
        assertThat(ints(in)).isEqualTo(values(other, N));
        Status s = f.iReadAtAll((long) (size + other) * N, in, N, MPI.INT).waitStatus();
        assertThat(s.getCount(MPI.INT)).isEqualTo(N);
        assertThat(ints(in)).isEqualTo(values(other + size, N));
        int[] arr = new int[N];
        f.readAtAllBegin((long) (2 * size + other) * N, arr, N, MPI.INT);
        f.readAtAllEnd(arr);
        assertThat(arr).isEqualTo(values(other + 2 * size, N));
        f.seek((long) (3 * size + other) * N, MPI.SEEK_SET);
        f.readAllBegin(arr, N, MPI.INT);
        s = f.readAllEnd(arr);
        assertThat(s.getCount(MPI.INT)).isEqualTo(N);
        assertThat(arr).isEqualTo(values(other + 3 * size, N));
        f.seek((long) (3 * size + other) * N, MPI.SEEK_SET);
        f.iRead(in, N, MPI.INT).waitFor();
        assertThat(ints(in)).isEqualTo(values(other + 3 * size, N));
        f.seek((long) other * N, MPI.SEEK_SET);
        f.iReadAll(in, N, MPI.INT).waitFor();
        assertThat(ints(in)).isEqualTo(values(other, N));
        f.close();
        IoTesting.removeTempDir(w, dir);
    }

    private static int[] ints(IntBuffer b) {
        int[] a = new int[b.capacity()];
        b.duplicate().clear().get(a);
        return a;
    }
}
