package org.jmpi.pt2pt;

/** MPI send modes as the protocols see them. */
public enum SendMode {
    /** Standard: buffered eagerly when small, rendezvous when large. */
    STANDARD,
    /** Synchronous: completes only once a matching receive has started. */
    SYNCHRONOUS,
    /** Ready: the receive is known to be posted; treated like standard. */
    READY,
    /**
     * Synchronous, with the data sent at once when it fits the eager limit: an EAGER frame that carries a send id,
     * which the receiver answers with DONE once a receive has matched it; the request completes then. Larger messages
     * are sent as {@link #SYNCHRONOUS}. Internal (the collectives' pacing, org.jmpi.coll.Immediate): such a send is
     * never cancelled (a cancel finds it too late and the send completes normally).
     */
    EAGER_SYNCHRONOUS
}
