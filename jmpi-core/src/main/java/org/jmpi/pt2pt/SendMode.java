package org.jmpi.pt2pt;

/** MPI send modes as the protocols see them. */
public enum SendMode {
    /** Standard: buffered eagerly when small, rendezvous when large. */
    STANDARD,
    /** Synchronous: completes only once a matching receive has started. */
    SYNCHRONOUS,
    /** Ready: the receive is known to be posted; treated like standard. */
    READY
}
