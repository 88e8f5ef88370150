package org.jmpi.tests.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jmpi.tests.io.IoTesting.getInt;

import java.nio.file.Path;
import java.util.Arrays;
import mpi.Comm;
import mpi.Datatype;
import mpi.File;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.jmpi.junit.MpiTest;

/**
 * Atomic mode: overlapping writes from every rank, some through a view with holes (so each write is a sieved
 * read-modify-write), interleaved with reads; every read sees one write whole, and the final bytes are one rank's
 * write whole. Also files beyond 4 GiB (sparse): offsets, sizes and views are longs end to end.
 */
class FileAtomicityTest {

    @MpiTest(ranks = {1, 2, 3, 4, 8}, timeoutSeconds = 180)
    void overlappingWritesAreAtomic() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        Path dir = IoTesting.sharedTempDir(w);
        Path path = dir.resolve("atomic");
        int n = 16 * 1024;
        File f = new File(w, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setAtomicity(true);
        assertThat(f.getAtomicity()).isTrue();
        // every other int, from byte 0: each write sieves (reads the window, fills its ints, writes back)
        Datatype every2 = Datatype.createResized(Datatype.createVector(1, 1, 1, MPI.INT), 0, 2);
        every2.commit();
        f.setView(0, MPI.INT, every2, "native");
        int[] fill = new int[n];
        int[] seen = new int[n];
        for (int k = 0; k < 12; k++) {
            Arrays.fill(fill, (rank + 1) * 1000 + k);
            if (k % 3 == 0) {
                // every rank writes the same ints collectively
                Status s = f.writeAtAll(0, fill, n, MPI.INT);
                assertThat(s.getCount(MPI.INT)).isEqualTo(n);
            } else if ((rank + k) % 2 == 0 || size == 1) {
                Status s = f.writeAt(0, fill, n, MPI.INT);
                assertThat(s.getCount(MPI.INT)).isEqualTo(n);
            } else {
                Status s = f.readAt(0, seen, n, MPI.INT);
                int got = s.getCount(MPI.INT);
                for (int i = 1; i < got; i++) {
                    assertThat(seen[i]).as("read %d saw two writes mixed at int %d", k, i).isEqualTo(seen[0]);
                }
            }
        }
        f.sync();
        w.barrier();
        f.sync();
        if (rank == 0) {
            byte[] bytes = IoTesting.read(path);
            int first = getInt(bytes, 0);
            for (int i = 0; i < n; i++) {
                assertThat(getInt(bytes, 8 * i)).as("int %d of the final file", 2 * i).isEqualTo(first);
                if (i < n - 1) {
                    assertThat(getInt(bytes, 8 * i + 4)).as("hole %d stays zero", i).isZero();
                }
            }
        }
        f.close();
        every2.free();
        IoTesting.removeTempDir(w, dir);
    }

    @MpiTest(ranks = {1, 2, 3, 4, 8}, timeoutSeconds = 120)
    void offsetsBeyondFourGiB() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        Path dir = IoTesting.sharedTempDir(w);
        Path path = dir.resolve("sparse");
        long base = 5L << 30;
        int n = 1024;
        File f = new File(w, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.writeAt(base + (long) rank * n * 4, IoTesting.values(rank, n), n, MPI.INT);
        // and through a view whose displacement is past 4 GiB, collectively, at a large etype offset
        f.setView(base + 6L * (1L << 30), MPI.INT, MPI.INT, "native");
        long etypeOffset = (3L << 30) + (long) rank * n;
        f.writeAtAll(etypeOffset, IoTesting.values(rank + size, n), n, MPI.INT);
        assertThat(f.getByteOffset(etypeOffset)).isEqualTo(base + 6L * (1L << 30) + 4 * etypeOffset);
        f.sync();
        w.barrier();
        long end = base + 6L * (1L << 30) + 4 * ((3L << 30) + (long) size * n);
        assertThat(f.getSize()).isEqualTo(end);
        int[] back = new int[n];
        f.readAt(etypeOffset, back, n, MPI.INT);
        assertThat(back).isEqualTo(IoTesting.values(rank + size, n));
        f.setView(0, MPI.BYTE, MPI.BYTE, "native");
        int other = (rank + 1) % size;
        f.readAt(base + (long) other * n * 4, back, n, MPI.INT);
        assertThat(back).isEqualTo(IoTesting.values(other, n));
        f.seek(0, MPI.SEEK_END);
        assertThat(f.getPosition()).isEqualTo(end);
        f.close();
        IoTesting.removeTempDir(w, dir);
    }
}
