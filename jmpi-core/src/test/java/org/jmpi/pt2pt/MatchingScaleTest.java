package org.jmpi.pt2pt;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import org.jmpi.datatype.BaseKind;
import org.jmpi.datatype.BufferView;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.runtime.Config;
import org.jmpi.runtime.Progress;
import org.jmpi.runtime.RequestImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The cost of matching under a backlog, counted in queue entries examined ({@link MatchingQueues#visited}), not
 * timed: one engine sends 40,000 messages to itself, which wait unexpected, then probes for absent envelopes and
 * receives them all. Also the order between exact and wildcard receives posted together.
 */
@Timeout(value = 60, unit = SECONDS)
class MatchingScaleTest {
    private static final TypeDescriptor INT = TypeDescriptor.primitive(BaseKind.INT);
    private static final int BACKLOG = 40_000;

    private static Engine engine() {
        return new Engine(0, 1, new Progress(null, 10, 10), null, Config.defaults());
    }

    private static void send(Engine e, int value, int tag) {
        e.isend(BufferView.of(new int[] {value}, 1, INT, false), 0, 0, 0, tag, SendMode.STANDARD);
    }

    private static RecvRequest recv(Engine e, int[] into, int source, int tag) {
        return e.irecv(BufferView.of(into, 1, INT, true), 0, source, tag);
    }

    @Test
    void probesForAbsentMessagesDoNotWalkTheBacklog() {
        Engine e = engine();
        for (int i = 0; i < BACKLOG; i++) {
            send(e, i, 1);
        }
        long before = e.queues.visited;
        for (int i = 0; i < BACKLOG; i++) {
            assertThat(e.iprobe(0, 0, 2)).isNull(); // same source, absent tag
            assertThat(e.iprobe(1, 0, 1)).isNull(); // another context
        }
        long probes = e.queues.visited - before;
        // a hash lookup each (a bucket chain of a few entries); walking the backlog would be 3.2e9
        assertThat(probes).isLessThanOrEqualTo(8L * 2 * BACKLOG);

        RequestImpl first = e.iprobe(0, Engine.ANY, Engine.ANY);
        assertThat(first).isNotNull();
        assertThat(first.tag()).isEqualTo(1);

        before = e.queues.visited;
        int[] got = new int[1];
        for (int i = 0; i < BACKLOG; i++) {
            RecvRequest r = recv(e, got, i % 2 == 0 ? 0 : Engine.ANY, i % 3 == 0 ? Engine.ANY : 1);
            assertThat(r.isDone()).isTrue();
            assertThat(got[0]).as("message %d in order", i).isEqualTo(i);
        }
        assertThat(e.queues.visited - before).isLessThanOrEqualTo(8L * BACKLOG);
    }

    @Test
    void aMessageGoesToTheEarliestMatchingReceiveWhetherExactOrWildcard() {
        Engine e = engine();
        int[] a = new int[1];
        int[] b = new int[1];
        RecvRequest wildFirst = recv(e, a, Engine.ANY, 7);
        RecvRequest exactSecond = recv(e, b, 0, 7);
        send(e, 11, 7);
        assertThat(wildFirst.isDone()).isTrue();
        assertThat(exactSecond.isDone()).isFalse();
        send(e, 12, 7);
        assertThat(exactSecond.isDone()).isTrue();
        assertThat(a[0]).isEqualTo(11);
        assertThat(b[0]).isEqualTo(12);

        RecvRequest exactFirst = recv(e, a, 0, 8);
        RecvRequest wildSecond = recv(e, b, 0, Engine.ANY);
        send(e, 21, 8);
        assertThat(exactFirst.isDone()).isTrue();
        assertThat(wildSecond.isDone()).isFalse();
        send(e, 22, 9); // only the wildcard receive matches tag 9
        assertThat(wildSecond.isDone()).isTrue();
        assertThat(a[0]).isEqualTo(21);
        assertThat(b[0]).isEqualTo(22);
    }

    @Test
    void cancelledAndFailedReceivesLeaveTheQueuesConsistent() {
        Engine e = engine();
        int[] a = new int[1];
        RecvRequest exact = recv(e, a, 0, 3);
        RecvRequest wild = recv(e, a, Engine.ANY, 3);
        assertThat(exact.cancel()).isTrue();
        assertThat(wild.cancel()).isTrue();
        assertThat(exact.cancel()).isFalse();
        send(e, 5, 3); // now unexpected
        assertThat(e.iprobe(0, 0, 3)).isNotNull();
        RecvRequest r = recv(e, a, 0, 3);
        assertThat(r.isDone()).isTrue();
        assertThat(a[0]).isEqualTo(5);
        assertThat(e.iprobe(0, Engine.ANY, Engine.ANY)).isNull();
    }

    /** Thousands of envelopes appear and empty again (buckets leave the table, are reused, the table grows). */
    @Test
    void manyEnvelopesComeAndGo() {
        Engine e = engine();
        int n = 5_000;
        int[][] into = new int[n][1];
        RecvRequest[] posted = new RecvRequest[n];
        for (int t = 0; t < n; t++) {
            posted[t] = recv(e, into[t], 0, t);
        }
        for (int t = n - 1; t >= 0; t--) {
            send(e, 1000 + t, t);
            assertThat(posted[t].isDone()).isTrue();
        }
        for (int t = 0; t < n; t++) {
            assertThat(into[t][0]).isEqualTo(1000 + t);
            send(e, 2000 + t, t); // unexpected this time
        }
        int[] got = new int[1];
        for (int t = n - 1; t >= 0; t--) {
            assertThat(recv(e, got, 0, t).isDone()).isTrue();
            assertThat(got[0]).isEqualTo(2000 + t);
        }
        assertThat(e.iprobe(0, Engine.ANY, Engine.ANY)).isNull();
        for (int round = 0; round < 3; round++) { // emptied buckets are reused: envelopes keep matching
            RecvRequest r = recv(e, got, 0, 77 + round);
            send(e, round, 77 + round);
            assertThat(r.isDone()).isTrue();
            assertThat(got[0]).isEqualTo(round);
        }
    }
}
