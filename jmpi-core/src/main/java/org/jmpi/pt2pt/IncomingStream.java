package org.jmpi.pt2pt;

/**
 * A streamed eager message on its way in (STREAM frame, then STREAM_DATA frames; see {@link Protocol}): where its
 * pieces go and how many have come. Exactly one of {@link #receive} and {@link #unexpected} is set, or neither when
 * the message is being dropped. Guarded by the engine's matching lock; kept in the engine's per-peer list until its
 * last piece is in, then recycled.
 */
final class IncomingStream {
    /** The sending world rank and the id it gave the message. */
    int peer;
    long id;
    /** The message's length, and how many of its bytes have arrived (pieces are in order: the prefix). */
    long total;
    long received;
    /** The matched receive: pieces are copied straight into its buffer (by the progress owner, without the lock). */
    RecvRequest receive;
    /** No receive yet: pieces are gathered in this entry's buffer, from which the receive that matches it copies. */
    Unexpected unexpected;
    /** The sender failed before the last piece came: a receive that takes {@link #unexpected} fails. */
    boolean failed;
    /** Next stream of the same peer, or next free one. */
    IncomingStream next;

    IncomingStream set(int peer, long id, long total) {
        this.peer = peer;
        this.id = id;
        this.total = total;
        this.received = 0;
        this.receive = null;
        this.unexpected = null;
        this.failed = false;
        this.next = null;
        return this;
    }
}
