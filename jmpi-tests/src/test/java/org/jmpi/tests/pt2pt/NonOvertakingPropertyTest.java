package org.jmpi.tests.pt2pt;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomDistribution;
import org.jmpi.junit.MpiTest;

/**
 * MPI's non-overtaking rule, property-based: random scenarios (generated with jqwik's arbitraries from a seed that
 * every rank shares) of tags, sizes (eager and rendezvous), blocking and non-blocking sends, and receives with
 * specific tags, ANY_TAG and ANY_SOURCE. Whatever the interleaving, messages from one sender that match one
 * receive pattern arrive in the order they were sent.
 */
class NonOvertakingPropertyTest {

    /** One message of a scenario: who sends it, its tag and size, and whether the send is non-blocking. */
    record Msg(int sender, int tag, int ints, boolean nonBlocking) {}

    static Arbitrary<Msg> message(int size) {
        return Combinators.combine(
                        Arbitraries.integers().between(1, Math.max(1, size - 1)),
                        Arbitraries.integers().between(0, 2),
                        Arbitraries.frequencyOf(
                                net.jqwik.api.Tuple.of(6, Arbitraries.integers().between(0, 64)),
                                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(16_000, 40_000)
                                        .withDistribution(RandomDistribution.uniform()))),
                        Arbitraries.of(true, false))
                .as(Msg::new);
    }

    @MpiTest(ranks = {2, 3, 4}, timeoutSeconds = 120)
    void messagesFromOneSenderNeverOvertake() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        long[] seedBox = {System.nanoTime()};
        if (rank == 0) {
            for (int p = 1; p < size; p++) {
                w.send(seedBox, 1, MPI.LONG, p, 999);
            }
        } else {
            w.recv(seedBox, 1, MPI.LONG, 0, 999);
        }
        Random random = new Random(seedBox[0]);
        for (int scenario = 0; scenario < 25; scenario++) {
            long seed = random.nextLong();
            List<Msg> msgs;
            // jqwik's session is one per JVM (its classes are shared by threads-mode ranks): one rank at a time
            synchronized (net.jqwik.api.sessions.JqwikSession.class) {
                net.jqwik.api.sessions.JqwikSession.start();
                try {
                    msgs = message(size).list().ofMinSize(1).ofMaxSize(40).generator(1000).next(new Random(seed))
                            .value();
                } finally {
                    net.jqwik.api.sessions.JqwikSession.finish();
                }
            }
            if (size == 1) {
                continue;
            }
            if (rank != 0) {
                List<Request> pending = new ArrayList<>();
                int seq = 0;
                for (Msg m : msgs) {
                    if (m.sender() != rank) {
                        continue;
                    }
                    int[] data = new int[Math.max(2, m.ints())];
                    data[0] = rank;
                    data[1] = seq++;
                    if (m.nonBlocking()) {
                        pending.add(w.iSend(IntBuffer.wrap(data), m.ints() < 2 ? 2 : m.ints(), MPI.INT, 0, m.tag()));
                    } else {
                        w.send(data, m.ints() < 2 ? 2 : m.ints(), MPI.INT, 0, m.tag());
                    }
                }
                Request.waitAll(pending.toArray(new Request[0]));
            } else {
                // the tags each sender sends, in its send order (index = sequence number)
                List<List<Integer>> tags = new ArrayList<>();
                for (int p = 0; p < size; p++) {
                    tags.add(new ArrayList<>());
                }
                for (Msg m : msgs) {
                    tags.get(m.sender()).add(m.tag());
                }
                int total = msgs.size();
                boolean[][] got = new boolean[size][];
                for (int p = 0; p < size; p++) {
                    got[p] = new boolean[tags.get(p).size()];
                }
                Random pattern = new Random(seed ^ 0x5DEECE66DL);
                int[] buf = new int[40_000];
                for (int k = 0; k < total; k++) {
                    int src = pattern.nextBoolean() ? MPI.ANY_SOURCE : -3;
                    int tag = pattern.nextInt(4) == 0 ? MPI.ANY_TAG : -3;
                    if (src == -3 || tag == -3) {
                        // a specific source or tag that still has a message: take them from a probe
                        Status p = w.probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
                        src = src == -3 ? p.getSource() : src;
                        tag = tag == -3 ? p.getTag() : tag;
                    }
                    Status s = w.recv(buf, buf.length, MPI.INT, src, tag);
                    int from = buf[0];
                    int seq = buf[1];
                    assertThat(from).isEqualTo(s.getSource());
                    assertThat(tags.get(from).get(seq)).isEqualTo(s.getTag());
                    for (int earlier = 0; earlier < seq; earlier++) {
                        if (!got[from][earlier] && (tag == MPI.ANY_TAG || tags.get(from).get(earlier) == tag)) {
                            throw new AssertionError("scenario " + seed + ": message " + seq + " from rank " + from
                                    + " (tag " + s.getTag() + ") was received by (source " + src + ", tag " + tag
                                    + ") before message " + earlier + " (tag " + tags.get(from).get(earlier)
                                    + "), which that receive also matches");
                        }
                    }
                    got[from][seq] = true;
                }
            }
            w.barrier();
        }
    }
}
