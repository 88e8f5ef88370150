package org.jmpi.pt2pt;

/**
 * Frame kinds of the point-to-point protocols over a {@link org.jmpi.transport.Transport}, and what each header
 * field carries (see {@link org.jmpi.transport.FrameLayout}).
 *
 * <pre>
 * EAGER  context, source, tag, TOTAL=bytes              payload = the whole message
 * RTS    context, source, tag, TOTAL=bytes, SEND_ID      (rendezvous request: no payload)
 * CTS    SEND_ID, RECV_ID, TOTAL=bytes wanted            (clear to send; wanted &lt; bytes on truncation)
 * DATA   RECV_ID, TOTAL=offset of this chunk             payload = a chunk of the message
 * </pre>
 */
final class Protocol {
    private Protocol() {}

    static final int EAGER = 1;
    static final int RTS = 2;
    static final int CTS = 3;
    static final int DATA = 4;
}
