package org.jmpi.pt2pt;

import org.jmpi.transport.Lane;

/**
 * Frame kinds of the point-to-point protocols over a {@link org.jmpi.transport.Transport}, and what each header
 * field carries (see {@link org.jmpi.transport.FrameLayout}).
 *
 * <pre>
 * EAGER  context, source, tag, TOTAL=bytes              payload = the whole message
 *        SEND_ID=0, or the send id of an eager synchronous send: the receiver answers DONE once it is matched
 * RTS    context, source, tag, TOTAL=bytes, SEND_ID      (rendezvous request: no payload)
 * CTS    SEND_ID, RECV_ID, TOTAL=bytes wanted            (clear to send; wanted &lt; bytes on truncation)
 * DATA   RECV_ID, TOTAL=offset of this chunk             payload = a chunk of the message
 * CREDIT TOTAL=bytes of flow-control credit returned      (the receiver consumed that much)
 * CANCEL SEND_ID                                          (the sender wants to withdraw an unmatched RTS)
 * CANCELLED SEND_ID, FLAGS=1 if withdrawn, 0 if too late, 2 if refused (TOTAL = MPI error class: the
 *                                                        receiver's context was revoked or its collectives failed)
 * DONE   SEND_ID                                         (single copy: the receiver read the data itself; or an
 *                                                        eager synchronous message was matched)
 * SPLIT  SEND_ID, RECV_ID, TOTAL=k   payload = receiver's buffer address, bytes wanted (two longs)
 *                                                        (split single copy: the sender writes [k, wanted) itself)
 * WROTE  RECV_ID, TOTAL=bytes the sender wrote into the receiver's buffer
 * STREAM context, source, tag, TOTAL=bytes, SEND_ID=stream id    payload = the message's first piece
 * STREAM_DATA SEND_ID=stream id, TOTAL=offset of this piece       payload = the next piece
 * EAGER_ANSWERED  as EAGER with SEND_ID=0, written by the lane; the receiver answers MATCHED once it is matched
 * MATCHED no fields                                        (an EAGER_ANSWERED message from this rank was matched or
 *                                                        dropped; the sender counts these, see Engine#sendAnswered)
 * </pre>
 *
 * <p>Streamed eager messages (STREAM): a message above the eager limit that the receiver cannot read from the
 * sender's memory itself (a Java array, say) and that is not larger than the transport's stream limit is sent at once,
 * in pieces, like an eager message but without being copied in one piece: the receiver matches the STREAM frame and
 * copies every piece into the posted buffer as it comes, so that its copies overlap the sender's, and no RTS/CTS
 * round trip is paid. Unmatched, the pieces are gathered in the unexpected entry. It is charged to flow control like
 * an eager message of its length, and sent this way only when that leaves at least half the window free (else it
 * takes the rendezvous): streams never wait for credit, and small eager messages never wait behind them. The pieces
 * of one message come in order, but may be interleaved with other frames.
 *
 * <p>Single copy ({@link SingleCopyRendezvous}): an RTS with {@link #FLAG_SINGLE_COPY} in FLAGS carries the address of
 * the sender's (native, contiguous) buffer in RECV_ID; the receiver may read it directly and answer DONE instead of
 * CTS.
 *
 * <p>Flow control: a sender may have at most {@code jmpi.flow.window} bytes of EAGER and RTS frames (each
 * charged its payload plus {@link #OVERHEAD}) not yet consumed by the receiver; frames beyond that wait, in
 * order, in the sender's per-peer queue. The receiver returns credit (CREDIT frames) as it matches them.
 */
final class Protocol {
    private Protocol() {}

    static final int EAGER = 1;
    static final int RTS = 2;
    static final int CTS = 3;
    static final int DATA = 4;
    static final int CREDIT = 5;
    static final int CANCEL = 6;
    static final int CANCELLED = 7;
    static final int DONE = 8;
    static final int SPLIT = 9;
    static final int WROTE = 10;
    static final int STREAM = 11;
    static final int STREAM_DATA = 12;
    /** EAGER with the lane's answered bit: taken by the lane as an EAGER frame (see {@link Lane#ANSWERED}). */
    static final int EAGER_ANSWERED = EAGER | Lane.ANSWERED;
    static final int MATCHED = 13;

    /** RTS flag: RECV_ID holds the address of the sender's buffer, readable through the transport's single copy. */
    static final int FLAG_SINGLE_COPY = 1;

    /** CANCELLED flag: the receiver refused an unmatched RTS on a poisoned context; TOTAL holds the error class. */
    static final int CANCELLED_REFUSED = 2;

    /** Flow-control charge of a frame beyond its payload: about what an unexpected entry costs the receiver. */
    static final long OVERHEAD = 96;
}
