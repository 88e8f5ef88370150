package org.jmpi.tests.rma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;
import mpi.Win;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jmpi.junit.MpiTest;
import org.jmpi.rma.Windows;

/**
 * Bad input under ERRORS_RETURN gives the right error class, changes nothing and leaves the window usable: a bad
 * target rank, an access past the window's end, operations outside an epoch, wrong mixing of synchronisation modes,
 * a user-defined operation in accumulate, mismatched type signatures, freeing inside an epoch, overlapping attaches.
 */
class WindowErrorsTest {

    private static void expect(int errorClass, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOf(MPIException.class)
                .satisfies(e -> assertThat(((MPIException) e).getErrorClass()).as(e.getMessage())
                        .isEqualTo(errorClass));
    }

    @MpiTest(ranks = {1, 2, 3, 4, 8}, timeoutSeconds = 120)
    void badInputIsReportedAndTheWindowStaysUsable() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        IntBuffer mem = MPI.newIntBuffer(10);
        for (int i = 0; i < 10; i++) {
            mem.put(i, -1);
        }
        Win win = new Win(mem, 10, 1, new Info(), MPI.COMM_WORLD);
        win.setErrhandler(MPI.ERRORS_RETURN);
        IntBuffer v = MPI.newIntBuffer(11);
        int right = (rank + 1) % size;

        // outside any epoch
        expect(MPI.ERR_RMA_SYNC, () -> win.put(v, 1, MPI.INT, right, 0, 1, MPI.INT));
        expect(MPI.ERR_RMA_SYNC, () -> win.unlock(right));
        expect(MPI.ERR_RMA_SYNC, () -> win.unlockAll());
        expect(MPI.ERR_RMA_SYNC, () -> win.flush(right));
        expect(MPI.ERR_RMA_SYNC, () -> win.flushAll());
        expect(MPI.ERR_RMA_SYNC, () -> win.complete());
        expect(MPI.ERR_RMA_SYNC, () -> win.waitFor());
        expect(MPI.ERR_RMA_SYNC, () -> win.test());
        expect(MPI.ERR_LOCKTYPE, () -> win.lock(77, right, 0));
        expect(MPI.ERR_ASSERT, () -> win.fence(1 << 20));

