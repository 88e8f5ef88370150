package org.jmpi.tests.coll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * Bad arguments to collectives under MPI.ERRORS_RETURN: a root out of range (MPI_ERR_ROOT), negative counts
 * (MPI_ERR_COUNT), buffers shorter than the counts (MPI_ERR_BUFFER), count and displacement arrays that are too short
 * (MPI_ERR_ARG), an operation that does not apply to the type (MPI_ERR_OP), send and receive buffers that are the
 * same (MPI_ERR_BUFFER), invalid datatypes (MPI_ERR_TYPE); in blocking and non-blocking forms. Every rank makes the
 * same mistake, and the communicator keeps working afterwards.
 */
class CollErrorsTest {

    @MpiTest(ranks = {1, 2, 3, 4}, modes = Mode.THREADS, timeoutSeconds = 60)
    void threads() throws MPIException {
        all();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, timeoutSeconds = 60)
    void processes() throws MPIException {
        all();
    }

    private static void expect(int errorClass, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(MPIException.class, e -> {
            assertThat(e.getErrorClass()).as(e.getMessage()).isEqualTo(errorClass);
            assertThat(e.getMessage()).isNotBlank();
        });
    }

    static void all() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int size = w.getSize();
        int[] b = new int[4 * size];
        int[] c = new int[4 * size];
        Datatype t = MPI.INT;
        IntBuffer ib = MPI.newIntBuffer(4 * size);
        IntBuffer ic = MPI.newIntBuffer(4 * size);

        // roots out of range
        for (int root : new int[] {-1, size, size + 5}) {
            expect(MPI.ERR_ROOT, () -> w.bcast(b, 1, t, root));
            expect(MPI.ERR_ROOT, () -> w.iBcast(ib, 1, t, root));
            expect(MPI.ERR_ROOT, () -> w.gather(b, 1, t, c, 1, t, root));
            expect(MPI.ERR_ROOT, () -> w.gather(b, 1, t, root));
            expect(MPI.ERR_ROOT, () -> w.iGather(ib, 1, t, ic, 1, t, root));
            expect(MPI.ERR_ROOT, () -> w.scatter(b, 1, t, c, 1, t, root));
            expect(MPI.ERR_ROOT, () -> w.iScatter(ib, 1, t, root));
            expect(MPI.ERR_ROOT, () -> w.gatherv(b, 1, t, c, ones(size), zeros(size), t, root));
            expect(MPI.ERR_ROOT, () -> w.scatterv(b, ones(size), zeros(size), t, c, 1, t, root));
            expect(MPI.ERR_ROOT, () -> w.reduce(b, c, 1, t, MPI.SUM, root));
            expect(MPI.ERR_ROOT, () -> w.iReduce(ib, 1, t, MPI.SUM, root));
        }
        // root-only and non-root forms used by the wrong ranks
        int rank = w.getRank();
        if (rank == 0) {
            expect(MPI.ERR_ROOT, () -> w.gatherv(b, 1, t, 0));
            expect(MPI.ERR_ROOT, () -> w.scatterv(c, 1, t, 0));
        } else {
            expect(MPI.ERR_ROOT, () -> w.gatherv(c, ones(size), zeros(size), t, 0));
            expect(MPI.ERR_ROOT, () -> w.scatterv(b, ones(size), zeros(size), t, 0));
        }

        // negative counts
        expect(MPI.ERR_COUNT, () -> w.bcast(b, -1, t, 0));
        expect(MPI.ERR_COUNT, () -> w.iBcast(ib, -2, t, 0));
        expect(MPI.ERR_COUNT, () -> w.gather(b, -1, t, c, -1, t, 0));
        expect(MPI.ERR_COUNT, () -> w.scatter(b, -1, t, c, -1, t, 0));
        expect(MPI.ERR_COUNT, () -> w.allGather(b, -1, t, c, -1, t));
        expect(MPI.ERR_COUNT, () -> w.allToAll(b, -1, t, c, -1, t));
        expect(MPI.ERR_COUNT, () -> w.allReduce(b, c, -1, t, MPI.SUM));
        expect(MPI.ERR_COUNT, () -> w.iAllReduce(ib, ic, -1, t, MPI.SUM));
        expect(MPI.ERR_COUNT, () -> w.reduce(b, c, -3, t, MPI.SUM, 0));
        expect(MPI.ERR_COUNT, () -> w.reduceScatterBlock(b, c, -1, t, MPI.SUM));
        expect(MPI.ERR_COUNT, () -> w.scan(b, c, -1, t, MPI.SUM));
        expect(MPI.ERR_COUNT, () -> w.exScan(b, -1, t, MPI.SUM));
        int[] negative = ones(size);
        negative[size - 1] = -1;
        expect(MPI.ERR_COUNT, () -> w.allGatherv(b, 1, t, c, negative, zeros(size), t));
        expect(MPI.ERR_COUNT, () -> w.allToAllv(b, negative, zeros(size), t, c, ones(size), zeros(size), t));
        expect(MPI.ERR_COUNT, () -> w.reduceScatter(b, c, negative, t, MPI.SUM));

