package org.jmpi.runtime;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jmpi.datatype.MessageData;
import org.jmpi.pt2pt.Engine;

/**
 * Revocation of communicators (ULFM's MPI_Comm_revoke). A revoked communicator's point-to-point and collective
 * contexts (and, for an intercommunicator, the pair of its local group) are poisoned in the engine with ERR_REVOKED:
 * every pending and later operation on it fails at every member, whatever it waits for.
 *
 * <h2>Propagation</h2>
 * The revoking process sends a control message (context {@link #REVOKE_CONTEXT}, never matched; tag = the revoked
 * communicator's point-to-point context; payload = a hash of its members, so that a late notice for a freed
 * communicator whose context was reused by another group is ignored) to every other member. Each member that
 * learns of the revocation for the first time revokes locally and forwards the notice to every other member: a
 * flood, so that the revocation reaches every live member even when the revoker dies half-way through its sends
 * (the fault-tolerant broadcast of the ULFM papers; {@code O(n^2)} small messages, once per revocation). Sends to
 * failed members fail at once and are ignored.
 *
 * <p>Threading: notices arrive in whatever thread delivers messages (the progress owner, or a sender's thread in
 * threads mode); {@link Communicator#markRevoked} makes the first one win, the handler never blocks.
 */
public final class Revocation implements Engine.ControlHandler {
    /** Context of revocation notices (control messages are on negative contexts). */
    public static final int REVOKE_CONTEXT = -2;

    private final Engine engine;
    private final int worldRank;

    Revocation(Engine engine, int worldRank) {
        this.engine = engine;
        this.worldRank = worldRank;
    }

    /** Revokes {@code c} here and tells every other member (idempotent). */
    public void revoke(Communicator c) {
        if (revokeHere(c)) {
            flood(c, -1);
        }
    }

    @Override
    public void onControl(int context, int source, int tag, MemorySegment payload) {
        if (context != REVOKE_CONTEXT || payload.byteSize() != Long.BYTES) {
            return;
        }
        Communicator c = Communicator.forContext(tag);
        if (c == null || c.context() != tag || c.membersHash() != payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)) {
            return; // not (or no longer) a communicator of this rank
        }
        if (revokeHere(c)) {
            flood(c, source);
        }
    }

    private boolean revokeHere(Communicator c) {
        if (!c.markRevoked()) {
            return false;
        }
        engine.poison(c.context(), ErrorClass.ERR_REVOKED);
        engine.poison(c.collectiveContext(), ErrorClass.ERR_REVOKED);
        if (c.isInter()) {
            engine.poison(c.context() + 2, ErrorClass.ERR_REVOKED);
            engine.poison(c.context() + 3, ErrorClass.ERR_REVOKED);
        }
        return true;
    }

    private void flood(Communicator c, int from) {
        long hash = c.membersHash();
        java.util.Set<Integer> members = new java.util.LinkedHashSet<>();
        for (int w : c.worldRanks()) {
            members.add(w);
        }
        for (int w : c.localWorldRanks()) {
            members.add(w);
        }
        for (int w : members) {
            if (w == worldRank || w == from || engine.peerFailed(w)) {
                continue;
            }
            MemorySegment m = MemorySegment.ofArray(new long[] {hash});
            engine.sendControl(new MessageData.SegmentData(m), w, REVOKE_CONTEXT, worldRank, c.context());
        }
    }
}
