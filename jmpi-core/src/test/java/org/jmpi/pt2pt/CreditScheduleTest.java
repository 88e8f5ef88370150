package org.jmpi.pt2pt;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.jmpi.datatype.BaseKind;
import org.jmpi.datatype.BufferView;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.runtime.Config;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * When a receiver returns flow credit for a stream of small eager messages: the first credits early and at doubling
 * intervals (so that the credit's path is taken while the JIT still profiles the message path), then every quarter of
 * the flow window, no more often than that.
 */
@Timeout(value = 60, unit = SECONDS)
class CreditScheduleTest {
    private static final TypeDescriptor BYTE = TypeDescriptor.primitive(BaseKind.BYTE);
    private static final int MESSAGES = 40_000;
    private static final int BYTES = 8;

    /**
     * With a lane (shared memory), each credit goes as the lane's record with its amount as payload, not as a control
     * frame through the transport's general send: the methods a message takes anyway.
     */
    @ParameterizedTest(name = "lane {0}")
    @ValueSource(booleans = {false, true})
    void theFirstCreditsComeEarlyAndThenEveryQuarterWindow(boolean lane) {
        StreamedEagerTest.Loopback t0 = new StreamedEagerTest.Loopback(false);
        StreamedEagerTest.Loopback t1 = new StreamedEagerTest.Loopback(false);
        t0.offersLane = lane;
        t1.offersLane = lane;
        StreamedEagerTest.join(t0, t1);
        Engine sender = t0.engine;
        Engine receiver = t1.engine;
        byte[] out = new byte[BYTES];
        byte[] in = new byte[BYTES];
        List<Integer> creditsAfter = new ArrayList<>(); // messages received when each credit went back
        for (int i = 0; i < MESSAGES; i++) {
            out[0] = (byte) i;
            SendRequest s = sender.isend(BufferView.of(out, BYTES, BYTE, false), 1, 3, 0, 1, SendMode.STANDARD);
            assertThat(s.isDone()).as("message %d went at once: the sender never ran out of credit", i).isTrue();
            RecvRequest r = receiver.irecv(BufferView.of(in, BYTES, BYTE, true), 3, 0, 1);
            int before = t1.kinds.size();
            assertThat(t1.deliver(1)).isEqualTo(1);
            assertThat(r.isDone()).isTrue();
            assertThat(in[0]).isEqualTo((byte) i);
            for (int k = before; k < t1.kinds.size(); k++) {
                assertThat(t1.kinds.get(k)).isEqualTo(Protocol.CREDIT);
                creditsAfter.add(i + 1);
            }
            t0.deliver(Integer.MAX_VALUE); // the credit back to the sender
        }
        long cost = BYTES + Protocol.OVERHEAD;
        long quarter = Config.defaults().flowWindow() / 4;
        assertThat(creditsAfter).as("credits").isNotEmpty();
        assertThat(creditsAfter.get(0)).as("the first credit")
                .isEqualTo((int) ((Engine.FIRST_CREDIT + cost - 1) / cost));
        List<Integer> gaps = new ArrayList<>();
        for (int k = 1; k < creditsAfter.size(); k++) {
            gaps.add(creditsAfter.get(k) - creditsAfter.get(k - 1));
        }
        long steady = (quarter + cost - 1) / cost;
        int early = 0;
        for (int k = 0; k < gaps.size(); k++) {
            int gap = gaps.get(k);
            int previous = k == 0 ? creditsAfter.get(0) : gaps.get(k - 1);
            if (gap < steady) {
                early++;
                assertThat(gap).as("gap %d doubles", k).isBetween(2 * previous - 1, 2 * previous + 1);
            } else {
                assertThat(gap).as("gap %d: a quarter window", k).isEqualTo((int) steady);
            }
        }
        assertThat(creditsAfter.stream().filter(n -> n <= 5_000).count()).as("credits in the first 5,000 messages")
                .isGreaterThanOrEqualTo(8);
        assertThat(early).as("early credits").isLessThanOrEqualTo(12);
        assertThat(gaps.get(gaps.size() - 1)).isEqualTo((int) steady);
        assertThat(t1.shortKinds).as("the receiver's lane records")
                .isEqualTo(java.util.Collections.nCopies(lane ? creditsAfter.size() : 0, Protocol.CREDIT));
    }
}
