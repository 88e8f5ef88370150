package org.jmpi.bootstrap;

/**
 * A fault-tolerant agreement service of the process manager (jmpirun with {@code --continue-on-failure}): the ranks
 * of a group each contribute a flag under a key the group shares; the service answers every contributor once each
 * member has either contributed or is known to have failed. Because one party decides, every rank that gets an
 * answer gets the same one, whichever members fail during the call (ULFM's agree and shrink are built on it).
 */
public interface Agreement {
    /**
     * Contributes {@code flag} to the agreement {@code key} over {@code members} (world ranks, this rank among them);
     * the future completes with the decision, or exceptionally with a
     * {@link org.jmpi.bootstrap.pmi.PmiException} when the service is gone (the job is ending).
     *
     * @param newContext whether the decision should carry a fresh context id, unique in the job (for a new
     *     communicator over the survivors)
     */
    java.util.concurrent.CompletableFuture<Decision> agree(String key, int[] members, int flag, boolean newContext);

    /**
     * The decision.
     *
     * @param flag the bitwise AND of the flags contributed
     * @param failed the members known to have failed when the decision was made (world ranks, ascending)
     * @param context a context id of a range no communicator allocation uses, or -1 when none was asked for
     */
    record Decision(int flag, int[] failed, int context) {}
}
