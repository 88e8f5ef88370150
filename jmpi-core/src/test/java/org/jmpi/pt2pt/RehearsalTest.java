package org.jmpi.pt2pt;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import org.jmpi.datatype.BaseKind;
import org.jmpi.datatype.BufferView;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.shared.BiasedLock;
import org.jmpi.shared.Membarrier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine rehearses the paths the barrier's registration opens on a few of a rank's first sends, and nothing a
 * program or a peer sees changes: every message arrives once, in order, with its bytes; real locks are not biased by
 * it.
 */
@Timeout(value = 60, unit = SECONDS)
class RehearsalTest {
    private static final TypeDescriptor BYTE = TypeDescriptor.primitive(BaseKind.BYTE);

    @Test
    void aFewEarlySendsRehearseThenNoneAndEveryMessageArrives() {
        StreamedEagerTest.Loopback t0 = new StreamedEagerTest.Loopback(false);
        StreamedEagerTest.Loopback t1 = new StreamedEagerTest.Loopback(false);
        StreamedEagerTest.join(t0, t1);
        int messages = Engine.REHEARSE_EVERY * (Engine.REHEARSALS + 3);
        byte[] out = new byte[8];
        byte[] in = new byte[8];
        for (int i = 0; i < messages; i++) {
            for (int b = 0; b < out.length; b++) {
                out[b] = (byte) (i * 7 + b);
            }
            SendRequest s = t0.engine.isend(BufferView.of(out, 8, BYTE, false), 1, 3, 0, i, SendMode.STANDARD);
            RecvRequest r = t1.engine.irecv(BufferView.of(in, 8, BYTE, true), 3, 0, Engine.ANY);
            t1.deliver(Integer.MAX_VALUE);
            assertThat(s.isDone()).isTrue();
            assertThat(r.isDone()).isTrue();
            assertThat(r.error()).isZero();
            assertThat(r.tag()).as("message %d in order", i).isEqualTo(i);
            assertThat(in).isEqualTo(out);
        }
        assertThat(t0.engine.rehearsals()).isEqualTo(Engine.REHEARSALS);
        assertThat(t1.engine.rehearsals()).as("the receiver sent nothing").isZero();
    }

    @Test
    void aRehearsalLeavesRealLocksAsTheyWere() {
        BiasedLock real = new BiasedLock();
        BiasedLock.rehearse();
        for (int i = 0; i < 200; i++) {
            real.lock();
            BiasedLock.rehearse();
            real.unlock();
        }
        assertThat(real.isLocked()).isFalse();
        assertThat(real.isBiased()).as("biased only once the process is registered").isEqualTo(Membarrier.privateReady());
    }
}
