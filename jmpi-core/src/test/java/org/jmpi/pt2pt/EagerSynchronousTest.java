package org.jmpi.pt2pt;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import org.jmpi.datatype.BaseKind;
import org.jmpi.datatype.BufferView;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.pt2pt.StreamedEagerTest.Loopback;
import org.jmpi.runtime.ErrorClass;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link SendMode#EAGER_SYNCHRONOUS} (the collectives' pacing) between two engines joined by a loopback whose frames
 * the test delivers: the data goes at once in an EAGER frame, and the send completes only when the receiver has
 * matched it (its DONE), whether the receive was posted first or came later; a receiver that may no longer take the
 * message, or that fails, ends the send with an error instead of leaving it waiting.
 */
@Timeout(value = 60, unit = SECONDS)
class EagerSynchronousTest {
    private static final TypeDescriptor BYTE = TypeDescriptor.primitive(BaseKind.BYTE);
    private static final int CONTEXT = StreamedEagerTest.CONTEXT;

    Loopback t0;
    Loopback t1;
    Engine e0;
    Engine e1;

    @BeforeEach
    void wire() {
        t0 = new Loopback(false);
        t1 = new Loopback(false);
        StreamedEagerTest.join(t0, t1);
        e0 = t0.engine;
        e1 = t1.engine;
    }

    private SendRequest send(byte[] out, int tag) {
        return e0.isend(BufferView.of(out, out.length, BYTE, false), 1, CONTEXT, 0, tag, SendMode.EAGER_SYNCHRONOUS);
    }

    private RecvRequest recv(byte[] in, int tag) {
        return e1.irecv(BufferView.of(in, in.length, BYTE, true), CONTEXT, 0, tag);
    }

    private static byte[] pattern(int n, int seed) {
        byte[] a = new byte[n];
        for (int i = 0; i < n; i++) {
            a[i] = (byte) (i * 7 + seed);
        }
        return a;
    }

    @Test
    void aPostedReceiveGetsTheDataAtOnceAndTheSendCompletesOnItsAnswer() {
        byte[] in = new byte[100];
        RecvRequest r = recv(in, 4);
        byte[] out = pattern(100, 3);
        SendRequest s = send(out, 4);
        assertThat(t0.kinds).as("the data goes at once, no handshake").containsExactly(Protocol.EAGER);
        assertThat(s.isDone()).as("written is not enough").isFalse();
        t1.deliver(Integer.MAX_VALUE);
        assertThat(r.isDone()).isTrue();
        assertThat(in).isEqualTo(out);
        assertThat(t1.kinds).as("the receiver's answer").containsExactly(Protocol.DONE);
        assertThat(s.isDone()).isFalse();
        t0.deliver(Integer.MAX_VALUE);
        assertThat(s.isDone()).isTrue();
        assertThat(s.error()).isZero();
    }

    @Test
    void anUnexpectedMessageCompletesItsSendOnlyWhenAReceiveTakesIt() {
        byte[] out = pattern(40, 1);
        SendRequest s = send(out, 9);
        SendRequest plain = e0.isend(BufferView.of(pattern(8, 2), 8, BYTE, false), 1, CONTEXT, 0, 9,
                SendMode.STANDARD);
        assertThat(plain.isDone()).as("a standard eager send completes when written").isTrue();
        t1.deliver(Integer.MAX_VALUE);
        assertThat(e1.unexpectedMessages()).isEqualTo(2);
        assertThat(t1.kinds).as("nothing answered while unmatched").isEmpty();
        t0.deliver(Integer.MAX_VALUE);
        assertThat(s.isDone()).isFalse();
        byte[] in = new byte[40];
        RecvRequest r = recv(in, 9);
        assertThat(r.isDone()).isTrue();
        assertThat(in).isEqualTo(out);
        byte[] second = new byte[8];
        assertThat(recv(second, 9).isDone()).as("the standard message, after it in order").isTrue();
        assertThat(t1.kinds).containsExactly(Protocol.DONE);
        t0.deliver(Integer.MAX_VALUE);
        assertThat(s.isDone()).isTrue();
        assertThat(s.error()).isZero();
    }

    @Test
    void aLargeMessageTakesTheRendezvousAndStillCompletesWhenMatched() {
        byte[] out = pattern(3 * StreamedEagerTest.EAGER, 5); // above the eager limit: synchronous rendezvous
        SendRequest s = send(out, 2);
        assertThat(t0.kinds).containsExactly(Protocol.RTS);
        t1.deliver(Integer.MAX_VALUE);
        byte[] in = new byte[out.length];
        RecvRequest r = recv(in, 2);
        for (int i = 0; i < 10 && !(r.isDone() && s.isDone()); i++) {
            t0.deliver(Integer.MAX_VALUE);
            t1.deliver(Integer.MAX_VALUE);
        }
        assertThat(r.isDone()).isTrue();
        assertThat(in).isEqualTo(out);
        assertThat(s.isDone()).isTrue();
        assertThat(s.error()).isZero();
    }

