package org.jmpi.tests.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;
import org.jmpi.tools.MpiT;

/**
 * The tools interface (MPI_T) while MPI runs: the unexpected-message level sees messages that wait for a receive,
 * the traffic counters count what a started handle saw and nothing while stopped, the route names the transport, a
 * collective's algorithm written as a control variable is the one the next call uses and the performance variable
 * reports, and a parameter read at start-up refuses a write.
 */
class MpiToolsTest {

    @MpiTest(ranks = {1, 2, 3}, modes = Mode.THREADS, timeoutSeconds = 120)
    void threads() throws MPIException {
        all(false);
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, timeoutSeconds = 120)
    void processes() throws MPIException {
        all(true);
    }

    static void all(boolean processes) throws MPIException {
        MpiT.initThread(MPI.THREAD_SINGLE);
        try {
            unexpected();
            traffic(processes);
            algorithm();
            startUpParameters();
        } finally {
            MpiT.finalizeTools();
        }
    }

    /** Rank 0 sends 5 messages rank 1 has not asked for; rank 1 sees them queued, then receives them. */
    static void unexpected() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        MpiT.PvarSession s = MpiT.pvarSessionCreate();
        MpiT.PvarHandle level = s.handleAlloc(MpiT.pvarGetIndex("jmpi.unexpected.messages", MpiT.PVAR_CLASS_LEVEL),
                null);
        assertThat(level.count()).isEqualTo(1);
        assertError(level::start, MpiT.ERR_PVAR_NO_STARTSTOP);
        assertError(level::reset, MpiT.ERR_PVAR_NO_WRITE);
        int[] one = new int[1];
        if (size > 1 && rank == 0) {
            for (int i = 0; i < 5; i++) {
                w.send(new int[] {i}, 1, MPI.INT, 1, 77);
            }
            w.send(one, 1, MPI.INT, 1, 78); // after the five, on the same path
            w.recv(one, 1, MPI.INT, 1, 79);
        } else if (size > 1 && rank == 1) {
            w.recv(one, 1, MPI.INT, 0, 78);
            long queued = level.read()[0];
            assertThat(queued).as("the five messages wait for their receive").isGreaterThanOrEqualTo(5);
            for (int i = 0; i < 5; i++) {
                w.recv(one, 1, MPI.INT, 0, 77);
                assertThat(one[0]).isEqualTo(i);
            }
            assertThat(level.read()[0]).isEqualTo(queued - 5);
            for (int r = 0; r < size; r++) {
                if (r != 1) {
                    w.send(one, 1, MPI.INT, r, 79);
                }
            }
        } else if (size > 1) {
            w.recv(one, 1, MPI.INT, 1, 79);
        }
        s.free();
        assertError(level::read, MpiT.ERR_INVALID_HANDLE);
        w.barrier();
    }

    /**
     * A started handle of bytes sent counts rank 0's 4 KiB to rank 1 (processes: over shared memory; threads mode
     * sends no frames, so nothing); stopped, it counts nothing more; reset, it starts from 0; read-reset gives the
     * count and starts from 0; the session's reset zeroes its counters and leaves its read-only route alone.
     */
    static void traffic(boolean processes) throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        MpiT.PvarSession s = MpiT.pvarSessionCreate();
        MpiT.PvarHandle sent = s.handleAlloc(MpiT.pvarGetIndex("jmpi.bytes.sent", MpiT.PVAR_CLASS_COUNTER), null);
        MpiT.PvarHandle route = s.handleAlloc(MpiT.pvarGetIndex("jmpi.route", MpiT.PVAR_CLASS_STATE), null);
        assertThat(sent.count()).isEqualTo(size);
        assertThat(sent.read()).containsOnly(0L);
        byte[] data = new byte[4096];
        countedZeroToOne(s, data, 80);
        long[] counted = sent.read();
        long routeBefore = size > 1 ? route.read()[1] : 0;
        if (size > 1 && rank == 0) {
            assertThat(counted[1]).isEqualTo(processes ? 4096 : 0);
            MpiT.PvarInfo info = MpiT.pvarGetInfo(MpiT.pvarGetIndex("jmpi.route", MpiT.PVAR_CLASS_STATE));
            assertThat(info.enumType().items().get((int) route.read()[1])).isEqualTo(processes ? "shm" : "none");
            w.send(data, data.length, MPI.BYTE, 1, 81);
            assertThat(sent.read()).as("stopped: nothing more counted").containsExactly(counted);
        } else if (size > 1 && rank == 1) {
            w.recv(data, data.length, MPI.BYTE, 0, 81);
        }
        sent.write(new long[size]);
        assertThat(sent.read()).containsOnly(0L);
        assertError(() -> sent.write(new long[size + 1]), MpiT.ERR_INVALID);
        // readreset: the values counted, then 0 in the same step
        countedZeroToOne(s, data, 82);
        long[] readAndReset = sent.readReset();
        if (size > 1 && rank == 0) {
            assertThat(readAndReset[1]).isEqualTo(processes ? 4096 : 0);
        }
        assertThat(sent.read()).as("after readreset").containsOnly(0L);
        assertError(route::readReset, MpiT.ERR_PVAR_NO_WRITE);
        // the session's reset (MPI_T_PVAR_ALL_HANDLES) zeroes its counters and leaves the read-only route alone
        long[] seeded = new long[size];
        java.util.Arrays.fill(seeded, 7);
        sent.write(seeded);
        assertThat(sent.read()).containsOnly(7L);
        s.resetAll();
        assertThat(sent.read()).as("after the session's reset").containsOnly(0L);
        if (size > 1 && rank == 0) {
            assertThat(route.read()[1]).as("the route is not a counter: reset leaves it").isEqualTo(routeBefore);
        }
        sent.free();
        assertError(sent::read, MpiT.ERR_INVALID_HANDLE);
        s.free();
        w.barrier();
    }

    /** Rank 0 sends {@code data} to rank 1 while the session's counters run. */
    private static void countedZeroToOne(MpiT.PvarSession s, byte[] data, int tag) throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        s.startAll();
        if (w.getSize() > 1 && w.getRank() == 0) {
            w.send(data, data.length, MPI.BYTE, 1, tag);
        } else if (w.getSize() > 1 && w.getRank() == 1) {
            w.recv(data, data.length, MPI.BYTE, 0, tag);
        }
        s.stopAll();
    }

    /** Every rank writes the allreduce's algorithm (scope ALL_EQ): the next allreduce uses it, and says so. */
    static void algorithm() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int cvar = MpiT.cvarGetIndex("jmpi.coll.allreduce.algorithm");
        assertThat(MpiT.cvarGetInfo(cvar).scope()).isEqualTo(MpiT.SCOPE_ALL_EQ);
        MpiT.CvarHandle h = MpiT.cvarHandleAlloc(cvar, null);
        MpiT.PvarSession s = MpiT.pvarSessionCreate();
        int pvar = MpiT.pvarGetIndex("jmpi.coll.algorithm", MpiT.PVAR_CLASS_STATE);
        MpiT.PvarHandle last = s.handleAlloc(pvar, null);
        java.util.List<String> names = MpiT.pvarGetInfo(pvar).enumType().items();
        int[] in = {w.getRank() + 1};
        int[] out = new int[1];
        try {
            for (String a : new String[] {"ring", "recursive_doubling"}) {
                h.write(a);
                assertThat(h.readString()).isEqualTo(a);
                w.allReduce(in, out, 1, MPI.INT, MPI.SUM);
                int size = w.getSize();
                assertThat(out[0]).isEqualTo(size * (size + 1) / 2);
                if (size > 1) {
                    assertThat(names.get((int) last.read()[0])).isEqualTo("allreduce:" + a);
                }
            }
        } finally {
            h.write("auto");
        }
        assertError(() -> h.write("fastest"), MpiT.ERR_INVALID);
        assertThat(h.readString()).isEqualTo("auto");
        h.free();
        s.free();
    }

    /** A parameter read when MPI starts cannot change while it runs. */
    static void startUpParameters() throws MPIException {
        MpiT.CvarHandle eager = MpiT.cvarHandleAlloc(MpiT.cvarGetIndex("jmpi.eager.limit"), null);
        long before = eager.read();
        assertError(() -> eager.write(1024), MpiT.ERR_CVAR_SET_NOT_NOW);
        assertThat(eager.read()).isEqualTo(before);
        eager.free();
    }

    private static void assertError(ThrowingCallable call, int errorClass) {
        assertThatThrownBy(call).isInstanceOf(MPIException.class)
                .satisfies(e -> assertThat(((MPIException) e).getErrorClass()).as(e.getMessage())
                        .isEqualTo(errorClass));
    }
}
