package org.jmpi.bootstrap.pmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class Pmi1BootstrapTest {

    /** What a rank does in both golden transcripts. */
    private static void runRank1Script(Pmi1Bootstrap pmi, String expectedMapping) {
        pmi.put("bc-1", "tcp://127.0.0.1:40001");
        pmi.fence();
        assertThat(pmi.get("bc-0")).isEqualTo("tcp://127.0.0.1:40000");
        assertThat(pmi.get("bc-1")).isEqualTo("tcp://127.0.0.1:40001");
        assertThat(pmi.get("nosuchkey")).isNull();
        assertThat(pmi.processMapping()).isEqualTo(expectedMapping);
        pmi.fence();
        pmi.finalizeJob();
        pmi.close();
    }

    @Test
    void followsTheHydraPmiPortTranscript() throws Exception {
        try (FakePmiServer server = FakePmiServer.replaying(Transcripts.HYDRA_PMI_PORT_RANK1)) {
            Pmi1Bootstrap pmi = Pmi1Bootstrap.fromEnvironment(Map.of("PMI_PORT", server.address(), "PMI_ID", "1"));
            assertThat(pmi.rank()).isEqualTo(1);
            assertThat(pmi.size()).isEqualTo(2);
            assertThat(pmi.kvsName()).isEqualTo(Transcripts.HYDRA_KVS);
            assertThat(pmi.jobId()).isEqualTo(Transcripts.HYDRA_KVS);
            runRank1Script(pmi, "(vector,(0,1,1))");
            server.awaitDone();
            assertThat(server.problems()).isEmpty();
        }
    }

    @Test
    void understandsTheSlurmReplyDialect() throws Exception {
        try (FakePmiServer server = FakePmiServer.replaying(Transcripts.slurmDialectOverTcp())) {
            Pmi1Bootstrap pmi = Pmi1Bootstrap.connect(server.address(), 1);
            assertThat(pmi.rank()).isEqualTo(1);
            assertThat(pmi.size()).isEqualTo(2);
            assertThat(pmi.jobId()).isEqualTo("7.0");
            runRank1Script(pmi, "(vector,(0,1,2))");
            server.awaitDone();
            assertThat(server.problems()).isEmpty();
        }
    }

    @Test
    void returnsNullWithoutAProcessManager() {
        assertThat(Pmi1Bootstrap.fromEnvironment(Map.of())).isNull();
        assertThat(Pmi1Bootstrap.fromEnvironment(Map.of("PMI_RANK", "0", "PMI_SIZE", "1"))).isNull();
    }

    @Test
    void rejectsMalformedEnvironment() {
        assertThatThrownBy(() -> Pmi1Bootstrap.fromEnvironment(Map.of("PMI_PORT", "127.0.0.1:1")))
                .isInstanceOf(PmiException.class).hasMessageContaining("PMI_ID");
        assertThatThrownBy(() -> Pmi1Bootstrap.fromEnvironment(Map.of("PMI_PORT", "nohostport", "PMI_ID", "0")))
                .isInstanceOf(PmiException.class).hasMessageContaining("host:port");
        assertThatThrownBy(() -> Pmi1Bootstrap.fromEnvironment(Map.of("PMI_PORT", "127.0.0.1:1", "PMI_ID", "x")))
                .isInstanceOf(PmiException.class).hasMessageContaining("PMI_ID");
    }

    @Test
    void sendsAbortAsOneLineWithoutSpaces() throws Exception {
        List<String> script = new ArrayList<>(Transcripts.HYDRA_PMI_PORT_RANK1.subList(0, 11));
        script.add("-> cmd=abort exitcode=7 error_msg=rank_1_gave_up jmpi_msg=rank%201%20gave%20up");
        try (FakePmiServer server = FakePmiServer.replaying(script)) {
            Pmi1Bootstrap pmi = Pmi1Bootstrap.connect(server.address(), 1);
            pmi.abort(7, "rank 1 gave up");
            pmi.close();
            server.awaitDone();
            assertThat(server.problems()).isEmpty();
        }
    }

    @Test
    void failsClearlyWhenTheServerRefusesInit() throws Exception {
        List<String> script = List.of("-> cmd=initack pmiid=0", "<- cmd=initack", "<- cmd=set size=1",
                "<- cmd=set rank=0", "<- cmd=set debug=0", "-> cmd=init pmi_version=1 pmi_subversion=1",
                "<- cmd=response_to_init rc=-1 pmi_version=2 pmi_subversion=0");
        try (FakePmiServer server = FakePmiServer.replaying(script)) {
            assertThatThrownBy(() -> Pmi1Bootstrap.connect(server.address(), 0)).isInstanceOf(PmiException.class)
                    .hasMessageContaining("refused");
        }
    }

    @Test
    void failsClearlyWhenTheServerGoesAwayInAFence() throws Exception {
        List<String> script = new ArrayList<>(Transcripts.HYDRA_PMI_PORT_RANK1.subList(0, 11));
        script.add("-> cmd=barrier_in");
        script.add(FakePmiServer.HANG_UP);
        try (FakePmiServer server = FakePmiServer.replaying(script)) {
            Pmi1Bootstrap pmi = Pmi1Bootstrap.connect(server.address(), 1);
            assertThatThrownBy(pmi::fence).isInstanceOf(PmiException.class).hasMessageContaining("closed");
            assertThatThrownBy(() -> pmi.get("x")).isInstanceOf(PmiException.class).hasMessageContaining("broken");
            pmi.close();
        }
    }

    @Test
    void rejectsAnUnexpectedReply() throws Exception {
        List<String> script = new ArrayList<>(Transcripts.HYDRA_PMI_PORT_RANK1.subList(0, 11));
        script.add("-> cmd=barrier_in");
        script.add("<- cmd=put_result rc=0");
        try (FakePmiServer server = FakePmiServer.replaying(script)) {
            Pmi1Bootstrap pmi = Pmi1Bootstrap.connect(server.address(), 1);
            assertThatThrownBy(pmi::fence).isInstanceOf(PmiException.class)
                    .hasMessageContaining("expected cmd=barrier_out");
            pmi.close();
        }
    }

    @Test
    void validatesKeysAndValuesBeforeSending() throws Exception {
        try (FakePmiServer server = FakePmiServer.replaying(Transcripts.HYDRA_PMI_PORT_RANK1.subList(0, 11))) {
            Pmi1Bootstrap pmi = Pmi1Bootstrap.connect(server.address(), 1);
            assertThatThrownBy(() -> pmi.put("a key", "v")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> pmi.put("PMI_mine", "v")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("reserved");
            assertThatThrownBy(() -> pmi.put("k", "has space")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> pmi.put("k", "x".repeat(901))).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> pmi.put("k", "")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> pmi.put("k".repeat(65), "v")).isInstanceOf(IllegalArgumentException.class);
            pmi.close();
            server.awaitDone();
            assertThat(server.problems()).isEmpty();
        }
    }

    @Test
    void serialisesRequestsFromManyThreads() throws Exception {
        // The server answers each get with the key reversed; interleaved requests would mix up the replies.
        try (FakePmiServer server = FakePmiServer.answering(line -> {
            Pmi1Message m = Pmi1Message.parse(line);
            return switch (m.command()) {
                case "initack" -> "cmd=initack\ncmd=set size=4\ncmd=set rank=2\ncmd=set debug=0";
                case "init" -> "cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1";
                case "get_maxes" -> "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024";
                case "get_my_kvsname" -> "cmd=my_kvsname kvsname=k";
                case "get" -> "cmd=get_result rc=0 value=" + new StringBuilder(m.get("key")).reverse();
                default -> "cmd=unknown";
            };
        })) {
            Pmi1Bootstrap pmi = Pmi1Bootstrap.connect(server.address(), 2);
            assertThat(pmi.rank()).isEqualTo(2);
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<Boolean>> results = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    final int thread = t;
                    results.add(pool.submit(() -> {
                        for (int i = 0; i < 200; i++) {
                            String key = "key" + thread + "x" + i;
                            if (!new StringBuilder(key).reverse().toString().equals(pmi.get(key))) {
                                return false;
                            }
                        }
                        return true;
                    }));
                }
                for (Future<Boolean> f : results) {
                    assertThat(f.get()).isTrue();
                }
            } finally {
                pool.shutdownNow();
            }
            pmi.close();
        }
    }

    /**
     * A server that takes {@code cmd=finalize} and never answers, with the connection left open (gone silent, or a
     * lost answer): the rank's wait is bounded ({@code jmpi.pmi.finalize.timeout}); it gets an error naming the
     * timeout instead of waiting for ever.
     */
    @Test
    void aFinalizeTheServerNeverAnswersEndsAtTheDeadline() throws Exception {
        try (FakePmiServer server = FakePmiServer.answering(line -> switch (Pmi1Message.parse(line).command()) {
            case "initack" -> "cmd=initack\ncmd=set size=2\ncmd=set rank=1\ncmd=set debug=0";
            case "init" -> "cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1";
            case "get_maxes" -> "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024";
            case "get_my_kvsname" -> "cmd=my_kvsname kvsname=k";
            case "finalize" -> null; // silence
            default -> "cmd=unknown";
        })) {
            Pmi1Bootstrap pmi = Pmi1Bootstrap.connect(server.address(), 1);
            pmi.finalizeTimeout(java.time.Duration.ofMillis(300));
            long start = System.nanoTime();
            assertThatThrownBy(pmi::finalizeJob).isInstanceOf(PmiException.class)
                    .hasMessageContaining("did not answer cmd=finalize")
                    .hasMessageContaining("jmpi.pmi.finalize.timeout");
            assertThat(System.nanoTime() - start).as("waited until the deadline").isGreaterThanOrEqualTo(300_000_000L);
            pmi.close();
            server.awaitDone();
        }
    }
}
