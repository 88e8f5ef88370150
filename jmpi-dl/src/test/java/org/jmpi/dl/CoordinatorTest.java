package org.jmpi.dl;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jmpi.dl.Negotiation.Allreduce;
import org.jmpi.dl.Negotiation.Descriptor;
import org.jmpi.dl.Negotiation.Requests;
import org.jmpi.dl.Negotiation.Response;
import org.junit.jupiter.api.Test;

/** Rank 0's bookkeeping, without MPI: readiness, fusion, mismatches, stalls, join and shutdown. */
class CoordinatorTest {
    static final long S = 1_000_000_000L;

    static Descriptor d(String name, int n) {
        return new Descriptor(name, n, ReduceOp.SUM, Compression.NONE);
    }

    static Requests req(Descriptor... ds) {
        return new Requests(0, List.of(ds));
    }

    static Requests flags(int flags) {
        return new Requests(flags, List.of());
    }

    /** Round-trips through the wire format, as the real cycle does. */
    static List<Response> cycle(Coordinator c, long now, Requests... perRank) {
        Requests[] decoded = new Requests[perRank.length];
        for (int r = 0; r < perRank.length; r++) {
            byte[] b = Negotiation.encode(perRank[r]);
            decoded[r] = Negotiation.decodeRequests(b, 0, b.length);
        }
        byte[] out = Negotiation.encode(c.cycle(decoded, now));
        return Negotiation.decodeResponses(out, out.length);
    }

    @Test
    void aTensorIsReadyOnlyWhenEveryRankSubmittedItWhateverTheOrder() {
        Coordinator c = new Coordinator(3, ReducerOptions.defaults());
        assertThat(cycle(c, 0, req(d("a", 4), d("b", 2)), req(d("b", 2)), req())).isEmpty();
        List<Response> r = cycle(c, 1, req(), req(d("a", 4)), req(d("b", 2), d("a", 4)));
        assertThat(r).hasSize(1);
        Allreduce a = (Allreduce) r.get(0);
        assertThat(a.names()).containsExactly("a", "b"); // first seen first
        assertThat(a.elements()).containsExactly(4, 2);
        assertThat(a.contributors()).isEqualTo(3);
    }

    @Test
    void fusionRespectsTheThresholdAndSeparatesIncompatibleTensors() {
        Coordinator c = new Coordinator(1, ReducerOptions.builder().fusionBytes(100).build());
        List<Response> r = cycle(c, 0, req(d("a", 10), d("b", 10), d("c", 10), d("big", 1000),
                new Descriptor("avg", 1, ReduceOp.AVERAGE, Compression.NONE),
                new Descriptor("half", 1, ReduceOp.SUM, Compression.FP16), d("d", 1)));
        List<List<String>> groups = new ArrayList<>();
        for (Response x : r) {
            groups.add(((Allreduce) x).names());
        }
        // 40 + 40 bytes fit in 100, the third does not; a tensor larger than the threshold travels alone
        assertThat(groups).containsExactly(List.of("a", "b"), List.of("c"), List.of("big", "d").subList(0, 1),
                List.of("d"), List.of("avg"), List.of("half"));
    }

    @Test
    void noFusionMeansOneTensorPerAllreduce() {
        Coordinator c = new Coordinator(1, ReducerOptions.builder().fusionBytes(0).build());
        assertThat(cycle(c, 0, req(d("a", 1), d("b", 1), d("c", 1)))).hasSize(3);
    }

    @Test
    void aMismatchFailsTheTensorOnEveryRankNamingRanksAndShapes() {
        Coordinator c = new Coordinator(3, ReducerOptions.defaults());
        List<Response> r = cycle(c, 0, req(d("w", 3), d("ok", 1)), req(d("w", 4), d("ok", 1)),
                req(new Descriptor("w", 4, ReduceOp.AVERAGE, Compression.NONE), d("ok", 1)));
        assertThat(r).hasSize(2);
        assertThat(((Allreduce) r.get(0)).names()).containsExactly("ok");
        Negotiation.Error e = (Negotiation.Error) r.get(1);
        assertThat(e.names()).containsExactly("w");
        assertThat(e.message()).contains("tensor 'w'", "rank(s) [0]: 3 x float32, SUM", "rank(s) [1]: 4 x float32, SUM",
                "rank(s) [2]: 4 x float32, AVERAGE");
    }

    @Test
    void stallsAreWarnedAboutPeriodicallyAndFailAfterTheShutdownTime() {
        List<String> warnings = new ArrayList<>();
        Coordinator c = new Coordinator(3, ReducerOptions.builder().stallWarning(Duration.ofSeconds(10))
                .stallShutdown(Duration.ofSeconds(35)).warnings(warnings::add).build());
        cycle(c, 0, req(d("late", 1)), req(), req(d("late", 1)));
        cycle(c, 5 * S, req(), req(), req());
        assertThat(warnings).isEmpty();
        cycle(c, 11 * S, req(), req(), req());
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).contains("tensor 'late'", "waited 11 s", "submitted by rank(s) [0, 2]",
                "not yet by rank(s) [1]");
        cycle(c, 12 * S, req(), req(), req());
        assertThat(warnings).hasSize(1);
        cycle(c, 22 * S, req(), req(), req());
        assertThat(warnings).hasSize(2);
        List<Response> r = cycle(c, 36 * S, req(), req(), req());
        assertThat(r).hasSize(1);
        assertThat(((Negotiation.Error) r.get(0)).message()).contains("tensor 'late' stalled for 36 s",
                "not submitted by rank(s) [1]");
    }

    @Test
    void joinedRanksCountAsPresentButNotAsContributors() {
        Coordinator c = new Coordinator(3, ReducerOptions.defaults());
        assertThat(cycle(c, 0, req(d("g", 2)), flags(Negotiation.FLAG_JOIN), req())).isEmpty();
        List<Response> r = cycle(c, 1, req(), req(), req(d("g", 2)));
        assertThat(((Allreduce) r.get(0)).contributors()).isEqualTo(2);
        r = cycle(c, 2, flags(Negotiation.FLAG_JOIN), req(), flags(Negotiation.FLAG_JOIN));
        assertThat(r).containsExactly(new Negotiation.Joined(2));
        // after the join, every rank is needed again
        assertThat(cycle(c, 3, req(d("g", 2)), req(d("g", 2)), req())).isEmpty();
    }

    @Test
    void closingRanksFailWhatTheyNeverSubmittedAndShutdownNeedsEveryRank() {
        Coordinator c = new Coordinator(2, ReducerOptions.defaults());
        List<Response> r = cycle(c, 0, req(d("x", 1)), flags(Negotiation.FLAG_SHUTDOWN));
        assertThat(r).hasSize(1);
        assertThat(((Negotiation.Error) r.get(0)).message()).contains("tensor 'x' was never submitted by rank(s) [1]",
                "closed");
        assertThat(cycle(c, 1, req(), flags(Negotiation.FLAG_SHUTDOWN))).isEmpty();
        assertThat(cycle(c, 2, flags(Negotiation.FLAG_SHUTDOWN), flags(Negotiation.FLAG_SHUTDOWN)))
                .containsExactly(new Negotiation.Shutdown());
    }
}
