package org.jmpi.runtime;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jmpi.pt2pt.Engine;

/**
 * What this rank knows of failed processes of its job (ULFM): the failed world ranks in the order they were
 * detected (from the launcher's failure notices and from broken connections), and what follows for communicators:
 * the collective context of every communicator with a failed member is poisoned (its collectives fail with
 * ERR_PROC_FAILED at every survivor instead of waiting), and a receive from ANY_SOURCE on a communicator with a failed
 * member it has not acknowledged fails with ERR_PROC_FAILED_PENDING.
 *
 * <p>Threading: any thread. The failed list is copy-on-write (appended rarely, read on each check); a failure is
 * recorded before the engine fails the operations that involve it, so checks made while it does see it.
 */
public final class Failures {
    private final Engine engine;
    private final CopyOnWriteArrayList<Integer> inOrder = new CopyOnWriteArrayList<>();
    private final java.util.Set<Integer> failed = ConcurrentHashMap.newKeySet();

    Failures(Engine engine) {
        this.engine = engine;
    }

    /** Whether any process of the job is known to have failed. */
    public boolean any() {
        return !inOrder.isEmpty();
    }

    /** The failed world ranks, in the order they were detected. */
    public int[] failedWorldRanks() {
        return inOrder.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Records a failure (idempotent) and poisons the collectives of every communicator that has it as a member. */
    void onFailure(int worldRank) {
        if (!failed.add(worldRank)) {
            return;
        }
        inOrder.add(worldRank);
        for (Communicator c : Communicator.registered()) {
            if (c.contains(worldRank)) {
                poisonCollectives(c);
            }
        }
    }

    /** A communicator was made: if a member has failed already, its collectives are poisoned from the start. */
    void onNewCommunicator(Communicator c) {
        for (int w : inOrder) {
            if (c.contains(w)) {
                poisonCollectives(c);
                return;
            }
        }
    }

    /** The collective context, and for a communicator used for collective work only the other one too. */
    private void poisonCollectives(Communicator c) {
        engine.poison(c.collectiveContext(), ErrorClass.ERR_PROC_FAILED);
        if (c.collectiveOnly()) {
            engine.poison(c.context(), ErrorClass.ERR_PROC_FAILED);
        }
    }

    /**
     * The failed members of {@code c} as world ranks, in the order of detection (for an intercommunicator, of both
     * groups).
     */
    public int[] failedMembers(Communicator c) {
        // one snapshot of the list: a failure recorded by another thread between reading the size and iterating made
        // the iteration longer than the array (an ArrayIndexOutOfBoundsException in MPI_Comm_failure_get_acked, seen
        // by CI under load)
        int[] all = failedWorldRanks();
        int n = 0;
        int[] out = new int[all.length];
        for (int w : all) {
            if (c.contains(w)) {
                out[n++] = w;
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** Whether {@code c} has a failed member whose failure it has not acknowledged ({@link Communicator#ack}). */
    public boolean unacknowledged(Communicator c) {
        if (inOrder.isEmpty()) {
            return false;
        }
        int n = 0;
        for (int w : inOrder) {
            if (c.contains(w)) {
                n++;
            }
        }
        return n > c.acknowledged();
    }
}
