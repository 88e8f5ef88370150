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
 * {@code long} count of bytes (above 2^31 - 1 elements), its status's counts, the same bytes back by a synchronous send
 * and in a sendRecv, through a file (written at an explicit offset, read back by the other rank), and an in-place
 * all-reduce of the same 2.25 GiB, which goes in pieces; the pieces' seams and the ends are checked. Two ranks in
 * threads mode (2.25 GiB of native memory each in one JVM) and as processes; memory segments of a shared arena, freed
 * before the test ends. Beside it, every other point-to-point and file call's {@code _c} form with small counts.
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

    /** Rank 0's pattern: each mark a value of its own, 0x11 elsewhere (sampled). */
    private static void checkMarks(MemorySegment buf) {
        for (int i = 0; i < MARKS.length; i++) {
            assertThat(buf.get(ValueLayout.JAVA_BYTE, MARKS[i])).as("byte %d", MARKS[i]).isEqualTo((byte) (0x20 + i));
        }
        for (long at = 4099; at < BYTES; at += 1L << 24) {
            if (java.util.Arrays.binarySearch(MARKS, at) < 0) {
                assertThat(buf.get(ValueLayout.JAVA_BYTE, at)).as("byte %d", at).isEqualTo((byte) 0x11);
            }
        }
    }

    /**
     * The other point-to-point {@code _c} calls with small {@code long} counts, around a ring of any size: sendRecv,
     * the synchronous, ready and buffered sends, blocking and not, the receives of matched probes, with their
     * statuses and a negative count's error.
     */
    @MpiTest(ranks = {1, 2, 3})
    void everySendModeAndSendRecvTakeALongCount() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        int[] mine = {rank, rank * 10, rank * 100};
        int[] got = new int[3];
        Status st = w.sendRecv(mine, 3L, MPI.INT, right, 1, got, 3L, MPI.INT, left, 1);
        assertThat(st.getCountLong(MPI.INT)).isEqualTo(3);
        assertThat(st.getSource()).isEqualTo(left);
        assertThat(got).containsExactly(left, left * 10, left * 100);
        assertThat(w.sendRecv(mine, 3L, MPI.INT, MPI.PROC_NULL, 2, got, 3L, MPI.INT, MPI.PROC_NULL, 2)
                .getSource()).isEqualTo(MPI.PROC_NULL);

        byte[] space = new byte[4 * (MPI.BSEND_OVERHEAD + 12)];
        MPI.attachBuffer(space);
        for (int mode = 0; mode < 6; mode++) {
            int[] in = new int[3];
            mine[0] = rank + 1000 * mode;
            mpi.Request r = w.iRecv(in, 3L, MPI.INT, left, 3 + mode);
            w.barrier(); // every receive posted: a ready send may go
            switch (mode) {
                case 0 -> w.sSend(mine, 3L, MPI.INT, right, 3);
                case 1 -> w.rSend(mine, 3L, MPI.INT, right, 4);
                case 2 -> w.bSend(mine, 3L, MPI.INT, right, 5);
                case 3 -> w.isSend(mine, 3L, MPI.INT, right, 6).waitFor();
                case 4 -> w.irSend(mine, 3L, MPI.INT, right, 7).waitFor();
                default -> w.ibSend(mine, 3L, MPI.INT, right, 8).waitFor();
            }
            Status rs = r.waitStatus();
            assertThat(rs.getCountLong(MPI.INT)).as("mode %d", mode).isEqualTo(3);
            assertThat(in).as("mode %d", mode).containsExactly(left + 1000 * mode, left * 10, left * 100);
        }
        MPI.detachBuffer();

        // matched probes: mRecv and imRecv with long counts
        for (int blocking = 0; blocking < 2; blocking++) {
            mpi.Request s = w.iSend(mine, 3L, MPI.INT, right, 20 + blocking);
            mpi.Message m = new mpi.Message();
            m.mProbe(left, 20 + blocking, w);
            int[] in = new int[3];
            Status ms = blocking == 1 ? m.mRecv(in, 3L, MPI.INT) : m.imRecv(in, 3L, MPI.INT).waitStatus();
            s.waitFor();
            assertThat(ms.getCountLong(MPI.INT)).isEqualTo(3);
            assertThat(in[1]).isEqualTo(left * 10);
            assertThat(m.isNull()).isTrue();
        }

        w.setErrhandler(MPI.ERRORS_RETURN);
        assertThatThrownBy(() -> w.sSend(mine, -1L, MPI.INT, right, 9)).isInstanceOfSatisfying(MPIException.class,
                e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_COUNT));
        assertThatThrownBy(() -> w.sendRecv(mine, 3L, MPI.INT, right, 9, got, -3L, MPI.INT, left, 9))
                .isInstanceOfSatisfying(MPIException.class,
                        e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_COUNT));
        w.setErrhandler(MPI.ERRORS_ARE_FATAL);
    }

    /**
     * The file calls' {@code _c} forms with small {@code long} counts on 1-3 ranks: explicit offsets, the individual,
     * shared and ordered pointers, independent and collective, blocking and not; each rank's 3 ints land where the
     * int forms put them (the non-blocking ones with an {@code int[]}, which their int forms do not take).
     */
    @MpiTest(ranks = {1, 2, 3})
    void fileCallsTakeALongCount() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        java.nio.file.Path dir = org.jmpi.tests.SharedDirs.create(w, "jmpi-large-count");
        mpi.File f = new mpi.File(w, dir.resolve("small").toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        long block = 12L * size; // one round of every rank's 3 ints
        int[] back = new int[3];
        for (int kind = 0; kind < 11; kind++) {
            int[] mine = {kind, rank, 100 * kind + rank};
            long at = kind * block + 12L * rank;
            f.seek(at, MPI.SEEK_SET); // the individual pointer (kinds 2, 3, 8 and 9)
            f.seekShared(kind * block, MPI.SEEK_SET); // the shared one (collective; kinds 4, 5 and 10)
            Status ws = switch (kind) {
                case 0 -> f.writeAt(at, mine, 3L, MPI.INT);
                case 1 -> f.writeAtAll(at, mine, 3L, MPI.INT);
                case 2 -> f.write(mine, 3L, MPI.INT);
                case 3 -> f.writeAll(mine, 3L, MPI.INT);
                case 4 -> f.writeOrdered(mine, 3L, MPI.INT);
                case 5 -> inRankOrder(w, () -> f.writeShared(mine, 3L, MPI.INT));
                case 6 -> f.iWriteAt(at, mine, 3L, MPI.INT).waitStatus();
                case 7 -> f.iWriteAtAll(at, mine, 3L, MPI.INT).waitStatus();
                case 8 -> f.iWrite(mine, 3L, MPI.INT).waitStatus();
                case 9 -> f.iWriteAll(mine, 3L, MPI.INT).waitStatus();
                default -> inRankOrder(w, () -> f.iWriteShared(mine, 3L, MPI.INT).waitStatus());
            };
            assertThat(ws.getCountLong(MPI.INT)).as("write %d", kind).isEqualTo(3);
            f.sync();
            w.barrier();
            f.sync();
            f.seek(at, MPI.SEEK_SET);
            f.seekShared(kind * block, MPI.SEEK_SET);
            java.util.Arrays.fill(back, -1);
            Status rs = switch (kind) {
                case 0 -> f.readAt(at, back, 3L, MPI.INT);
                case 1 -> f.readAtAll(at, back, 3L, MPI.INT);
                case 2 -> f.read(back, 3L, MPI.INT);
                case 3 -> f.readAll(back, 3L, MPI.INT);
                case 4 -> f.readOrdered(back, 3L, MPI.INT);
                case 5 -> inRankOrder(w, () -> f.readShared(back, 3L, MPI.INT));
                case 6 -> f.iReadAt(at, back, 3L, MPI.INT).waitStatus();
                case 7 -> f.iReadAtAll(at, back, 3L, MPI.INT).waitStatus();
                case 8 -> f.iRead(back, 3L, MPI.INT).waitStatus();
                case 9 -> f.iReadAll(back, 3L, MPI.INT).waitStatus();
                default -> inRankOrder(w, () -> f.iReadShared(back, 3L, MPI.INT).waitStatus());
            };
            assertThat(rs.getCountLong(MPI.INT)).as("read %d", kind).isEqualTo(3);
            assertThat(back).as("read %d", kind).containsExactly(mine);
        }
        f.close();
        org.jmpi.tests.SharedDirs.remove(w, dir);
    }

    /** An access through the shared pointer, one rank after another in rank order: its status. */
    private static Status inRankOrder(Intracomm w, Access access) throws MPIException {
        Status s = null;
        for (int r = 0; r < w.getSize(); r++) {
            if (r == w.getRank()) {
                s = access.run();
            }
            w.barrier();
        }
        return s;
    }

    private interface Access {
        Status run() throws MPIException;
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
                checkMarks(buf);
            }
            // the same 2.25 GiB back by a synchronous send, and once more in a sendRecv whose other way is 8 bytes
            int[] eight = {rank + 40, rank + 50};
            int[] got = new int[2];
            if (rank == 1) {
                w.sSend(buf, BYTES, MPI.BYTE, 0, 8);
                Status st = w.sendRecv(buf, BYTES, MPI.BYTE, 0, 9, got, 2L, MPI.INT, 0, 10);
                assertThat(st.getCountLong(MPI.INT)).isEqualTo(2);
                assertThat(got).containsExactly(40, 50);
            } else {
                buf.fill((byte) 0);
                w.recv(buf, BYTES, MPI.BYTE, 1, 8);
                checkMarks(buf);
                buf.fill((byte) 0);
                Status st = w.sendRecv(eight, 2L, MPI.INT, 1, 10, buf, BYTES, MPI.BYTE, 1, 9);
                assertThat(st.getCountLong(MPI.BYTE)).isEqualTo(BYTES);
                checkMarks(buf);
            }
            // MPI-IO: rank 0 writes the 2.25 GiB at an offset, rank 1 reads them back
            java.nio.file.Path dir = org.jmpi.tests.SharedDirs.create(w, "jmpi-large-count");
            mpi.File f = new mpi.File(w, dir.resolve("big").toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
            if (rank == 0) {
                assertThat(f.writeAt(4096L, buf, BYTES, MPI.BYTE).getCountLong(MPI.BYTE)).isEqualTo(BYTES);
            }
            f.sync();
            w.barrier();
            f.sync();
            if (rank == 1) {
                buf.fill((byte) 0);
                assertThat(f.readAt(4096L, buf, BYTES, MPI.BYTE).getCountLong(MPI.BYTE)).isEqualTo(BYTES);
                checkMarks(buf);
            }
            f.close();
            org.jmpi.tests.SharedDirs.remove(w, dir);
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
