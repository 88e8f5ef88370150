package org.jmpi.tests.ft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import mpi.Comm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.jmpi.ft.Ulfm;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * The ULFM calls where no process fails (threads mode, and processes without --continue-on-failure: agreement over
 * plain messages): revocation interrupts every member's pending and later operations (receives, rendezvous sends,
 * collectives), agree and shrink work on a revoked communicator, and bad handles give ERR_COMM. Failures themselves
 * are tested with real processes in jmpi-launcher's UlfmTest.
 */
class UlfmWithoutFailuresTest {

    private static void all() throws MPIException {
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        revokeInterruptsEveryMember();
        agreeAndShrinkWorkOnARevokedCommunicator();
        aRevokedRendezvousIsRefused();
        badHandles();
    }

    @MpiTest(ranks = {1, 2, 3, 4, 8}, modes = Mode.THREADS)
    void inThreads() throws MPIException {
        all();
    }

    @MpiTest(ranks = {2, 3, 5}, modes = Mode.PROCESSES)
    void inProcesses() throws MPIException {
        all();
    }

    private static int errorClassOf(Runnable r) {
        try {
            r.run();
            return 0;
        } catch (Wrapped w) {
            return w.e.getErrorClass();
        }
    }

    /** Carries an MPIException out of a lambda. */
    private static final class Wrapped extends RuntimeException {
        private static final long serialVersionUID = 1;
        final transient MPIException e;

        Wrapped(MPIException e) {
            this.e = e;
        }
    }

    @FunctionalInterface
    private interface Call {
        void run() throws MPIException;
    }

    private static int errorOf(Call c) {
        return errorClassOf(() -> {
            try {
                c.run();
            } catch (MPIException e) {
                throw new Wrapped(e);
            }
        });
    }