        // buffers shorter than the counts (at every rank)
        int[] small = new int[2];
        expect(MPI.ERR_BUFFER, () -> w.bcast(small, 3, t, 0));
        expect(MPI.ERR_BUFFER, () -> w.iBcast(IntBuffer.allocate(2), 3, t, 0));
        expect(MPI.ERR_BUFFER, () -> w.allReduce(b, small, 3, t, MPI.SUM));
        expect(MPI.ERR_BUFFER, () -> w.allReduce(small, c, 3, t, MPI.SUM));
        expect(MPI.ERR_BUFFER, () -> w.allReduce(small, 3, t, MPI.SUM));
        expect(MPI.ERR_BUFFER, () -> w.iAllReduce(ib, MPI.newIntBuffer(1), 3, t, MPI.SUM));
        expect(MPI.ERR_BUFFER, () -> w.allGather(b, 1, t, new int[size - 1], 1, t));
        expect(MPI.ERR_BUFFER, () -> w.allGather(new int[size * 2 - 1], 2, t));
        expect(MPI.ERR_BUFFER, () -> w.allToAll(new int[size - 1], 1, t, c, 1, t));
        expect(MPI.ERR_BUFFER, () -> w.reduceScatterBlock(new int[size * 2 - 1], c, 2, t, MPI.SUM));
        expect(MPI.ERR_BUFFER, () -> w.scan(b, small, 3, t, MPI.SUM));
        expect(MPI.ERR_BUFFER, () -> w.allGatherv(b, 1, t, new int[size], ones(size), displsPast(size), t));
        expect(MPI.ERR_BUFFER, () -> w.allToAllv(b, ones(size), zeros(size), t, c, ones(size), displsPast(size), t));
        expect(MPI.ERR_BUFFER, () -> w.allToAllw(b, ones(size), zeros(size), types(size), c, ones(size),
                bytesPast(size), types(size)));
        if (rank == 0) {
            // only the root's receive buffer matters: the others' small messages just go unmatched
            expect(MPI.ERR_BUFFER, () -> w.gather(b, 1, t, new int[size - 1], 1, t, 0));
        } else {
            w.gather(b, 1, t, null, 1, t, 0);
        }

        // count and displacement arrays that are too short
        if (size > 1) {
            expect(MPI.ERR_ARG, () -> w.allGatherv(b, 1, t, c, ones(size - 1), zeros(size), t));
            expect(MPI.ERR_ARG, () -> w.allToAllv(b, ones(size), zeros(size - 1), t, c, ones(size), zeros(size), t));
            expect(MPI.ERR_ARG, () -> w.reduceScatter(b, c, ones(size - 1), t, MPI.SUM));
        }
        expect(MPI.ERR_ARG, () -> w.allGatherv(b, 1, t, c, null, zeros(size), t));

        // operations that do not apply, and REPLACE outside one-sided operations
        expect(MPI.ERR_OP, () -> w.allReduce(new double[1], new double[1], 1, MPI.DOUBLE, MPI.BAND));
        expect(MPI.ERR_OP, () -> w.reduce(new boolean[1], new boolean[1], 1, MPI.BOOLEAN, MPI.SUM, 0));
        expect(MPI.ERR_OP, () -> w.iAllReduce(ib, ic, 1, t, MPI.MAXLOC));
        expect(MPI.ERR_OP, () -> w.scan(b, c, 1, t, MPI.REPLACE));
        expect(MPI.ERR_OP, () -> w.reduceScatterBlock(b, c, 1, t, null));

        // the same buffer as send and receive buffer
        expect(MPI.ERR_BUFFER, () -> w.allReduce(b, b, 1, t, MPI.SUM));
        expect(MPI.ERR_BUFFER, () -> w.allGather(b, 1, t, b, 1, t));
        // invalid datatypes
        expect(MPI.ERR_TYPE, () -> w.bcast(b, 1, null, 0));
        expect(MPI.ERR_TYPE, () -> w.allReduce(b, c, 1, MPI.DATATYPE_NULL, MPI.SUM));
        // any array is raw memory (a double[2] holds 4 ints), but not more than its bytes, and not a non-buffer
        expect(MPI.ERR_BUFFER, () -> w.bcast(new double[2], 5, MPI.INT, 0));
        expect(MPI.ERR_BUFFER, () -> w.bcast(new Object(), 1, MPI.INT, 0));

        // the communicator still works: every collective kind once
        w.barrier();
        int[] x = {rank + 1};
        w.allReduce(x, 1, t, MPI.SUM);
        assertThat(x[0]).isEqualTo(size * (size + 1) / 2);
        int[] y = {rank == 0 ? 42 : 0};
        w.bcast(y, 1, t, 0);
        assertThat(y[0]).isEqualTo(42);
        int[] all = new int[size];
        w.allGather(new int[] {rank}, 1, t, all, 1, t);
        for (int i = 0; i < size; i++) {
            assertThat(all[i]).isEqualTo(i);
        }
        w.setErrhandler(MPI.ERRORS_ARE_FATAL);
    }

    static int[] ones(int n) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, 1);
        return a;
    }

    static int[] zeros(int n) {
        return new int[n];
    }

    /** Displacements whose last block ends past a buffer of {@code n} ints. */
    static int[] displsPast(int n) {
        int[] d = new int[n];
        for (int i = 0; i < n; i++) {
            d[i] = i;
        }
        d[n - 1] = 10 * n;
        return d;
    }

    static int[] bytesPast(int n) {
        int[] d = displsPast(n);
        for (int i = 0; i < n; i++) {
            d[i] *= 4;
        }
        return d;
    }

    static Datatype[] types(int n) {
        Datatype[] t = new Datatype[n];
        java.util.Arrays.fill(t, MPI.INT);
        return t;
    }
}
