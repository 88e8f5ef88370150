package org.jmpi.pt2pt;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.jmpi.datatype.BaseKind;
import org.jmpi.datatype.BufferView;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.runtime.Config;
import org.jmpi.runtime.Progress;
import org.jmpi.runtime.RequestImpl;

/**
 * The engine's matching against a model of MPI's rules (two lists searched in order): random sequences of sends,
 * exact and wildcard receives, probes and cancels on one engine sending to itself. The sequences are long and narrow
 * enough that the queues grow past {@link MatchingQueues#INDEX_AT} and empty again, so every operation is checked in
 * both of the queues' forms and across the switches between them.
 */
class MatchingModelPropertyTest {
    private static final TypeDescriptor INT = TypeDescriptor.primitive(BaseKind.INT);
    private static final int ANY = Engine.ANY;

    /** One step: kind 0 send, 1 receive, 2 probe, 3 cancel the receive posted {@code pick}-th among those pending. */
    record Op(int kind, int context, int source, int tag, int pick) {}

    @Provide
    Arbitrary<List<Op>> programs() {
        Arbitrary<Integer> kind = Arbitraries.frequency(
                Tuple.of(8, 0), Tuple.of(8, 1), Tuple.of(2, 2), Tuple.of(1, 3));
        Arbitrary<Integer> context = Arbitraries.integers().between(0, 1);
        Arbitrary<Integer> source = Arbitraries.of(0, 0, 0, ANY);
        Arbitrary<Integer> tag = Arbitraries.of(0, 1, 2, 3, ANY);
        Arbitrary<Integer> pick = Arbitraries.integers().between(0, 40);
        Arbitrary<Op> op = net.jqwik.api.Combinators.combine(kind, context, source, tag, pick).as(Op::new);
        // phases of mostly sends or mostly receives, so that one queue builds up past the index threshold and drains
        Arbitrary<List<Op>> sendHeavy =
                op.filter(o -> o.kind() != 1 || o.pick() % 4 == 0).list().ofMinSize(10).ofMaxSize(60);
        Arbitrary<List<Op>> recvHeavy =
                op.filter(o -> o.kind() != 0 || o.pick() % 4 == 0).list().ofMinSize(10).ofMaxSize(60);
        Arbitrary<List<Op>> mixed = op.list().ofMinSize(5).ofMaxSize(40);
        return Arbitraries.oneOf(sendHeavy, recvHeavy, mixed).list().ofMinSize(1).ofMaxSize(8).map(phases -> {
            List<Op> all = new ArrayList<>();
            phases.forEach(all::addAll);
            return all;
        });
    }

    /** A pending receive in the model, and the engine's request for it. */
    private static final class Posted {
        final int context;
        final int source;
        final int tag;
        final RecvRequest request;
        final int[] into;
        int expected = Integer.MIN_VALUE;

        Posted(int context, int source, int tag, RecvRequest request, int[] into) {
            this.context = context;
            this.source = source;
            this.tag = tag;
            this.request = request;
            this.into = into;
        }
    }

    private record Message(int context, int tag, int value) {}

    private static boolean matches(int context, int source, int tag, Message m) {
        return context == m.context() && (source == ANY || source == 0) && (tag == ANY || tag == m.tag());
    }

    /** The model's earliest queued message that a receive or probe {@code op} matches, or null. */
    private static Message firstMatch(List<Message> unexpected, Op op) {
        for (Message u : unexpected) {
            if (matches(op.context(), op.source(), op.tag(), u)) {
                return u;
            }
        }
        return null;
    }

    @Property(tries = 400)
    void matchingFollowsPostingAndArrivalOrder(@ForAll("programs") List<Op> program) {
        Engine e = new Engine(0, 1, new Progress(null, 10, 10), null, Config.defaults());
        List<Posted> posted = new ArrayList<>(); // the model's posted queue, in posting order
        List<Message> unexpected = new ArrayList<>(); // the model's unexpected queue, in arrival order
        List<Posted> completed = new ArrayList<>();
        int nextValue = 1;
        for (Op op : program) {
            switch (op.kind()) {
                case 0 -> {
                    Message m = new Message(op.context(), op.tag() == ANY ? 0 : op.tag(), nextValue++);
                    Posted taker = null;
                    for (Posted p : posted) {
                        if (matches(p.context, p.source, p.tag, m)) {
                            taker = p;
                            break;
                        }
                    }
                    e.isend(BufferView.of(new int[] {m.value()}, 1, INT, false), 0, m.context(), 0, m.tag(),
                            SendMode.STANDARD);
                    if (taker == null) {
                        unexpected.add(m);
                    } else {
                        posted.remove(taker);
                        taker.expected = m.value();
                        completed.add(taker);
                    }
                }
                case 1 -> {
                    Message m = firstMatch(unexpected, op);
                    int[] into = new int[1];
                    RecvRequest r = e.irecv(BufferView.of(into, 1, INT, true), op.context(), op.source(), op.tag());
                    if (m == null) {
                        assertThat(r.isDone()).as("receive %s with nothing matching queued", op).isFalse();
                        posted.add(new Posted(op.context(), op.source(), op.tag(), r, into));
                    } else {
                        unexpected.remove(m);
                        assertThat(r.isDone()).as("receive %s matching a queued message", op).isTrue();
                        assertThat(into[0]).as("receive %s takes the earliest matching message", op)
                                .isEqualTo(m.value());
                    }
                }
                case 2 -> {
                    Message m = firstMatch(unexpected, op);
                    RequestImpl found = e.iprobe(op.context(), op.source(), op.tag());
                    if (m == null) {
                        assertThat(found).as("probe %s", op).isNull();
                    } else {
                        assertThat(found).as("probe %s", op).isNotNull();
                        assertThat(found.tag()).as("probe %s sees the earliest match", op).isEqualTo(m.tag());
                    }
                }
                default -> {
                    if (!posted.isEmpty()) {
                        Posted p = posted.remove(op.pick() % posted.size());
                        assertThat(p.request.cancel()).as("cancel of a pending receive").isTrue();
                    }
                }
            }
            for (Posted p : completed) {
                assertThat(p.request.isDone()).as("a matched receive is complete").isTrue();
                assertThat(p.into[0]).as("a matched receive has the model's message").isEqualTo(p.expected);
            }
            completed.clear();
            for (Posted p : posted) {
                assertThat(p.request.isDone()).as("a pending receive is not complete").isFalse();
            }
        }
    }

}