    private static void revokeInterruptsEveryMember() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Intracomm dup = MPI.COMM_WORLD.dup();
        dup.setErrhandler(MPI.ERRORS_RETURN);
        assertThat(Ulfm.isRevoked(dup)).isFalse();
        int[] buf = new int[1];
        // every rank but 0 waits in a receive that only a revocation can end (0 never sends on the dup)
        Request pending = size > 1 && rank > 0 ? dup.iRecv(buf, 1, MPI.INT, MPI.ANY_SOURCE, 9) : null;
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            Ulfm.revoke(dup);
            Ulfm.revoke(dup); // twice is harmless
        } else {
            assertThat(errorOf(() -> dup.recv(buf, 1, MPI.INT, 0, 3))).isEqualTo(Ulfm.ERR_REVOKED);
            assertThat(errorOf(pending::waitFor)).isEqualTo(Ulfm.ERR_REVOKED);
        }
        assertThat(Ulfm.isRevoked(dup)).isTrue();
        assertThat(errorOf(dup::barrier)).isEqualTo(Ulfm.ERR_REVOKED);
        assertThat(errorOf(() -> dup.allReduce(buf, 1, MPI.INT, MPI.SUM))).isEqualTo(Ulfm.ERR_REVOKED);
        assertThat(errorOf(() -> dup.send(buf, 1, MPI.INT, (rank + 1) % size, 0))).isEqualTo(Ulfm.ERR_REVOKED);
        assertThat(errorOf(() -> dup.iBarrier().waitFor())).isEqualTo(Ulfm.ERR_REVOKED);
        assertThat(Ulfm.getFailed(dup).getSize()).isZero();
        assertThat(Ulfm.ackFailed(dup, 5)).isZero();
        // the world is untouched
        int[] one = {1};
        MPI.COMM_WORLD.allReduce(one, 1, MPI.INT, MPI.SUM);
        assertThat(one[0]).isEqualTo(size);
        dup.free();
        // the freed communicator's contexts go to the next one, which must start clean
        Intracomm next = MPI.COMM_WORLD.dup();
        next.setErrhandler(MPI.ERRORS_RETURN);
        int[] two = {2};
        next.allReduce(two, 1, MPI.INT, MPI.SUM);
        assertThat(two[0]).isEqualTo(2 * size);
        next.send(two, 1, MPI.INT, rank, 4);
        next.recv(two, 1, MPI.INT, rank, 4);
        next.free();
    }

    private static void agreeAndShrinkWorkOnARevokedCommunicator() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Intracomm dup = MPI.COMM_WORLD.dup();
        dup.setErrhandler(MPI.ERRORS_RETURN);
        int before = Ulfm.agree(dup, rank == size - 1 ? 0b0110 : 0b0111);
        assertThat(before).isEqualTo(0b0110);
        if (rank == size - 1) {
            Ulfm.revoke(dup);
        }
        // a revoked communicator still agrees (on its own messages: not the revoked ones)
        int all = Ulfm.agree(dup, 1 << rank % 30 | 1 << 30);
        assertThat(all).isEqualTo(size == 1 ? 1 << 30 | 1 : 1 << 30);
        assertThat(Ulfm.isRevoked(dup)).isTrue();
        Intracomm small = Ulfm.shrink(dup);
        assertThat(small.getSize()).isEqualTo(size);
        assertThat(small.getRank()).isEqualTo(rank);
        assertThat(Ulfm.isRevoked(small)).isFalse();
        int[] v = {rank};
        small.allReduce(v, 1, MPI.INT, MPI.SUM);
        assertThat(v[0]).isEqualTo(size * (size - 1) / 2);
        // a second shrink of the same revoked communicator gives another, independent one
        Intracomm again = Ulfm.shrink(dup);
        again.barrier();
        again.free();
        small.free();
        dup.free();
        // the agreement runs in the order of the calls, on several communicators at once
        int w = Ulfm.agree(MPI.COMM_WORLD, 3);
        assertThat(w).isEqualTo(3);
        // the non-blocking forms
        try {
            assertThat(Ulfm.iAgree(MPI.COMM_WORLD, rank == 0 ? 5 : 7).get()).isEqualTo(5); // 5 & 7
            Intracomm viaFuture = Ulfm.iShrink(MPI.COMM_WORLD).get();
            assertThat(viaFuture.getSize()).isEqualTo(size);
            viaFuture.barrier();
            viaFuture.free();
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new AssertionError(e);
        }
    }

    private static void aRevokedRendezvousIsRefused() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (size < 2) {
            return;
        }
        Intracomm dup = MPI.COMM_WORLD.dup();
        dup.setErrhandler(MPI.ERRORS_RETURN);
        byte[] big = new byte[1 << 20];
        Request r = null;
        if (rank == 1) {
            // a message far above every eager limit: it waits for a receive that rank 0 never posts
            r = dup.iSend(java.nio.ByteBuffer.allocateDirect(big.length), big.length, MPI.BYTE, 0, 5);
        }
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            Ulfm.revoke(dup);
        }
        if (rank == 1) {
            Request sent = r;
            assertThat(errorOf(sent::waitFor)).isEqualTo(Ulfm.ERR_REVOKED);
        }
        MPI.COMM_WORLD.barrier();
        dup.free();
    }

    private static void badHandles() throws MPIException {
        Intracomm dup = MPI.COMM_WORLD.dup();
        dup.free();
        assertThat(errorOf(() -> Ulfm.revoke(dup))).isEqualTo(MPI.ERR_COMM);
        assertThat(errorOf(() -> Ulfm.shrink(dup))).isEqualTo(MPI.ERR_COMM);
        assertThat(errorOf(() -> Ulfm.agree(dup, 1))).isEqualTo(MPI.ERR_COMM);
        assertThat(errorOf(() -> Ulfm.revoke((Comm) null))).isEqualTo(MPI.ERR_COMM);
        Intracomm none = MPI.COMM_WORLD.split(MPI.UNDEFINED, 0);
        assertThat(errorOf(() -> Ulfm.shrink(none))).isEqualTo(MPI.ERR_COMM);
        assertThat(errorOf(() -> Ulfm.isRevoked(none))).isEqualTo(MPI.ERR_COMM);
        assertThat(errorOf(() -> Ulfm.ackFailed(MPI.COMM_WORLD, -1))).isEqualTo(MPI.ERR_ARG);
        assertThatThrownBy(() -> Ulfm.iShrink(none).join()).hasRootCauseInstanceOf(MPIException.class);
    }
}