    @Test
    void aRevokedReceiverRefusesTheMessageAndTheSendFails() {
        SendRequest s = send(pattern(16, 0), 1);
        t1.deliver(Integer.MAX_VALUE);
        e1.poison(CONTEXT, ErrorClass.ERR_REVOKED);
        assertThat(e1.unexpectedMessages()).isZero();
        t0.deliver(Integer.MAX_VALUE);
        assertThat(s.isDone()).isTrue();
        assertThat(s.error()).isEqualTo(ErrorClass.ERR_REVOKED);
    }

    @Test
    void aMessageArrivingAtARevokedContextIsRefusedToo() {
        e1.poison(CONTEXT, ErrorClass.ERR_REVOKED);
        SendRequest s = send(pattern(16, 0), 1);
        t1.deliver(Integer.MAX_VALUE);
        t0.deliver(Integer.MAX_VALUE);
        assertThat(s.isDone()).isTrue();
        assertThat(s.error()).isEqualTo(ErrorClass.ERR_REVOKED);
    }

    private boolean sendAnswered(byte[] out, int tag) {
        return e0.sendAnswered(BufferView.of(out, out.length, BYTE, false), 1, CONTEXT, 0, tag);
    }

    /**
     * The lane's form ({@link Engine#sendAnswered}, the pacing's message where a lane takes it): the message goes as a
     * lane record, and the receiver answers MATCHED once a receive matched it, posted before or after it came; the
     * sender counts the answers, so that a later one waits only while one is missing.
     */
    @Test
    void aLaneMessageIsAnsweredOnceMatchedWhetherTheReceiveCameFirstOrNot() {
        t0.offersLane = true;
        t1.offersLane = true;
        byte[] in = new byte[8];
        RecvRequest r = recv(in, 4);
        byte[] out = pattern(8, 6);
        assertThat(sendAnswered(out, 4)).isTrue();
        assertThat(t0.shortKinds).containsExactly(Protocol.EAGER_ANSWERED);
        assertThat(e0.unanswered(1)).isEqualTo(1);
        t1.deliver(Integer.MAX_VALUE);
        assertThat(r.isDone()).isTrue();
        assertThat(in).isEqualTo(out);
        assertThat(t1.shortKinds).as("the receiver's answer").containsExactly(Protocol.MATCHED);
        t0.deliver(Integer.MAX_VALUE);
        assertThat(e0.unanswered(1)).isZero();

        byte[] late = pattern(5, 9);
        assertThat(sendAnswered(late, 7)).as("the one before is answered: no wait").isTrue();
        assertThat(e0.unanswered(1)).isEqualTo(1);
        t1.deliver(Integer.MAX_VALUE);
        assertThat(e1.unexpectedMessages()).isEqualTo(1);
        assertThat(t1.shortKinds).as("nothing answered while unmatched").containsExactly(Protocol.MATCHED);
        byte[] got = new byte[5];
        assertThat(recv(got, 7).isDone()).isTrue();
        assertThat(got).isEqualTo(late);
        assertThat(t1.shortKinds).containsExactly(Protocol.MATCHED, Protocol.MATCHED);
        t0.deliver(Integer.MAX_VALUE);
        assertThat(e0.unanswered(1)).isZero();
    }

    /** A lane message the receiver drops (its context revoked after or before it came) is answered all the same. */
    @Test
    void aDroppedLaneMessageIsAnsweredToo() {
        t0.offersLane = true;
        t1.offersLane = true;
        assertThat(sendAnswered(pattern(16, 0), 1)).isTrue();
        t1.deliver(Integer.MAX_VALUE);
        e1.poison(CONTEXT, ErrorClass.ERR_REVOKED);
        assertThat(e1.unexpectedMessages()).isZero();
        t0.deliver(Integer.MAX_VALUE);
        assertThat(e0.unanswered(1)).isZero();
        assertThat(sendAnswered(pattern(16, 1), 1)).isTrue();
        t1.deliver(Integer.MAX_VALUE);
        t0.deliver(Integer.MAX_VALUE);
        assertThat(t1.shortKinds).containsExactly(Protocol.MATCHED, Protocol.MATCHED);
        assertThat(e0.unanswered(1)).isZero();
    }

    /** Without a lane the caller sends the usual way: nothing is sent, nothing counted. */
    @Test
    void withoutALaneNothingIsSent() {
        assertThat(sendAnswered(pattern(16, 0), 1)).isFalse();
        assertThat(t0.kinds).isEmpty();
        assertThat(e0.unanswered(1)).isZero();
    }

    @Test
    void theSendFailsWhenTheReceiverFails() {
        SendRequest s = send(pattern(16, 0), 1);
        t1.deliver(Integer.MAX_VALUE);
        e0.onPeerFailure(1, new java.io.IOException("killed"));
        assertThat(s.isDone()).isTrue();
        assertThat(s.error()).isEqualTo(ErrorClass.ERR_PROC_FAILED);
    }
}
