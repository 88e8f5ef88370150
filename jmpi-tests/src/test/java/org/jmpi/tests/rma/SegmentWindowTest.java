package org.jmpi.tests.rma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * Windows over memory segments (MPI 4.0's large buffers): native and heap segments, puts and gets under fences, the
 * displacement unit in bytes, {@code MPI.WIN_BASE} and {@code MPI.WIN_SIZE}, an empty window, and the errors; and a
 * segment written to and read from a file.
 */
class SegmentWindowTest {

    @MpiTest(ranks = {1, 2, 3}, timeoutSeconds = 120)
    void putAndGet() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int next = (rank + 1) % size;
        try (Arena arena = Arena.ofShared()) {
            for (MemorySegment mem : new MemorySegment[] {arena.allocate(8L * 64, 8),
                    MemorySegment.ofArray(new long[64])}) {
                mem.fill((byte) 0);
                Win win = new Win(mem, 8, MPI.INFO_NULL, w);
                assertThat(((Number) win.getAttr(MPI.WIN_SIZE)).longValue()).isEqualTo(8L * 64);
                Object base = win.getAttr(MPI.WIN_BASE);
                if (mem.isNative()) {
                    assertThat(base).isInstanceOf(ByteBuffer.class);
                } else {
                    assertThat(base).as("a long[] segment has no byte buffer view").isNull();
                }
                LongBuffer out = MPI.newLongBuffer(1);
                out.put(0, 100 + rank);
                win.fence(0);
                win.put(out, 1, MPI.LONG, next, rank, 1, MPI.LONG); // slot `rank` of the next rank's window
                win.fence(0);
                int prev = (rank + size - 1) % size;
                assertThat(mem.getAtIndex(ValueLayout.JAVA_LONG, prev)).isEqualTo(100 + prev);
                mem.setAtIndex(ValueLayout.JAVA_LONG, 63, 7_000 + rank);
                win.fence(0);
                LongBuffer in = MPI.newLongBuffer(1);
                win.get(in, 1, MPI.LONG, next, 63, 1, MPI.LONG);
                win.fence(0);
                assertThat(in.get(0)).isEqualTo(7_000 + next);
                win.free();
            }
            Win empty = new Win(MemorySegment.NULL, 1, MPI.INFO_NULL, w);
            assertThat(((Number) empty.getAttr(MPI.WIN_SIZE)).longValue()).isZero();
            empty.free();
            w.barrier(); // nobody touches this rank's memory once the arena closes
        }
    }

    @MpiTest(ranks = {2}, modes = Mode.PROCESSES, timeoutSeconds = 120)
    void processes() throws MPIException {
        putAndGet();
    }

    /** MPI-IO takes segments as it takes any buffer: a native one written, a heap one read back. */
    @MpiTest(ranks = {1}, modes = Mode.THREADS, timeoutSeconds = 60)
    void fileIo() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("jmpi-segment-io");
        String name = dir.resolve("f").toString();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment out = arena.allocate(8L * 1000, 8);
            for (int i = 0; i < 1000; i++) {
                out.setAtIndex(ValueLayout.JAVA_LONG, i, 31L * i);
            }
            mpi.File f = new mpi.File(MPI.COMM_WORLD, name, MPI.MODE_CREATE | MPI.MODE_RDWR);
            f.writeAt(0, out, 1000, MPI.LONG);
            MemorySegment in = MemorySegment.ofArray(new long[1000]);
            assertThat(f.readAt(0, in, 1000, MPI.LONG).getCount(MPI.LONG)).isEqualTo(1000);
            f.close();
            assertThat(in.mismatch(out)).isEqualTo(-1);
        } finally {
            java.nio.file.Files.deleteIfExists(java.nio.file.Path.of(name));
            java.nio.file.Files.deleteIfExists(dir);
        }
    }

    @MpiTest(ranks = {1}, modes = Mode.THREADS, timeoutSeconds = 60)
    void errors() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        assertThatThrownBy(() -> new Win((MemorySegment) null, 1, MPI.INFO_NULL, w))
                .isInstanceOfSatisfying(MPIException.class, e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_BUFFER));
        MemorySegment ro = MemorySegment.ofArray(new byte[8]).asReadOnly();
        assertThatThrownBy(() -> new Win(ro, 1, new Info(), w))
                .isInstanceOfSatisfying(MPIException.class, e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_BUFFER));
        assertThatThrownBy(() -> new Win(MemorySegment.ofArray(new byte[8]), 0, MPI.INFO_NULL, w))
                .isInstanceOfSatisfying(MPIException.class, e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_DISP));
    }
}
