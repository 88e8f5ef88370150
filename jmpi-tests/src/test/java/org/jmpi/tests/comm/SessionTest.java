package org.jmpi.tests.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import mpi.Group;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Session;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * MPI 4.0 sessions: two libraries each with their own session and communicator in one program without MPI.Init
 * (process sets, their info, communicators from the world set, a subset and the self set, collectives on both
 * communicators interleaved, a finalized session refusing calls); and a session beside the world model, finalized
 * before MPI.Finalize while COMM_WORLD keeps working.
 */
class SessionTest {

    @MpiTest(ranks = {1, 2, 3, 5}, modes = Mode.THREADS, init = false, timeoutSeconds = 120)
    void threadsWithoutInit() throws MPIException {
        twoLibraries();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, init = false, timeoutSeconds = 120)
    void processesWithoutInit() throws MPIException {
        twoLibraries();
    }

    @MpiTest(ranks = {1, 3}, modes = Mode.THREADS, timeoutSeconds = 120)
    void threadsBesideInit() throws MPIException {
        besideTheWorldModel();
    }

    @MpiTest(ranks = {2}, modes = Mode.PROCESSES, timeoutSeconds = 120)
    void processesBesideInit() throws MPIException {
        besideTheWorldModel();
    }

    interface Call {
        void run() throws MPIException;
    }

    static void expect(int errorClass, Call call) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(MPIException.class,
                e -> assertThat(e.getErrorClass()).as(e.getMessage()).isEqualTo(errorClass));
    }

    static void twoLibraries() throws MPIException {
        assertThat(MPI.isInitialized()).isFalse();
        Info want = new Info();
        want.set("thread_level", "MPI_THREAD_MULTIPLE");
        Session a = Session.init(want, MPI.ERRORS_RETURN);
        Session b = Session.init();
        assertThat(MPI.isInitialized()).as("sessions are not the world model").isFalse();
        assertThat(a.getInfo().get("thread_level")).isEqualTo("MPI_THREAD_MULTIPLE");
        assertThat(b.getThreadLevel()).isEqualTo(MPI.THREAD_MULTIPLE); // the running MPI's level

        assertThat(a.getNumPsets(null)).isEqualTo(2);
        assertThat(a.getNthPset(null, 0)).isEqualTo("mpi://WORLD");
        assertThat(a.getNthPset(null, 1)).isEqualTo("mpi://SELF");
        Group world = Group.fromSessionPset(a, "mpi://WORLD");
        int size = world.getSize();
        int rank = world.getRank();
        assertThat(a.getPsetInfo("mpi://WORLD").get("mpi_size")).isEqualTo(Integer.toString(size));
        assertThat(a.getPsetInfo("mpi://SELF").get("mpi_size")).isEqualTo("1");

        Intracomm ca = Intracomm.createFromGroup(world, "org.example.a", null, MPI.ERRORS_RETURN);
        Intracomm cb = Intracomm.createFromGroup(Group.fromSessionPset(b, "mpi://WORLD"), "org.example.b", null,
                MPI.ERRORS_RETURN);
        assertThat(ca.getSize()).isEqualTo(size);
        assertThat(ca.getRank()).isEqualTo(rank);
        assertThat(cb.getRank()).isEqualTo(rank);
        for (int i = 0; i < 20; i++) {
            int[] sa = new int[1];
            int[] sb = new int[1];
            ca.allReduce(new int[] {rank + i}, sa, 1, MPI.INT, MPI.SUM);
            cb.allReduce(new int[] {2 * rank}, sb, 1, MPI.INT, MPI.MAX);
            assertThat(sa[0]).isEqualTo(size * (size - 1) / 2 + size * i);
            assertThat(sb[0]).isEqualTo(2 * (size - 1));
        }
        // point-to-point on one library's communicator does not meet the other's
        if (size > 1) {
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            int[] fromA = new int[1];
            int[] fromB = new int[1];
            mpi.Request rb = cb.iRecv(fromB, 1, MPI.INT, prev, 0);
            mpi.Request ra = ca.iRecv(fromA, 1, MPI.INT, prev, 0);
            ca.send(new int[] {100 + rank}, 1, MPI.INT, next, 0);
            cb.send(new int[] {200 + rank}, 1, MPI.INT, next, 0);
            ra.waitFor();
            rb.waitFor();
            assertThat(fromA[0]).isEqualTo(100 + prev);
            assertThat(fromB[0]).isEqualTo(200 + prev);
        }

        // the self set, and a subset (the even ranks) of the world set
        Intracomm self = Intracomm.createFromGroup(Group.fromSessionPset(b, "mpi://SELF"), "self", null, null);
        assertThat(self.getSize()).isEqualTo(1);
        self.free();
        int[] evens = new int[(size + 1) / 2];
        for (int i = 0; i < evens.length; i++) {
            evens[i] = 2 * i;
        }
        Group even = world.incl(evens);
        if (rank % 2 == 0) {
            Intracomm ce = Intracomm.createFromGroup(even, "evens", null, MPI.ERRORS_RETURN);
            assertThat(ce.getSize()).isEqualTo(evens.length);
            assertThat(ce.getRank()).isEqualTo(rank / 2);
            int[] n = new int[1];
            ce.allReduce(new int[] {1}, n, 1, MPI.INT, MPI.SUM);
            assertThat(n[0]).isEqualTo(evens.length);
            ce.free();
        }

        expect(MPI.ERR_ARG, () -> Group.fromSessionPset(a, "mpi://NOWHERE"));
        expect(MPI.ERR_ARG, () -> a.getNthPset(null, 2));
        expect(MPI.ERR_ARG, () -> Session.init(infoWith("thread_level", "MPI_THREAD_SOMETIMES"), MPI.ERRORS_RETURN));

        ca.free();
        a.finalizeSession();
        expect(MPI.ERR_SESSION, () -> a.getNumPsets(null));
        expect(MPI.ERR_SESSION, () -> Group.fromSessionPset(a, "mpi://WORLD"));
        // the other library's session still works
        int[] s = new int[1];
        cb.allReduce(new int[] {1}, s, 1, MPI.INT, MPI.SUM);
        assertThat(s[0]).isEqualTo(size);
        cb.free();
        b.close();
        assertThat(MPI.isFinalized()).isFalse(); // the world model never started
    }

    static Info infoWith(String key, String value) throws MPIException {
        Info i = new Info();
        i.set(key, value);
        return i;
    }

    static void besideTheWorldModel() throws MPIException {
        int size = MPI.COMM_WORLD.getSize();
        int rank = MPI.COMM_WORLD.getRank();
        try (Session s = Session.init()) {
            Intracomm c = Intracomm.createFromGroup(Group.fromSessionPset(s, "mpi://WORLD"), "lib", null,
                    MPI.ERRORS_RETURN);
            int[] sum = new int[1];
            c.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
            assertThat(sum[0]).isEqualTo(size * (size - 1) / 2);
            c.free();
        }
        int[] sum = new int[1];
        MPI.COMM_WORLD.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
        assertThat(sum[0]).isEqualTo(size);
        assertThat(MPI.isInitialized()).isTrue();
        assertThat(MPI.isFinalized()).isFalse();
    }
}
