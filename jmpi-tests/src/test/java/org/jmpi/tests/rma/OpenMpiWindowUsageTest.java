package org.jmpi.tests.rma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;
import org.jmpi.rma.Windows;

/**
 * Windows made and used as programs written for Open MPI's Java bindings make and use them: the allocating
 * constructor given any buffer (an empty one too), {@code Win(buffer, size, ...)} with a size larger than the buffer
 * (ranks exposing an empty buffer nobody accesses), {@code WIN_SIZE} and {@code WIN_DISP_UNIT} read as Integer, and
 * {@code lock} refused on a window created with {@code no_locks=true}. Threads, processes over shared memory and
 * over TCP.
 */
class OpenMpiWindowUsageTest {

    private static void expect(int errorClass, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOf(MPIException.class)
                .satisfies(e -> assertThat(((MPIException) e).getErrorClass()).as(e.getMessage())
                        .isEqualTo(errorClass));
    }

    // ------------------------------------------------------------------------- allocate with any base buffer

    @MpiTest(ranks = {1, 2, 3, 4})
    void allocatingConstructorsTakeAnyBaseBuffer() throws MPIException {
        allocateWithAnyBase();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, jvmArgs = WindowOperationsTest.TCP)
    void allocatingConstructorsTakeAnyBaseBufferOverTcp() throws MPIException {
        allocateWithAnyBase();
    }

    private static void allocateWithAnyBase() throws MPIException {
        int n = 16;
        // empty direct and heap buffers, a buffer too small, a read-only one: the window has n ints all the same
        IntBuffer[] bases = {MPI.newIntBuffer(0), IntBuffer.allocate(0), MPI.newIntBuffer(3),
            MPI.newIntBuffer(n).asReadOnlyBuffer()};
        for (IntBuffer base : bases) {
            Win win = new Win(n, 1, new Info(), MPI.COMM_WORLD, base, Win.FLAVOR_PRIVATE);
            assertThat(win.getAttr(MPI.WIN_SIZE)).isEqualTo(4 * n);
            assertThat(win.getAttr(MPI.WIN_DISP_UNIT)).isEqualTo(4);
            ByteBuffer memory = (ByteBuffer) win.getAttr(MPI.WIN_BASE);
            assertThat(memory.capacity()).isEqualTo(4 * n);
            ringOverEveryInt(win, memory.asIntBuffer(), n);
            win.free();
        }
        Win shared = new Win(n, 1, new Info(), MPI.COMM_WORLD, MPI.newIntBuffer(0), Win.FLAVOR_SHARED);
        assertThat(shared.getAttr(MPI.WIN_SIZE)).isEqualTo(4 * n);
        assertThat(Windows.sharedQuery(shared, MPI.COMM_WORLD.getRank()).capacity()).isEqualTo(4 * n);
        ringOverEveryInt(shared, Windows.sharedQuery(shared, MPI.COMM_WORLD.getRank()).asIntBuffer(), n);
        shared.free();
    }

