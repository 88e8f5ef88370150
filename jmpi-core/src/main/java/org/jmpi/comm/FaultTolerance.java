package org.jmpi.comm;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import org.jmpi.bootstrap.Agreement;
import org.jmpi.datatype.MessageData;
import org.jmpi.pt2pt.Engine;
import org.jmpi.pt2pt.RecvRequest;
import org.jmpi.pt2pt.SendMode;
import org.jmpi.pt2pt.SendRequest;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;

/**
 * The communicator side of ULFM (user-level failure mitigation): revoke, agree, shrink, and the failed-process
 * queries, called by the public {@code org.jmpi.ft.Ulfm}.
 *
 * <h2>Agreement</h2>
 * Under jmpirun with {@code --continue-on-failure} the launcher decides ({@link Agreement}, served by jmpirun's front
 * end): every member contributes its flag under a key made of the communicator's context, the agreement's sequence
 * number on it and a hash of its members; the front end answers once every member has contributed or is known to
 * have failed, with the AND of the flags, the failed members, and for a shrink a context id from a range that no
 * communicator allocation uses. One party decides, so every survivor gets the same answer, however many members
 * fail during the call. Elsewhere (threads mode, other launchers, a singleton) a failure ends the job, so no
 * survivor ever waits for a dead member and plain messages suffice: a gather of the flags to the lowest member and a
 * broadcast of the result, on a shadow context that revocation does not poison, and for shrink a context agreed
 * over the same shadow context.
 *
 * <p>Threading: every call may be made by any thread of a member, one agreement at a time per communicator and in the
 * same order at every member (as for collectives).
 */
public final class FaultTolerance {
    /** Shadow contexts (agreements without a launcher): the communicator's context with this bit set. */
    static final int SHADOW_BIT = 1 << 30;

    private FaultTolerance() {}

    /** Revokes {@code c} at every member (MPIX_Comm_revoke). */
    public static void revoke(Communicator c) {
        JmpiRuntime.get().revocation().revoke(c);
    }

    /** The failed members of {@code c} as world ranks, in the order they were detected. */
    public static int[] failedMembers(Communicator c) {
        return JmpiRuntime.get().failures().failedMembers(c);
    }

    /**
     * Acknowledges the first {@code n} failed members of {@code c} (in the order of {@link #failedMembers}; more than
     * have failed acknowledges them all) and returns how many are acknowledged now. Acknowledging every failed member
     * lets receives from ANY_SOURCE on {@code c} wait again.
     */
    public static int ackFailed(Communicator c, int n) {
        int failed = failedMembers(c).length;
        int acked = Math.max(c.acknowledged(), Math.min(n, failed));
        c.acknowledge(acked);
        return acked;
    }

    /**
     * Agrees on the bitwise AND of {@code flag} over the members of {@code c} that did not fail (MPIX_Comm_agree);
     * works on a revoked communicator. Failures the decision names are recorded here too.
     */
    public static int agree(Communicator c, int flag) {
        return decide(c, flag, false).flag();
    }

    /**
     * A new intracommunicator of the members of {@code c} that did not fail, in the same relative order
     * (MPIX_Comm_shrink); works on a revoked communicator.
     */
    public static Communicator shrink(Communicator c) {
        if (c.isInter()) {
            throw new MpiError(ErrorClass.ERR_COMM, "shrink of an intercommunicator is not supported");
        }
        JmpiRuntime rt = JmpiRuntime.get();
        Agreement service = rt.bootstrap().agreement();
        int me = rt.rank();
        if (service != null) {
            Agreement.Decision d = decide(c, 1, true);
            int[] survivors = survivors(c.worldRanks(), d.failed());
            return new Communicator(d.context(), survivors, indexOf(survivors, me));
        }
        int[] survivors = survivors(c.worldRanks(), rt.failures().failedWorldRanks());
        Communicator helper = new Communicator(SHADOW_BIT | c.context(), survivors, indexOf(survivors, me));
        int context = ContextIds.get().allocate(helper);
        return new Communicator(context, survivors, indexOf(survivors, me));
    }

    private static Agreement.Decision decide(Communicator c, int flag, boolean newContext) {
        JmpiRuntime rt = JmpiRuntime.get();
        int[] members = c.allMembers();
        for (int w : members) {
            if (w >= rt.size()) {
                throw new MpiError(ErrorClass.ERR_UNSUPPORTED_OPERATION,
                        "agreement over processes of another job (dynamic processes) is not supported");
            }
        }
        int seq = c.nextAgreement();
        Agreement service = rt.bootstrap().agreement();
        if (service == null) {
            return new Agreement.Decision(gatherAndBroadcast(c, members, flag, seq), new int[0], -1);
        }
        String key = "c" + c.context() + "." + seq + "." + Long.toHexString(c.membersHash());
        CompletableFuture<Agreement.Decision> f = service.agree(key, members, flag, newContext);
        rt.progress().awaitUntil(f::isDone);
        Agreement.Decision d;
        try {
            d = f.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw new MpiError(ErrorClass.ERR_INTERN, "the launcher's agreement failed: " + e.getCause().getMessage());
        }
        for (int w : d.failed()) {
            if (!rt.engine().peerFailed(w)) {
                rt.engine().onPeerFailure(w, new java.io.IOException("rank " + w + " failed (reported by an agreement)"));
            }
        }
        return d;
    }

    /** Without a launcher to decide: the flags go to the lowest member, which sends back their AND. */
    private static int gatherAndBroadcast(Communicator c, int[] members, int flag, int seq) {
        JmpiRuntime rt = JmpiRuntime.get();
        Engine engine = rt.engine();
        int me = indexOf(members, rt.rank());
        int context = SHADOW_BIT | c.context();
        int tag = seq & 0x3fffffff;
        int[] value = {flag};
        MessageData data = new MessageData.SegmentData(MemorySegment.ofArray(value));
        if (me == 0) {
            int[] in = new int[1];
            for (int i = 1; i < members.length; i++) {
                RecvRequest r = engine.irecv(new MessageData.SegmentData(MemorySegment.ofArray(in)), context, i, tag);
                rt.progress().await(r);
                check(r.error(), r.errorMessage());
                value[0] &= in[0];
            }
            SendRequest[] out = new SendRequest[members.length];
            for (int i = 1; i < members.length; i++) {
                out[i] = engine.isend(data, members[i], context, 0, tag, SendMode.STANDARD);
            }
            for (int i = 1; i < members.length; i++) {
                rt.progress().await(out[i]);
                check(out[i].error(), out[i].errorMessage());
            }
            return value[0];
        }
        SendRequest s = engine.isend(data, members[0], context, me, tag, SendMode.STANDARD);
        rt.progress().await(s);
        check(s.error(), s.errorMessage());
        int[] result = new int[1];
        RecvRequest r = engine.irecv(new MessageData.SegmentData(MemorySegment.ofArray(result)), context, 0, tag);
        rt.progress().await(r);
        check(r.error(), r.errorMessage());
        return result[0];
    }

    private static void check(int error, String message) {
        if (error != 0) {
            throw new MpiError(error, message);
        }
    }

    private static int[] survivors(int[] ranks, int[] failed) {
        java.util.Set<Integer> dead = new java.util.HashSet<>();
        for (int w : failed) {
            dead.add(w);
        }
        return java.util.Arrays.stream(ranks).filter(w -> !dead.contains(w)).toArray();
    }

    private static int indexOf(int[] ranks, int w) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == w) {
                return i;
            }
        }
        throw new MpiError(ErrorClass.ERR_INTERN, "rank " + w + " is not among " + java.util.Arrays.toString(ranks));
    }
}
