package org.jmpi.tests.pt2pt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * MPI 4.0's large counts (the {@code _c} calls) on memory segments: a send and receive of 2.25 GiB with a
 * {@code long} count of bytes (above 2^31 - 1 elements), its status's counts, and an in-place all-reduce of the same
 * 2.25 GiB, which goes in pieces; the pieces' seams and the ends are checked. Two ranks in threads mode (2.25 GiB of
 * native memory each in one JVM) and as processes; memory segments of a shared arena, freed before the test ends.
 */
class LargeCountTest {
    /** Above 2^31 - 1, and nine of the large-count calls' pieces of 256 MiB ({@code LargeCounts.PIECE_BYTES}). */
    static final long BYTES = (2L << 30) + (1L << 28);
    /** Where markers go: both ends, and both sides of every seam between pieces of 256 MiB. */
    static final long[] MARKS = marks();

    private static long[] marks() {
        long piece = 1L << 28;
        long[] m = new long[2 + 2 * (int) (BYTES / piece)];
        int k = 0;
        m[k++] = 0;
        m[k++] = BYTES - 1;
        for (long seam = piece; seam < BYTES; seam += piece) {
            m[k++] = seam - 1;
            m[k++] = seam;
        }
        long[] sorted = java.util.Arrays.copyOf(m, k);
        java.util.Arrays.sort(sorted);
        return sorted;
    }

    @MpiTest(ranks = 2, modes = Mode.THREADS, timeoutSeconds = 300)
    void threads() throws MPIException {
        aboveTwoGiB();
    }

    @MpiTest(ranks = 2, modes = Mode.PROCESSES, timeoutSeconds = 300)
    void processes() throws MPIException {
        aboveTwoGiB();
    }

    static void aboveTwoGiB() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment buf = arena.allocate(BYTES, 4096);
            // point to point: rank 0's bytes, each mark a value of its own, reach rank 1 whole
            if (rank == 0) {
                buf.fill((byte) 0x11);
                for (int i = 0; i < MARKS.length; i++) {
                    buf.set(ValueLayout.JAVA_BYTE, MARKS[i], (byte) (0x20 + i));
                }
                w.send(buf, BYTES, MPI.BYTE, 1, 7);
            } else {
                buf.fill((byte) 0);
                Status st = w.recv(buf, BYTES, MPI.BYTE, 0, 7);
                assertThat(st.getCountLong(MPI.BYTE)).isEqualTo(BYTES);
                assertThat(st.getCount(MPI.BYTE)).as("an int count cannot say 2.25 GiB").isEqualTo(MPI.UNDEFINED);
                assertThat(st.getCountLong(MPI.INT)).isEqualTo(BYTES / 4);
                for (int i = 0; i < MARKS.length; i++) {
                    assertThat(buf.get(ValueLayout.JAVA_BYTE, MARKS[i])).as("byte %d", MARKS[i])
                            .isEqualTo((byte) (0x20 + i));
                }
                for (long at = 4099; at < BYTES; at += 1L << 24) {
                    if (java.util.Arrays.binarySearch(MARKS, at) < 0) {
                        assertThat(buf.get(ValueLayout.JAVA_BYTE, at)).as("byte %d", at).isEqualTo((byte) 0x11);
                    }
                }
            }
            // all-reduce in place: every byte the OR of both ranks' bits; the marks carry one more bit from rank 0
            buf.fill((byte) (1 << rank));
            if (rank == 0) {
                for (long m : MARKS) {
                    buf.set(ValueLayout.JAVA_BYTE, m, (byte) 0x41);
                }
            }
            w.allReduce(buf, BYTES, MPI.BYTE, MPI.BOR);
            for (long m : MARKS) {
                assertThat(buf.get(ValueLayout.JAVA_BYTE, m)).as("byte %d", m).isEqualTo((byte) 0x43);
            }
            for (long at = 12289; at < BYTES; at += 1L << 24) {
                assertThat(buf.get(ValueLayout.JAVA_BYTE, at)).as("byte %d", at).isEqualTo((byte) 3);
            }
            // a long count larger than the segment: the usual error class, raised by the piece that runs short
            w.setErrhandler(MPI.ERRORS_RETURN);
            MemorySegment small = arena.allocate(1 << 20);
            assertThatThrownBy(() -> w.allReduce(small, BYTES, MPI.BYTE, MPI.BOR))
                    .isInstanceOfSatisfying(MPIException.class,
                            e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_BUFFER));
            w.setErrhandler(MPI.ERRORS_ARE_FATAL);
            w.barrier(); // every peer done with this rank's memory before the arena closes
        }
    }
}