    /** Each rank puts into all {@code n} ints of its right neighbour, reads them back, and finds its left one's. */
    private static void ringOverEveryInt(Win win, IntBuffer mine, int n) throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        IntBuffer out = MPI.newIntBuffer(n);
        for (int i = 0; i < n; i++) {
            out.put(i, rank * 1000 + i);
        }
        win.fence(0);
        win.put(out, n, MPI.INT, right, 0, n, MPI.INT);
        win.fence(0);
        IntBuffer back = MPI.newIntBuffer(n);
        win.get(back, n, MPI.INT, right, 0, n, MPI.INT);
        win.fence(0);
        win.setErrhandler(MPI.ERRORS_RETURN);
        expect(Windows.ERR_RMA_RANGE, () -> win.put(out, 1, MPI.INT, right, n, 1, MPI.INT));
        win.fence(MPI.MODE_NOSUCCEED);
        for (int i = 0; i < n; i++) {
            assertThat(back.get(i)).as("int %d read back", i).isEqualTo(rank * 1000 + i);
            assertThat(mine.get(i)).as("int %d of this rank's window", i).isEqualTo(left * 1000 + i);
        }
    }

    // ---------------------------------------------------------------- create with a size past the buffer

    @MpiTest(ranks = {1, 2, 3, 4, 5}, timeoutSeconds = 120)
    void createAcceptsASizeLargerThanTheBuffer() throws MPIException {
        oversizedWindows();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, jvmArgs = WindowOperationsTest.TCP, timeoutSeconds = 120)
    void createAcceptsASizeLargerThanTheBufferOverTcp() throws MPIException {
        oversizedWindows();
    }

    private static final int SENTINEL = 0x5a5a5a5a;

    /**
     * Rank 0 exposes a buffer of {@code n} ints; the others declare {@code n} ints too but expose an empty buffer
     * (the Open MPI idiom), then, in a second window, 2 ints of a direct buffer and 2 of a heap array, each followed by
     * memory that is not the window's. Accesses within the buffers work; any that reaches past them fails at the
     * origin with ERR_RMA_RANGE and leaves the memory after the buffers as it was.
     */
    private static void oversizedWindows() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int n = 8;
        IntBuffer rootMemory = MPI.newIntBuffer(rank == 0 ? n : 0);
        Win win = new Win(rootMemory, n, 1, new Info(), MPI.COMM_WORLD);
        win.setErrhandler(MPI.ERRORS_RETURN);
        assertThat(win.getAttr(MPI.WIN_SIZE)).isEqualTo(4 * n);
        assertThat(win.getAttr(MPI.WIN_DISP_UNIT)).isEqualTo(4);
        assertThat(win.getAttr(MPI.WIN_BASE)).isSameAs(rootMemory);
        IntBuffer v = MPI.newIntBuffer(n);
        v.put(0, rank + 1);
        win.fence(0);
        win.put(v, 1, MPI.INT, 0, rank, 1, MPI.INT);
        win.accumulate(v, 1, MPI.INT, 0, n - 1, 1, MPI.INT, MPI.SUM);
        if (size > 1) {
            int other = 1; // a rank with an empty buffer
            expect(Windows.ERR_RMA_RANGE, () -> win.put(v, 1, MPI.INT, other, 0, 1, MPI.INT));
            expect(Windows.ERR_RMA_RANGE, () -> win.get(v, 1, MPI.INT, other, 0, 1, MPI.INT));
            expect(Windows.ERR_RMA_RANGE, () -> win.accumulate(v, 1, MPI.INT, other, 0, 1, MPI.INT, MPI.SUM));
        }
        win.fence(MPI.MODE_NOSUCCEED);
        if (rank == 0) {
            for (int r = 0; r < size; r++) { // size < n - 1
                assertThat(rootMemory.get(r)).as("slot %d", r).isEqualTo(r + 1);
            }
            assertThat(rootMemory.get(n - 1)).isEqualTo(size * (size + 1) / 2);
        }
        win.free();

        // 2 ints exposed of a direct buffer of 4 and of a heap array of 4, n declared
        ByteBuffer directAll = MPI.newByteBuffer(16);
        int[] heapAll = new int[4];
        for (int i = 0; i < 4; i++) {
            directAll.putInt(4 * i, SENTINEL);
            heapAll[i] = SENTINEL;
        }
        IntBuffer direct = directAll.slice(0, 8).order(ByteOrder.nativeOrder()).asIntBuffer();
        IntBuffer heap = IntBuffer.wrap(heapAll, 0, 2).slice();
        int right = (rank + 1) % size;
        for (IntBuffer exposed : new IntBuffer[] {direct, heap}) {
            Win w = new Win(exposed, n, 1, new Info(), MPI.COMM_WORLD);
            w.setErrhandler(MPI.ERRORS_RETURN);
            assertThat(w.getAttr(MPI.WIN_SIZE)).isEqualTo(4 * n);
            IntBuffer big = MPI.newIntBuffer(n);
            for (int i = 0; i < n; i++) {
                big.put(i, -1 - i);
            }
            w.fence(0);
            w.put(big, 2, MPI.INT, right, 0, 2, MPI.INT); // the 2 ints the buffer has
            expect(Windows.ERR_RMA_RANGE, () -> w.put(big, 1, MPI.INT, right, 2, 1, MPI.INT));
            expect(Windows.ERR_RMA_RANGE, () -> w.put(big, 3, MPI.INT, right, 0, 3, MPI.INT));
            expect(Windows.ERR_RMA_RANGE, () -> w.put(big, n, MPI.INT, right, 0, n, MPI.INT));
            expect(Windows.ERR_RMA_RANGE, () -> w.get(big, 2, MPI.INT, right, 1, 2, MPI.INT));
            expect(Windows.ERR_RMA_RANGE, () -> w.accumulate(big, 1, MPI.INT, right, 3, 1, MPI.INT, MPI.SUM));
            w.fence(MPI.MODE_NOSUCCEED);
            w.lock(MPI.LOCK_EXCLUSIVE, right, 0);
            expect(Windows.ERR_RMA_RANGE, () -> w.put(big, 1, MPI.INT, right, n - 1, 1, MPI.INT));
            IntBuffer back = MPI.newIntBuffer(2);
            w.get(back, 2, MPI.INT, right, 0, 2, MPI.INT);
            w.unlock(right);
            assertThat(back.get(0)).isEqualTo(-1);
            assertThat(back.get(1)).isEqualTo(-2);
            MPI.COMM_WORLD.barrier();
            assertThat(exposed.get(0)).isEqualTo(-1);
            assertThat(exposed.get(1)).isEqualTo(-2);
            w.free();
        }
        for (int i = 2; i < 4; i++) {
            assertThat(directAll.getInt(4 * i)).as("direct int %d, past the window", i).isEqualTo(SENTINEL);
            assertThat(heapAll[i]).as("heap int %d, past the window", i).isEqualTo(SENTINEL);
        }
    }

    // ---------------------------------------------------------------------------------- attribute types

    @MpiTest(ranks = {1, 2, 3})
    void sizeAndDisplacementUnitAreIntegers() throws MPIException {
        Win created = new Win(MPI.newLongBuffer(5), 5, 2, new Info(), MPI.COMM_WORLD);
        assertThat(created.getAttr(MPI.WIN_SIZE)).isInstanceOf(Integer.class).isEqualTo(40);
        assertThat(created.getAttr(MPI.WIN_DISP_UNIT)).isInstanceOf(Integer.class).isEqualTo(16);
        int size = (Integer) created.getAttr(MPI.WIN_SIZE); // as programs written for Open MPI read it
        assertThat(size).isEqualTo(40);
        created.free();
        Win allocated = new Win(12, 1, new Info(), MPI.COMM_WORLD, null, Win.FLAVOR_PRIVATE);
        assertThat(allocated.getAttr(MPI.WIN_SIZE)).isInstanceOf(Integer.class).isEqualTo(12);
        assertThat(allocated.getAttr(MPI.WIN_DISP_UNIT)).isInstanceOf(Integer.class).isEqualTo(1);
        allocated.free();
        Win shared = new Win(3, 1, new Info(), MPI.COMM_WORLD, MPI.newDoubleBuffer(0), Win.FLAVOR_SHARED);
        assertThat(shared.getAttr(MPI.WIN_SIZE)).isInstanceOf(Integer.class).isEqualTo(24);
        assertThat(shared.getAttr(MPI.WIN_DISP_UNIT)).isInstanceOf(Integer.class).isEqualTo(8);
        shared.free();
        Win dynamic = new Win(new Info(), MPI.COMM_WORLD);
        assertThat(dynamic.getAttr(MPI.WIN_SIZE)).isInstanceOf(Integer.class).isEqualTo(0);
        assertThat(dynamic.getAttr(MPI.WIN_DISP_UNIT)).isInstanceOf(Integer.class).isEqualTo(1);
        dynamic.free();
    }

    // ------------------------------------------------------------------------------------------ no_locks

    @MpiTest(ranks = {1, 2, 3, 4})
    void noLocksWindowsRefuseLocks() throws MPIException {
        noLocks();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, jvmArgs = WindowOperationsTest.TCP)
    void noLocksWindowsRefuseLocksOverTcp() throws MPIException {
        noLocks();
    }

    private static void noLocks() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int right = (rank + 1) % size;
        Info info = new Info();
        info.set("no_locks", "true");
        IntBuffer mem = MPI.newIntBuffer(1);
        Win[] windows = {new Win(mem, 1, 1, info, MPI.COMM_WORLD),
            new Win(1, 1, info, MPI.COMM_WORLD, MPI.newIntBuffer(0), Win.FLAVOR_PRIVATE),
            new Win(1, 1, info, MPI.COMM_WORLD, null, Win.FLAVOR_SHARED), new Win(info, MPI.COMM_WORLD)};
        for (Win win : windows) {
            win.setErrhandler(MPI.ERRORS_RETURN);
            expect(MPI.ERR_RMA_SYNC, () -> win.lock(MPI.LOCK_SHARED, right, 0));
            expect(MPI.ERR_RMA_SYNC, () -> win.lock(MPI.LOCK_EXCLUSIVE, rank, MPI.MODE_NOCHECK));
            expect(MPI.ERR_RMA_SYNC, () -> win.lockAll(0));
            expect(MPI.ERR_RMA_SYNC, () -> win.lockAll(MPI.MODE_NOCHECK));
            // no epoch was opened: the window is usable with fences, and free
            win.fence(0);
            win.fence(MPI.MODE_NOSUCCEED);
            win.free();
        }
        // without the hint, locks are granted
        Win plain = new Win(mem, 1, 1, new Info(), MPI.COMM_WORLD);
        plain.lock(MPI.LOCK_SHARED, right, 0);
        plain.unlock(right);
        plain.lockAll(0);
        plain.unlockAll();
        plain.free();
        info.free();
    }
}
