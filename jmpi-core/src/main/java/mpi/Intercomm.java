package mpi;

import org.jmpi.comm.Intercomms;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.MpiError;

/**
 * An intercommunicator: communication between two disjoint groups of processes. Ranks given to point-to-point
 * calls name processes of the remote group; {@link #getSize()} and {@link #getRank()} describe the local group.
 */
public final class Intercomm extends Comm {
    /** The intracommunicator of the local group, for the collectives (made on first use). */
    private Communicator local;

    Intercomm() {}

    /** The local group's intracommunicator, on the third context of this intercommunicator's slot. */
    synchronized Communicator local() {
        Communicator c = live();
        if (local == null || local.context() != c.context() + 2) {
            local = Intercomms.localOf(c);
        }
        return local;
    }

    @Override
    public Intercomm clone() {
        return (Intercomm) super.clone();
    }

    @Override
    Intercomm blank() {
        return new Intercomm();
    }

    @Override
    public Intercomm dup() throws MPIException {
        return (Intercomm) super.dup();
    }

    @Override
    public Intercomm iDup() throws MPIException {
        return (Intercomm) super.iDup();
    }

    @Override
    public Intercomm dupWithInfo(Info info) throws MPIException {
        return (Intercomm) super.dupWithInfo(info);
    }

    @Override
    public Intercomm iDupWithInfo(Info info) throws MPIException {
        return (Intercomm) super.iDupWithInfo(info);
    }

    public int getRemoteSize() throws MPIException {
        try {
            return live().size();
        } catch (MpiError e) {
            throw fail("MPI_Comm_remote_size", e);
        }
    }

    public Group getRemoteGroup() throws MPIException {
        try {
            Communicator c = live();
            return new Group(c.worldRanks(), c.localWorldRanks()[c.rank()]);
        } catch (MpiError e) {
            throw fail("MPI_Comm_remote_group", e);
        }
    }

    /**
     * An intracommunicator over both groups: the group whose processes pass {@code high = false} comes first (when
     * both groups pass the same value, the group whose leader has the lower world rank).
     */
    public Intracomm merge(boolean high) throws MPIException {
        try {
            return CommOps.adopt(this, new Intracomm(), Intercomms.merge(live(), high), false);
        } catch (MpiError e) {
            throw fail("MPI_Intercomm_merge", e);
        }
    }

    /**
     * The intercommunicator to the parents of a spawned job (the same object every call), or a null handle
     * ({@code isNull()}, MPI_COMM_NULL) in a job that was not spawned or after the parent was disconnected.
     */
    public static Intercomm getParent() throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            Intercomm p = MPI.parent;
            return p != null && !p.isNull() ? p : CommOps.nullComm(MPI.COMM_WORLD, new Intercomm());
        } catch (MpiError e) {
            throw Errors.raise("MPI_Comm_get_parent", e);
        }
    }
}
