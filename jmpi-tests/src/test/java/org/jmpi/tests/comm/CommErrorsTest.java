package org.jmpi.tests.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import mpi.CartComm;
import mpi.Comm;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * Bad input to the communicator, group, attribute and topology calls under ERRORS_RETURN: an MPIException of the
 * right class, and the world keeps working.
 */
class CommErrorsTest {

    private static void expect(int errorClass, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(MPIException.class, e -> {
            assertThat(e.getErrorClass()).as(e.getMessage()).isEqualTo(errorClass);
            assertThat(e.getMessage()).isNotBlank();
        });
    }

    private static void scenario() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
        int size = w.getSize();
        int rank = w.getRank();
        int[] buf = new int[1];

        // ranks outside a group or communicator
        Group g = w.getGroup();
        expect(MPI.ERR_RANK, () -> g.incl(new int[] {size}));
        expect(MPI.ERR_RANK, () -> g.excl(new int[] {-3}));
        expect(MPI.ERR_RANK, () -> Group.translateRanks(g, new int[] {size + 1}, g));
        expect(MPI.ERR_RANK, () -> w.createIntercomm(w, size, 0, 0));
        expect(MPI.ERR_RANK, () -> w.createDistGraphAdjacent(new int[] {size}, new int[] {0}, MPI.INFO_NULL,
                false));

        // freed and null communicators
        Intracomm d = w.dup();
        assertThat(d.getErrhandler()).isSameAs(MPI.ERRORS_RETURN);
        d.free();
        expect(MPI.ERR_COMM, () -> d.send(buf, 1, MPI.INT, 0, 0));
        expect(MPI.ERR_COMM, () -> d.getSize());
        expect(MPI.ERR_COMM, () -> d.dup());
        expect(MPI.ERR_COMM, () -> d.free());
        expect(MPI.ERR_COMM, () -> d.barrier());
        expect(MPI.ERR_COMM, () -> w.free());
        expect(MPI.ERR_COMM, () -> MPI.COMM_SELF.free());
        expect(MPI.ERR_COMM, () -> Comm.compare(w, null));
        expect(MPI.ERR_COMM, () -> Comm.compare(w, d));
        expect(MPI.ERR_COMM, () -> w.createIntercomm(null, 0, 0, 0));
        Intracomm none = w.split(MPI.UNDEFINED, 0);
        expect(MPI.ERR_COMM, () -> none.getRank());

        // groups
        Group freed = w.getGroup();
        freed.free();
        expect(MPI.ERR_GROUP, () -> w.create(freed));
        expect(MPI.ERR_GROUP, () -> w.createGroup(null, 0));

        // keyvals
        expect(MPI.ERR_KEYVAL, () -> w.getAttr(123_456));
        expect(MPI.ERR_KEYVAL, () -> w.setAttr(123_456, "x"));
        expect(MPI.ERR_KEYVAL, () -> w.deleteAttr(123_456));
        expect(MPI.ERR_KEYVAL, () -> w.setAttr(MPI.TAG_UB, 5));
        expect(MPI.ERR_KEYVAL, () -> Comm.freeKeyval(MPI.TAG_UB));
        int k = Comm.createKeyval();
        Comm.freeKeyval(k);
        expect(MPI.ERR_KEYVAL, () -> Comm.freeKeyval(k));
        expect(MPI.ERR_KEYVAL, () -> w.setAttr(k, "x"));
        int wk = mpi.Win.createKeyval();
        mpi.Win.freeKeyval(wk);
        expect(MPI.ERR_KEYVAL, () -> mpi.Win.freeKeyval(wk));

        // topologies
        expect(MPI.ERR_DIMS, () -> CartComm.createDims(7, new int[] {2, 0}));
        expect(MPI.ERR_DIMS, () -> CartComm.createDims(6, new int[] {-1, 0}));
        expect(MPI.ERR_DIMS, () -> w.createCart(new int[] {0}, new boolean[] {false}, false));
        expect(MPI.ERR_DIMS, () -> w.createCart(new int[] {-2, 1}, new boolean[] {false, false}, false));
        expect(MPI.ERR_TOPOLOGY, () -> w.createCart(new int[] {size + 1}, new boolean[] {true}, false));
        expect(MPI.ERR_TOPOLOGY, () -> w.createGraph(new int[] {1}, new int[] {5}, false));
        expect(MPI.ERR_TOPOLOGY, () -> w.neighborAllGather(buf, 1, MPI.INT, new int[4], 1, MPI.INT));
        expect(MPI.ERR_TOPOLOGY, () -> w.createGraph(new int[size + 1], new int[0], false));
        CartComm cart = w.createCart(new int[] {size}, new boolean[] {false}, false);
        expect(MPI.ERR_DIMS, () -> cart.shift(1, 1));
        expect(MPI.ERR_RANK, () -> cart.getCoords(size));
        expect(MPI.ERR_ARG, () -> cart.getRank(new int[] {size}));
        cart.free();

        // the world still works
        int[] v = {rank};
        w.allReduce(v, 1, MPI.INT, MPI.SUM);
        assertThat(v[0]).isEqualTo(size * (size - 1) / 2);
        w.setErrhandler(MPI.ERRORS_ARE_FATAL);
        MPI.COMM_SELF.setErrhandler(MPI.ERRORS_ARE_FATAL);
    }

    /** Error handlers belong to one communicator; new communicators inherit their parent's. */
    private static void handlersPerCommunicator() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        assertThat(w.getErrhandler()).isSameAs(MPI.ERRORS_ARE_FATAL);
        Intracomm d = w.dup();
        d.setErrhandler(MPI.ERRORS_RETURN);
        assertThat(w.getErrhandler()).isSameAs(MPI.ERRORS_ARE_FATAL);
        expect(MPI.ERR_RANK, () -> d.send(new int[1], 1, MPI.INT, d.getSize(), 0));
        d.callErrhandler(MPI.ERR_OTHER); // the ERRORS_RETURN handler returns; so does the call
        Intracomm child = d.split(0, 0);
        assertThat(child.getErrhandler()).isSameAs(MPI.ERRORS_RETURN);
        expect(MPI.ERR_TAG, () -> child.send(new int[1], 1, MPI.INT, 0, -4));
        Intracomm fatal = w.dup();
        assertThat(fatal.getErrhandler()).isSameAs(MPI.ERRORS_ARE_FATAL);
        fatal.free();
        child.free();
        d.free();
    }

    @MpiTest(ranks = {1, 2, 3, 4}, modes = Mode.THREADS)
    void inThreads() throws MPIException {
        handlersPerCommunicator();
        scenario();
    }

    @MpiTest(ranks = {2}, modes = Mode.PROCESSES)
    void inProcesses() throws MPIException {
        handlersPerCommunicator();
        scenario();
    }
}