        win.fence(0);
        expect(MPI.ERR_RANK, () -> win.put(v, 1, MPI.INT, size, 0, 1, MPI.INT));
        expect(MPI.ERR_RANK, () -> win.get(v, 1, MPI.INT, -5, 0, 1, MPI.INT));
        expect(Windows.ERR_RMA_RANGE, () -> win.put(v, 11, MPI.INT, right, 0, 11, MPI.INT));
        expect(Windows.ERR_RMA_RANGE, () -> win.put(v, 1, MPI.INT, right, 10, 1, MPI.INT));
        expect(Windows.ERR_RMA_RANGE, () -> win.get(v, 2, MPI.INT, right, -1, 2, MPI.INT));
        expect(Windows.ERR_RMA_RANGE, () -> win.accumulate(v, 5, MPI.INT, right, 8, 5, MPI.INT, MPI.SUM));
        Op user = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inout, int count, Datatype type) {}
        }, true);
        expect(MPI.ERR_OP, () -> win.accumulate(v, 1, MPI.INT, right, 0, 1, MPI.INT, user));
        expect(MPI.ERR_OP, () -> win.fetchAndOp(v, v, MPI.INT, right, 0, user));
        expect(MPI.ERR_OP, () -> win.accumulate(v, 1, MPI.INT, right, 0, 1, MPI.INT, MPI.MAXLOC));
        expect(MPI.ERR_TYPE, () -> win.put(v, 2, MPI.INT, right, 0, 1, MPI.INT));
        expect(MPI.ERR_TYPE, () -> win.put(v, 2, MPI.INT, right, 0, 1, MPI.LONG));
        expect(MPI.ERR_TYPE, () -> win.get(v, 1, MPI.INT, right, 0, 1, MPI.FLOAT));
        expect(MPI.ERR_TYPE, () -> win.compareAndSwap(MPI.newDoubleBuffer(1), MPI.newDoubleBuffer(1),
                MPI.newDoubleBuffer(1), MPI.DOUBLE, right, 0));
        expect(MPI.ERR_BUFFER, () -> win.put(MPI.newIntBuffer(1), 5, MPI.INT, right, 0, 5, MPI.INT));
        // any buffer is raw memory (issue 12), but an int does not fit in a short's 2 bytes
        expect(MPI.ERR_BUFFER, () -> win.put(MPI.newShortBuffer(1), 1, MPI.INT, right, 0, 1, MPI.INT));
        expect(MPI.ERR_BUFFER, () -> win.put(null, 1, MPI.INT, right, 0, 1, MPI.INT));
        expect(MPI.ERR_BUFFER, () -> win.get(MPI.newIntBuffer(4).asReadOnlyBuffer(), 1, MPI.INT, right, 0, 1, MPI.INT));
        expect(MPI.ERR_COUNT, () -> win.put(v, -1, MPI.INT, right, 0, -1, MPI.INT));
        // fence epoch with operations pending: lock, start, post and free are refused
        win.put(v, 1, MPI.INT, rank, 9, 1, MPI.INT);
        expect(MPI.ERR_RMA_SYNC, () -> win.lock(MPI.LOCK_SHARED, right, 0));
        expect(MPI.ERR_RMA_SYNC, () -> win.lockAll(0));
        expect(MPI.ERR_RMA_SYNC, () -> win.start(MPI.COMM_WORLD.getGroup(), 0));
        expect(MPI.ERR_RMA_SYNC, () -> win.free());
        win.fence(MPI.MODE_NOSUCCEED);
        for (int i = 0; i < 9; i++) {
            assertThat(mem.get(i)).as("slot %d untouched", i).isEqualTo(-1);
        }

        // passive epoch: fence, double lock and free are refused
        win.lock(MPI.LOCK_SHARED, right, 0);
        expect(MPI.ERR_RMA_SYNC, () -> win.fence(0));
        expect(MPI.ERR_RMA_SYNC, () -> win.lock(MPI.LOCK_SHARED, right, 0));
        expect(MPI.ERR_RMA_SYNC, () -> win.free());
        win.unlock(right);
        win.lockAll(0);
        expect(MPI.ERR_RMA_SYNC, () -> win.lock(MPI.LOCK_EXCLUSIVE, right, 0));
        win.unlockAll();

        // still usable: a ring of puts
        win.fence(0);
        v.put(0, rank);
        win.put(v, 1, MPI.INT, right, 0, 1, MPI.INT);
        win.fence(MPI.MODE_NOSUCCEED);
        assertThat(mem.get(0)).isEqualTo((rank + size - 1) % size);
        win.free();
        expect(MPI.ERR_WIN, () -> win.fence(0));
        user.free();
    }

    @MpiTest(ranks = {1, 2, 3})
    void dynamicWindowErrors() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Win win = new Win(new Info(), MPI.COMM_WORLD);
        win.setErrhandler(MPI.ERRORS_RETURN);
        IntBuffer a = MPI.newIntBuffer(8);
        win.attach(a, 8);
        expect(Windows.ERR_RMA_ATTACH, () -> win.attach(a, 4));
        expect(Windows.ERR_RMA_ATTACH, () -> win.attach(MPI.slice(a, 3), 2));
        expect(Windows.ERR_RMA_ATTACH, () -> win.detach(MPI.newIntBuffer(2)));
        int[] address = {(int) Windows.address(win, a)};
        int[] addresses = new int[size];
        MPI.COMM_WORLD.allGather(address, 1, MPI.INT, addresses, 1, MPI.INT);
        int right = (rank + 1) % size;
        win.lock(MPI.LOCK_SHARED, right, 0);
        IntBuffer v = MPI.newIntBuffer(4);
        // the target finds no region there: the error comes back with the answer
        expect(Windows.ERR_RMA_RANGE, () -> {
            win.put(v, 4, MPI.INT, right, addresses[right] + 4 * 6, 4, MPI.INT);
            win.flush(right);
        });
        expect(Windows.ERR_RMA_RANGE, () -> win.get(v, 4, MPI.INT, right, addresses[right] + 4 * 6, 4, MPI.INT));
        win.get(v, 4, MPI.INT, right, addresses[right], 4, MPI.INT);
        win.unlock(right);
        MPI.COMM_WORLD.barrier();
        win.detach(a);
        expect(Windows.ERR_RMA_FLAVOR, () -> {
            Win plain = new Win(MPI.newIntBuffer(1), 1, 1, new Info(), MPI.COMM_WORLD);
            plain.setErrhandler(MPI.ERRORS_RETURN);
            try {
                plain.attach(MPI.newIntBuffer(1), 1);
            } finally {
                plain.free();
            }
        });
        win.free();
    }
}
