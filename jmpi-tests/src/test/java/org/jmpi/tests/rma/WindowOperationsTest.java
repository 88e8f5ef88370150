package org.jmpi.tests.rma;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import mpi.Datatype;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Win;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;
import org.jmpi.rma.Windows;

/**
 * Every one-sided operation under every synchronisation mode, on every window flavour, at 1, 2, 3, 4 and 8 ranks, in
 * threads mode and between processes over shared memory and over TCP: put, get, accumulate with every predefined
 * operation, getAccumulate, fetchAndOp, compareAndSwap and the request forms, with contiguous and derived datatypes
 * on both sides.
 */
class WindowOperationsTest {
    static final String TCP = "-Djmpi.transport=tcp";

    /** Ring: each rank puts its rank into slot {rank} of its right neighbour and gets slot of its left one. */
    static void fenceRing(Win win, IntBuffer mem, int n) throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int right = (rank + 1) % size;
        win.fence(0);
        IntBuffer out = MPI.newIntBuffer(n);
        for (int i = 0; i < n; i++) {
            out.put(i, rank * 1000 + i);
        }
        win.put(out, n, MPI.INT, right, 0, n, MPI.INT);
        win.fence(0);
        int left = (rank + size - 1) % size;
        for (int i = 0; i < n; i++) {
            assertThat(mem.get(i)).as("slot %d", i).isEqualTo(left * 1000 + i);
        }
        IntBuffer back = MPI.newIntBuffer(n);
        win.get(back, n, MPI.INT, right, 0, n, MPI.INT);
        win.fence(MPI.MODE_NOSUCCEED);
        for (int i = 0; i < n; i++) {
            assertThat(back.get(i)).isEqualTo(rank * 1000 + i);
        }
    }

    @MpiTest(ranks = {1, 2, 3, 4, 5}, timeoutSeconds = 120)
    void fencePutGetOverACreatedWindow() throws MPIException {
        for (int n : new int[] {1, 100, 5000, 300_000}) {
            IntBuffer mem = MPI.newIntBuffer(n);
            Win win = new Win(mem, n, 1, new Info(), MPI.COMM_WORLD);
            fenceRing(win, mem, n);
            win.free();
        }
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, jvmArgs = TCP, timeoutSeconds = 120)
    void fencePutGetOverTcp() throws MPIException {
        fencePutGetOverACreatedWindow();
    }

    @MpiTest(ranks = {1, 2, 3, 4})
    void heapBuffersWork() throws MPIException {
        int n = 64;
        IntBuffer mem = IntBuffer.allocate(n);
        Win win = new Win(mem, n, 1, new Info(), MPI.COMM_WORLD);
        fenceRing(win, mem, n);
        win.free();
    }

    @MpiTest(ranks = {1, 2, 3, 4})
    void allocatedWindowsPrivateAndShared() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int n = 32;
        IntBuffer base = MPI.newIntBuffer(n);
        Win priv = new Win(n, 1, new Info(), MPI.COMM_WORLD, base, Win.FLAVOR_PRIVATE);
        assertThat(Windows.flavor(priv)).isEqualTo(Windows.FLAVOR_ALLOCATE);
        assertThat(Windows.model(priv)).isEqualTo(Windows.MODEL_UNIFIED);
        fenceRing(priv, base, n);
        priv.free();

        Win shared = new Win(n * 4, 4, new Info(), MPI.COMM_WORLD, null, Win.FLAVOR_SHARED);
        assertThat(Windows.flavor(shared)).isEqualTo(Windows.FLAVOR_SHARED);
        IntBuffer mine = Windows.sharedQuery(shared, rank).asIntBuffer();
        shared.fence(0);
        for (int i = 0; i < n; i++) {
            mine.put(i, rank * 100 + i); // plain stores into this rank's part
        }
        shared.fence(0);
        for (int r = 0; r < size; r++) {
            IntBuffer theirs = Windows.sharedQuery(shared, r).asIntBuffer();
            for (int i = 0; i < n; i++) {
                assertThat(theirs.get(i)).as("rank %d slot %d", r, i).isEqualTo(r * 100 + i);
            }
        }
        shared.fence(0); // everyone has read before the puts of the next epoch land
        // and one-sided operations reach the same memory
        IntBuffer one = MPI.newIntBuffer(1);
        one.put(0, -rank);
        shared.put(one, 1, MPI.INT, (rank + 1) % size, 0, 1, MPI.INT);
        shared.fence(0);
        assertThat(mine.get(0)).isEqualTo(-((rank + size - 1) % size));
        shared.free();
    }

    @MpiTest(ranks = {1, 2, 3, 4, 5}, timeoutSeconds = 120)
    void everyPredefinedAccumulateOperation() throws MPIException {
        accumulateAll(false);
        accumulateAll(true);
    }

    @MpiTest(ranks = {3}, modes = Mode.PROCESSES, jvmArgs = TCP, timeoutSeconds = 120)
    void everyPredefinedAccumulateOperationOverTcp() throws MPIException {
        accumulateAll(false);
    }

    /** {@code allocated}: a window the library allocates (shared memory on one host: the origin-side route). */
    private static void accumulateAll(boolean allocated) throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Win win;
        LongBuffer mem;
        if (allocated) {
            win = new Win(64, 8, new Info(), MPI.COMM_WORLD, null, Win.FLAVOR_PRIVATE);
            mem = ((ByteBuffer) win.getAttr(MPI.WIN_BASE)).asLongBuffer();
        } else {
            mem = MPI.newLongBuffer(8);
            win = new Win(mem, 8, 1, new Info(), MPI.COMM_WORLD);
        }
        mpi.Op[] ops = {MPI.SUM, MPI.PROD, MPI.MAX, MPI.MIN, MPI.BAND, MPI.BOR, MPI.BXOR, MPI.LAND, MPI.LOR,
            MPI.LXOR};
        for (int k = 0; k < ops.length; k++) {
            for (int i = 0; i < 8; i++) {
                mem.put(i, 3);
            }
            win.fence(0);
            LongBuffer v = MPI.newLongBuffer(8);
            for (int i = 0; i < 8; i++) {
                v.put(i, rank + i + 1);
            }
            for (int t = 0; t < size; t++) {
                win.accumulate(v, 8, MPI.LONG, t, 0, 8, MPI.LONG, ops[k]);
            }
            win.fence(0);
            for (int i = 0; i < 8; i++) {
                long expect = 3;
                for (int r = 0; r < size; r++) {
                    long x = r + i + 1;
                    expect = switch (k) {
                        case 0 -> expect + x;
                        case 1 -> expect * x;
                        case 2 -> Math.max(expect, x);
                        case 3 -> Math.min(expect, x);
                        case 4 -> expect & x;
                        case 5 -> expect | x;
                        case 6 -> expect ^ x;
                        case 7 -> (expect != 0 && x != 0) ? 1 : 0;
                        case 8 -> (expect != 0 || x != 0) ? 1 : 0;
                        default -> ((expect != 0) ^ (x != 0)) ? 1 : 0;
                    };
                }
                assertThat(mem.get(i)).as("%s slot %d", ops[k], i).isEqualTo(expect);
            }
        }
        // REPLACE: the last writer wins, whole elements; NO_OP in getAccumulate reads
        win.fence(0);
        LongBuffer mine = MPI.newLongBuffer(8);
        for (int i = 0; i < 8; i++) {
            mine.put(i, 1000L * rank + i);
        }
        win.accumulate(mine, 8, MPI.LONG, 0, 0, 8, MPI.LONG, MPI.REPLACE);
        win.fence(0);
        LongBuffer seen = MPI.newLongBuffer(8);
        win.getAccumulate(null, 0, MPI.LONG, seen, 8, MPI.LONG, 0, 0, 8, MPI.LONG, MPI.NO_OP);
        win.fence(MPI.MODE_NOSUCCEED);
        // MPI promises atomicity per basic element, not per operation: on the origin-side route (CPU atomics, one per
        // element) two origins' REPLACEs may interleave, so each element is some rank's whole value, not necessarily
        // the same rank's everywhere
        for (int i = 0; i < 8; i++) {
            long writer = seen.get(i) / 1000;
            assertThat(writer).as("writer of element %d", i).isBetween(0L, size - 1L);
            assertThat(seen.get(i)).isEqualTo(1000L * writer + i);
        }
        win.free();
    }

    /**
     * Between processes of one host, contiguous puts and gets on a create-flavour window over native memory go by
     * single copy, with no message to the target, from a direct buffer and from a heap buffer (through a scratch)
     * alike, and land where they should. The kernel calls are linked in the background on first use, so the epochs
     * repeat (a bounded number of times, every rank deciding together) until this rank has done one by single copy.
     */
    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, timeoutSeconds = 120)
    void createFlavourPutsAndGetsGoBySingleCopy() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        IntBuffer mem = MPI.newIntBuffer(2 * size);
        Win win = new Win(mem, 2 * size, 1, new Info(), MPI.COMM_WORLD); // sizes and units in ints
        win.fence(0);
        boolean allDirect = false;
        for (int round = 0; round < 1000 && !allDirect; round++) {
            IntBuffer fromArray = IntBuffer.wrap(new int[] {100 * round + rank}); // a heap buffer
            IntBuffer fromDirect = MPI.newIntBuffer(1).put(0, 100 * round + 50 + rank);
            win.put(fromArray, 1, MPI.INT, right, rank, 1, MPI.INT);
            win.put(fromDirect, 1, MPI.INT, right, size + rank, 1, MPI.INT);
            win.fence(0);
            assertThat(mem.get(left)).isEqualTo(100 * round + left);
            assertThat(mem.get(size + left)).isEqualTo(100 * round + 50 + left);
            IntBuffer back = IntBuffer.wrap(new int[1]);
            IntBuffer backDirect = MPI.newIntBuffer(1);
            win.get(back, 1, MPI.INT, right, rank, 1, MPI.INT);
            win.get(backDirect, 1, MPI.INT, right, size + rank, 1, MPI.INT);
            win.fence(0);
            assertThat(back.get(0)).isEqualTo(100 * round + rank);
            assertThat(backDirect.get(0)).isEqualTo(100 * round + 50 + rank);
            int[] mine = {org.jmpi.rma.Windows.singleCopyOperations(win) > 0 ? 1 : 0};
            int[] all = new int[1];
            MPI.COMM_WORLD.allReduce(mine, all, 1, MPI.INT, MPI.MIN);
            allDirect = all[0] == 1;
        }
        win.fence(MPI.MODE_NOSUCCEED);
        assertThat(allDirect).as("every rank did operations by single copy").isTrue();
        win.free();
    }

    @MpiTest(ranks = {1, 2, 3, 4, 5}, timeoutSeconds = 120)
    void derivedDatatypesOnBothSides() throws MPIException {
        derived();
    }

    @MpiTest(ranks = {2}, modes = Mode.PROCESSES, jvmArgs = TCP)
    void derivedDatatypesOverTcp() throws MPIException {
        derived();
    }

    private static void derived() throws MPIException {
        derived(false);
        derived(true);
    }

    private static void derived(boolean allocated) throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int rows = 40;
        int cols = 30;
        Win win;
        DoubleBuffer matrix;
        if (allocated) {
            win = new Win(rows * cols * 8, 8, new Info(), MPI.COMM_WORLD, null, Win.FLAVOR_PRIVATE);
            matrix = ((ByteBuffer) win.getAttr(MPI.WIN_BASE)).asDoubleBuffer();
        } else {
            matrix = MPI.newDoubleBuffer(rows * cols);
            win = new Win(matrix, rows * cols, 1, new Info(), MPI.COMM_WORLD);
        }
        Datatype column = Datatype.createVector(rows, 1, cols, MPI.DOUBLE);
        column.commit();
        int right = (rank + 1) % size;
        // origin contiguous -> target column 'rank'; then accumulate a column from a column
        DoubleBuffer col = MPI.newDoubleBuffer(rows);
        for (int i = 0; i < rows; i++) {
            col.put(i, rank + i / 100.0);
        }
        win.fence(0);
        win.put(col, rows, MPI.DOUBLE, right, rank, 1, column);
        win.fence(0);
        int left = (rank + size - 1) % size;
        for (int i = 0; i < rows; i++) {
            assertThat(matrix.get(i * cols + left)).isEqualTo(left + i / 100.0);
        }
        DoubleBuffer src = MPI.newDoubleBuffer(rows * cols);
        for (int i = 0; i < rows * cols; i++) {
            src.put(i, 1.0);
        }
        win.accumulate(src, 1, column, right, cols - 1, 1, column, MPI.SUM);
        win.fence(0);
        for (int i = 0; i < rows; i++) {
            assertThat(matrix.get(i * cols + cols - 1)).isEqualTo(1.0);
        }
        // get a column into a contiguous buffer, and a strided one into a column
        DoubleBuffer got = MPI.newDoubleBuffer(rows);
        win.get(got, rows, MPI.DOUBLE, right, rank, 1, column);
        win.fence(0);
        for (int i = 0; i < rows; i++) {
            assertThat(got.get(i)).isEqualTo(rank + i / 100.0);
        }
        win.fence(MPI.MODE_NOSUCCEED);
        column.free();
        win.free();
    }

    @MpiTest(ranks = {1, 2, 3, 4, 5}, timeoutSeconds = 120)
    void requestFormsAndFetchOperations() throws MPIException {
        requestsAndFetch(false);
        requestsAndFetch(true);
    }

    @MpiTest(ranks = {3}, modes = Mode.PROCESSES, jvmArgs = TCP)
    void requestFormsAndFetchOperationsOverTcp() throws MPIException {
        requestsAndFetch(false);
    }

    private static void requestsAndFetch(boolean allocated) throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Win win = allocated ? new Win((4 + size) * 4, 4, new Info(), MPI.COMM_WORLD, null, Win.FLAVOR_PRIVATE)
                : new Win(MPI.newIntBuffer(4 + size), 4 + size, 1, new Info(), MPI.COMM_WORLD);
        win.lockAll(0);
        IntBuffer v = MPI.newIntBuffer(1);
        v.put(0, rank + 1);
        Request put = win.rPut(v, 1, MPI.INT, 0, 4 + rank, 1, MPI.INT);
        put.waitFor();
        IntBuffer one = MPI.newIntBuffer(1);
        one.put(0, 1);
        Request acc = win.rAccumulate(one, 1, MPI.INT, 0, 0, 1, MPI.INT, MPI.SUM);
        acc.waitFor();
        IntBuffer old = MPI.newIntBuffer(1);
        win.fetchAndOp(one, old, MPI.INT, 0, 1, MPI.SUM);
        assertThat(old.get(0)).isBetween(0, size - 1);
        IntBuffer res = MPI.newIntBuffer(1);
        Request ga = win.rGetAccumulate(one, 1, MPI.INT, res, 1, MPI.INT, 0, 2, 1, MPI.INT, MPI.SUM);
        ga.waitFor();
        assertThat(res.get(0)).isBetween(0, size - 1);
        // compareAndSwap: exactly one rank wins the swap from 0 to its rank + 1
        IntBuffer zero = MPI.newIntBuffer(1);
        IntBuffer swapped = MPI.newIntBuffer(1);
        win.compareAndSwap(v, zero, swapped, MPI.INT, 0, 3);
        win.flushAll();
        win.unlockAll();
        MPI.COMM_WORLD.barrier();
        win.lockAll(0);
        IntBuffer all = MPI.newIntBuffer(4 + size);
        Request g = win.rGet(all, 4 + size, MPI.INT, 0, 0, 4 + size, MPI.INT);
        g.waitFor();
        win.unlockAll();
        assertThat(all.get(0)).isEqualTo(size);
        assertThat(all.get(1)).isEqualTo(size);
        assertThat(all.get(2)).isEqualTo(size);
        int winner = all.get(3);
        assertThat(winner).isBetween(1, size);
        if (rank == winner - 1) {
            assertThat(swapped.get(0)).isZero();
        } else {
            assertThat(swapped.get(0)).isEqualTo(winner);
        }
        for (int r = 0; r < size; r++) {
            assertThat(all.get(4 + r)).isEqualTo(r + 1);
        }
        MPI.COMM_WORLD.barrier();
        win.free();
    }

    @MpiTest(ranks = {1, 2, 3, 4, 5}, timeoutSeconds = 120)
    void postStartCompleteWait() throws MPIException {
        pscw();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, jvmArgs = TCP)
    void postStartCompleteWaitOverTcp() throws MPIException {
        pscw();
    }

    private static void pscw() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        IntBuffer mem = MPI.newIntBuffer(size);
        Win win = new Win(mem, size, 1, new Info(), MPI.COMM_WORLD);
        mpi.Group world = MPI.COMM_WORLD.getGroup();
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        mpi.Group targets = world.incl(new int[] {right});
        mpi.Group origins = world.incl(new int[] {left});
        for (int round = 0; round < 3; round++) {
            win.post(origins, 0);
            win.start(targets, 0);
            IntBuffer v = MPI.newIntBuffer(1);
            v.put(0, rank * 10 + round);
            win.put(v, 1, MPI.INT, right, rank, 1, MPI.INT);
            win.complete();
            if (round % 2 == 0) {
                win.waitFor();
            } else {
                while (!win.test()) {
                    Thread.onSpinWait();
                }
            }
            assertThat(mem.get(left)).isEqualTo(left * 10 + round);
        }
        targets.free();
        origins.free();
        win.free();
    }

    @MpiTest(ranks = {1, 2, 3, 4, 5}, timeoutSeconds = 120)
    void exclusiveLocksSerialiseReadModifyWrite() throws MPIException {
        locks();
    }

    @MpiTest(ranks = {3}, modes = Mode.PROCESSES, jvmArgs = TCP)
    void exclusiveLocksOverTcp() throws MPIException {
        locks();
    }

    private static void locks() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        LongBuffer mem = MPI.newLongBuffer(1);
        Win win = new Win(mem, 1, 1, new Info(), MPI.COMM_WORLD);
        MPI.COMM_WORLD.barrier();
        LongBuffer x = MPI.newLongBuffer(1);
        for (int i = 0; i < 20; i++) {
            // get, add one locally, put back: only correct if the lock is exclusive
            win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
            win.get(x, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
            win.flush(0);
            x.put(0, x.get(0) + 1);
            win.put(x, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
            win.unlock(0);
        }
        MPI.COMM_WORLD.barrier();
        win.lock(MPI.LOCK_SHARED, 0, 0);
        win.get(x, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
        win.unlock(0);
        assertThat(x.get(0)).isEqualTo(20L * size);
        win.lock(MPI.LOCK_SHARED, 0, MPI.MODE_NOCHECK);
        win.get(x, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
        win.flushLocal(0);
        win.flushLocalAll();
        win.sync();
        win.unlock(0);
        MPI.COMM_WORLD.barrier();
        win.free();
    }

    @MpiTest(ranks = {1, 2, 3, 4})
    void dynamicWindowsAttachAndDetach() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Win win = new Win(new Info(), MPI.COMM_WORLD);
        IntBuffer region = MPI.newIntBuffer(16);
        win.attach(region, 16);
        int[] address = {(int) Windows.address(win, region)};
        int[] addresses = new int[size];
        MPI.COMM_WORLD.allGather(address, 1, MPI.INT, addresses, 1, MPI.INT);
        int right = (rank + 1) % size;
        win.lockAll(0);
        IntBuffer v = MPI.newIntBuffer(2);
        v.put(0, rank).put(1, rank + 7);
        win.put(v, 2, MPI.INT, right, addresses[right] + 4 * 3, 2, MPI.INT);
        win.flush(right);
        IntBuffer back = MPI.newIntBuffer(2);
        win.get(back, 2, MPI.INT, right, addresses[right] + 12, 2, MPI.INT);
        win.unlockAll();
        assertThat(back.get(0)).isEqualTo(rank);
        assertThat(back.get(1)).isEqualTo(rank + 7);
        MPI.COMM_WORLD.barrier();
        int left = (rank + size - 1) % size;
        assertThat(region.get(3)).isEqualTo(left);
        win.detach(region);
        MPI.COMM_WORLD.barrier();
        win.free();
    }

    @MpiTest(ranks = {1, 2})
    void attributesNamesInfoAndGroup() throws MPIException {
        ByteBuffer mem = MPI.newByteBuffer(24);
        Info info = new Info();
        info.set("no_locks", "true");
        info.set("accumulate_ordering", "none");
        Win win = new Win(mem, 24, 8, info, MPI.COMM_WORLD);
        assertThat(win.getAttr(MPI.WIN_BASE)).isSameAs(mem);
        assertThat(win.getAttr(MPI.WIN_SIZE)).isEqualTo(24);
        assertThat(win.getAttr(MPI.WIN_DISP_UNIT)).isEqualTo(8);
        assertThat(win.getName()).isEmpty();
        win.setName("halo");
        assertThat(win.getName()).isEqualTo("halo");
        assertThat(win.getInfo().get("no_locks")).isEqualTo("true");
        Info more = new Info();
        more.set("same_size", "true");
        win.setInfo(more);
        assertThat(win.getInfo().get("same_size")).isEqualTo("true");
        assertThat(win.getGroup().getSize()).isEqualTo(MPI.COMM_WORLD.getSize());
        assertThat(Windows.hasPassiveProgressThread(win)).isFalse();
        int key = Win.createKeyval();
        win.setAttr(key, "value");
        assertThat(win.getAttr(key)).isEqualTo("value");
        win.deleteAttr(key);
        Win.freeKeyval(key);
        win.setErrhandler(MPI.ERRORS_RETURN);
        assertThat(win.getErrhandler()).isSameAs(MPI.ERRORS_RETURN);
        win.free();
        info.free();
    }
}
