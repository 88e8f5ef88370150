package org.jmpi.ft;

import java.util.concurrent.CompletableFuture;
import mpi.Comm;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPIException;
import org.jmpi.comm.FaultTolerance;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.FacadeAccess;
import org.jmpi.runtime.MpiError;

/**
 * User-level failure mitigation (ULFM, the MPIX_ interface of MPICH and Open MPI): what survivors of a process
 * failure use to carry on. It applies when failures do not end the job, that is under {@code jmpirun
 * --continue-on-failure} (see docs/fault-tolerance.md); the calls also work, failure-free, in every other mode.
 *
 * <p>After a process fails, operations that involve it raise an {@link MPIException} (under
 * {@code MPI.ERRORS_RETURN}) with error class {@link #ERR_PROC_FAILED}: point-to-point with it, and every
 * collective on a communicator that contains it, at every survivor (possibly different errors at different
 * members). A receive from {@code MPI.ANY_SOURCE} on such a communicator raises {@link #ERR_PROC_FAILED} (blocking:
 * the receive is withdrawn) or {@link #ERR_PROC_FAILED_PENDING} (non-blocking: the request stays pending and may be
 * waited for again) until the failure is acknowledged with {@link #ackFailed}. A program then typically
 * {@link #revoke}s the communicator, so that every member stops using it ({@link #ERR_REVOKED}), {@link #agree}s
 * on how to go on and {@link #shrink}s it to the survivors.
 *
 * <p>Names follow MPI-4.1's ULFM proposal as MPICH 4 and Open MPI 5 ship it: {@code MPIX_Comm_revoke},
 * {@code MPIX_Comm_is_revoked}, {@code MPIX_Comm_shrink}, {@code MPIX_Comm_ishrink}, {@code MPIX_Comm_agree},
 * {@code MPIX_Comm_iagree}, {@code MPIX_Comm_get_failed}, {@code MPIX_Comm_ack_failed}.
 */
public final class Ulfm {
    /** A process involved in the operation failed (Open MPI's MPIX_ERR_PROC_FAILED). */
    public static final int ERR_PROC_FAILED = ErrorClass.ERR_PROC_FAILED;
    /** A non-blocking receive from ANY_SOURCE met an unacknowledged failure and stays pending. */
    public static final int ERR_PROC_FAILED_PENDING = ErrorClass.ERR_PROC_FAILED_PENDING;
    /** The communicator was revoked. */
    public static final int ERR_REVOKED = ErrorClass.ERR_REVOKED;

    private Ulfm() {}

    /**
     * Revokes {@code comm} at every member (MPIX_Comm_revoke): every pending and later operation on it, at any
     * member, raises {@link #ERR_REVOKED}, except {@link #agree}, {@link #shrink}, {@link #getFailed} and
     * {@link #ackFailed}. Not collective: one member calls it, the others learn it (even if the caller dies during
     * the call). Revoking twice is harmless.
     */
    public static void revoke(Comm comm) throws MPIException {
        try {
            FaultTolerance.revoke(live(comm));
        } catch (MpiError e) {
            throw raise(comm, "MPIX_Comm_revoke", e);
        }
    }

    /** Whether {@code comm} was revoked, here or by another member whose notice has arrived (MPIX_Comm_is_revoked). */
    public static boolean isRevoked(Comm comm) throws MPIException {
        try {
            return live(comm).isRevoked();
        } catch (MpiError e) {
            throw raise(comm, "MPIX_Comm_is_revoked", e);
        }
    }

    /**
     * A new intracommunicator of the members of {@code comm} that have not failed, in their relative order
     * (MPIX_Comm_shrink). Collective over the survivors; works on a revoked communicator, and every survivor gets a
     * communicator of the same members even when more processes fail during the call. Intracommunicators only.
     */
    public static Intracomm shrink(Intracomm comm) throws MPIException {
        try {
            Communicator c = FaultTolerance.shrink(live(comm));
            return (Intracomm) FacadeAccess.get().intracomm(comm, c);
        } catch (MpiError e) {
            throw raise(comm, "MPIX_Comm_shrink", e);
        }
    }

    /**
     * {@link #shrink} without waiting (MPIX_Comm_ishrink): it runs in a thread of its own, so the job must tolerate a
     * second thread calling MPI (the ranks' engine does). The future fails with the {@link MPIException}.
     */
    public static CompletableFuture<Intracomm> iShrink(Intracomm comm) {
        CompletableFuture<Intracomm> f = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("jmpi-ishrink").start(() -> {
            try {
                f.complete(shrink(comm));
            } catch (MPIException | RuntimeException e) {
                f.completeExceptionally(e);
            }
        });
        return f;
    }

    /**
     * Agrees on the bitwise AND of {@code flag} over the members of {@code comm} that have not failed
     * (MPIX_Comm_agree). Collective; works on a revoked communicator; every survivor gets the same value, however
     * many processes fail during the call. Unlike the C call, it does not raise {@link #ERR_PROC_FAILED} for failed
     * members (Java cannot return a value and raise): call {@link #getFailed} to see whether any member failed.
     */
    public static int agree(Comm comm, int flag) throws MPIException {
        try {
            return FaultTolerance.agree(live(comm), flag);
        } catch (MpiError e) {
            throw raise(comm, "MPIX_Comm_agree", e);
        }
    }

    /** {@link #agree} without waiting (MPIX_Comm_iagree), in a thread of its own as {@link #iShrink}. */
    public static CompletableFuture<Integer> iAgree(Comm comm, int flag) {
        CompletableFuture<Integer> f = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("jmpi-iagree").start(() -> {
            try {
                f.complete(agree(comm, flag));
            } catch (MPIException | RuntimeException e) {
                f.completeExceptionally(e);
            }
        });
        return f;
    }

    /**
     * The members of {@code comm} known here to have failed, in the order they were detected (MPIX_Comm_get_failed).
     * Local; the group grows as failures become known.
     */
    public static Group getFailed(Comm comm) throws MPIException {
        try {
            return (Group) FacadeAccess.get().group(FaultTolerance.failedMembers(live(comm)));
        } catch (MpiError e) {
            throw raise(comm, "MPIX_Comm_get_failed", e);
        }
    }

    /**
     * Acknowledges the first {@code numToAck} failed members of {@code comm}, in the order of {@link #getFailed}
     * (MPIX_Comm_ack_failed), and returns how many are acknowledged now. Once every failed member is acknowledged,
     * receives from ANY_SOURCE on {@code comm} wait again (and pending ones may be waited for). Local.
     */
    public static int ackFailed(Comm comm, int numToAck) throws MPIException {
        try {
            if (numToAck < 0) {
                throw new MpiError(ErrorClass.ERR_ARG, "numToAck must not be negative: " + numToAck);
            }
            return FaultTolerance.ackFailed(live(comm), numToAck);
        } catch (MpiError e) {
            throw raise(comm, "MPIX_Comm_ack_failed", e);
        }
    }

    private static Communicator live(Comm comm) {
        return FacadeAccess.get().communicator(comm);
    }

    private static MPIException raise(Comm comm, String call, MpiError e) {
        return (MPIException) FacadeAccess.get().raise(comm, call, e);
    }
}
