package org.jmpi.tests.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jmpi.tests.io.IoTesting.assertImage;
import static org.jmpi.tests.io.IoTesting.getInt;
import static org.jmpi.tests.io.IoTesting.putInt;
import static org.jmpi.tests.io.IoTesting.value;
import static org.jmpi.tests.io.IoTesting.values;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import mpi.Comm;
import mpi.File;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * The shared file pointer: ordered writes and reads (rank order checked in the file's bytes), shared writes and
 * reads from every rank at once (no record lost or torn, each rank's records all there), the non-blocking and
 * split forms, seekShared/getPositionShared, MODE_SEQUENTIAL and MODE_APPEND.
 */
class FileSharedPointerTest {

    @MpiTest(ranks = {1, 2, 3, 4, 8}, timeoutSeconds = 120)
    void orderedWritesAreInRankOrder() throws MPIException {
        ordered();
    }

    /** The same between processes over forced TCP, the transport ranks on different hosts use. */
    @MpiTest(ranks = {3}, modes = Mode.PROCESSES, jvmArgs = "-Djmpi.transport=tcp", timeoutSeconds = 120)
    void orderedWritesOverTcp() throws MPIException {
        ordered();
    }

    private static void ordered() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        Path dir = IoTesting.sharedTempDir(w);
        Path path = dir.resolve("ordered");
        File f = new File(w, path.toString(), MPI.MODE_CREATE | MPI.MODE_WRONLY);
        f.setView(0, MPI.INT, MPI.INT, "native");
        // rank r writes r + 1 ints, twice: blocking, then split
        Status s = f.writeOrdered(values(rank, rank + 1), rank + 1, MPI.INT);
        assertThat(s.getCount(MPI.INT)).isEqualTo(rank + 1);
        int total = size * (size + 1) / 2;
        assertThat(f.getPositionShared()).isEqualTo(total);
        int[] second = values(rank + size, rank + 1);
        f.writeOrderedBegin(second, rank + 1, MPI.INT);
        f.writeOrderedEnd(second);
        assertThat(f.getPositionShared()).isEqualTo(2L * total);
        f.close();
        byte[] image = new byte[2 * total * 4];
        int at = 0;
        for (int round = 0; round < 2; round++) {
            for (int r = 0; r < size; r++) {
                for (int i = 0; i <= r; i++) {
                    putInt(image, at, value(r + round * size, i));
                    at += 4;
                }
            }
        }
        w.barrier();
        if (rank == 0) {
            assertImage(path, image);
        }
        // read them back in order
        f = new File(w, path.toString(), MPI.MODE_RDONLY);
        f.setView(0, MPI.INT, MPI.INT, "native");
        int[] back = new int[rank + 1];
        f.readOrdered(back, rank + 1, MPI.INT);
        assertThat(back).isEqualTo(values(rank, rank + 1));
        f.readOrderedBegin(back, rank + 1, MPI.INT);
        s = f.readOrderedEnd(back);
        assertThat(s.getCount(MPI.INT)).isEqualTo(rank + 1);
        assertThat(back).isEqualTo(values(rank + size, rank + 1));
        // at the end of the file an ordered read delivers nothing
        s = f.readOrdered(back, rank + 1, MPI.INT);
        assertThat(s.getCount(MPI.INT)).isZero();
        f.seekShared(1, MPI.SEEK_SET);
        assertThat(f.getPositionShared()).isEqualTo(1);
        f.close();
        IoTesting.removeTempDir(w, dir);
    }

    /** Every rank appends records through the shared pointer at once: all there, none torn, none overlapping. */
    @MpiTest(ranks = {1, 2, 3, 4, 8}, timeoutSeconds = 120)
    void sharedWritesFromEveryRank() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        Path dir = IoTesting.sharedTempDir(w);
        Path path = dir.resolve("shared");
        int record = 16;
        int rounds = 10;
        File f = new File(w, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.INT, MPI.INT, "native");
        for (int k = 0; k < rounds; k++) {
            int[] rec = new int[record];
            java.util.Arrays.fill(rec, value(rank, k));
            if (k % 2 == 0) {
                Status s = f.writeShared(rec, record, MPI.INT);
                assertThat(s.getCount(MPI.INT)).isEqualTo(record);
            } else {
                IntBuffer b = MPI.newIntBuffer(record).put(rec);
                f.iWriteShared(b, record, MPI.INT).waitFor();
            }
        }
        f.sync();
        w.barrier();
        f.sync();
        assertThat(f.getPositionShared()).isEqualTo((long) size * rounds * record);
        byte[] bytes = IoTesting.read(path);
        assertThat(bytes.length).isEqualTo(size * rounds * record * 4);
        Map<Integer, Integer> seen = new HashMap<>();
        for (int rec = 0; rec < size * rounds; rec++) {
            int v = getInt(bytes, rec * record * 4);
            for (int i = 1; i < record; i++) {
                assertThat(getInt(bytes, (rec * record + i) * 4)).as("record " + rec + " is torn").isEqualTo(v);
            }
            seen.merge(v, 1, Integer::sum);
        }
        for (int r = 0; r < size; r++) {
            for (int k = 0; k < rounds; k++) {
                assertThat(seen.get(value(r, k))).as("record " + k + " of rank " + r).isEqualTo(1);
            }
        }
        // read them all back through the shared pointer: every record read exactly once over all ranks
        w.barrier();
        f.seekShared(0, MPI.SEEK_SET);
        int[] counts = new int[1];
        int[] rec = new int[record];
        long sum = 0;
        for (int k = 0; k < rounds; k++) {
            Status s = k % 2 == 0 ? f.readShared(rec, record, MPI.INT) : null;
            if (s == null) {
                IntBuffer b = MPI.newIntBuffer(record);
                s = f.iReadShared(b, record, MPI.INT).waitStatus();
                b.get(0, rec);
            }
            assertThat(s.getCount(MPI.INT)).isEqualTo(record);
            sum += rec[0];
            counts[0]++;
        }
        long[] total = {sum};
        w.allReduce(total, 1, MPI.LONG, MPI.SUM);
        long expected = 0;
        for (int r = 0; r < size; r++) {
            for (int k = 0; k < rounds; k++) {
                expected += value(r, k);
            }
        }
        assertThat(total[0]).isEqualTo(expected);
        f.close();
        IoTesting.removeTempDir(w, dir);
    }

    /** MODE_SEQUENTIAL allows shared-pointer access only; MODE_APPEND starts both pointers at the end. */
    @MpiTest(ranks = {1, 3}, timeoutSeconds = 120)
    void sequentialAndAppend() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        Path dir = IoTesting.sharedTempDir(w);
        Path path = dir.resolve("log");
        if (rank == 0) {
            try {
                Files.write(path, new byte[] {1, 2, 3, 4});
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        w.barrier();
        File f = new File(w, path.toString(), MPI.MODE_WRONLY | MPI.MODE_APPEND | MPI.MODE_SEQUENTIAL);
        assertThat(f.getPositionShared()).isEqualTo(4);
        IoTesting.expect(MPI.ERR_UNSUPPORTED_OPERATION, () -> f.writeAt(0, new byte[1], 1, MPI.BYTE));
        IoTesting.expect(MPI.ERR_UNSUPPORTED_OPERATION, () -> f.seek(0, MPI.SEEK_SET));
        f.writeOrdered(new byte[] {(byte) (10 + rank)}, 1, MPI.BYTE);
        f.close();
        w.barrier();
        byte[] image = new byte[4 + size];
        image[0] = 1;
        image[1] = 2;
        image[2] = 3;
        image[3] = 4;
        for (int r = 0; r < size; r++) {
            image[4 + r] = (byte) (10 + r);
        }
        if (rank == 0) {
            assertImage(path, image);
        }
        File g = new File(w, path.toString(), MPI.MODE_RDWR | MPI.MODE_APPEND);
        assertThat(g.getPosition()).isEqualTo(4 + size);
        g.close();
        IoTesting.removeTempDir(w, dir);
    }
}
