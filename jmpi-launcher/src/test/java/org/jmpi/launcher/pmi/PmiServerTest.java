package org.jmpi.launcher.pmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jmpi.bootstrap.pmi.Pmi1Bootstrap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server against the golden Hydra transcripts of launch-integration.md (section 1.3, PMI_PORT mode, and the
 * MPICH sequence of section 7.3): raw clients send the recorded requests and must get Hydra's replies back.
 */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PmiServerTest {
    private static final String KVS = "jmpi_test_1";

    private final List<String> events = new CopyOnWriteArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private PmiServer server;

    @BeforeEach
    void start() throws IOException {
        server = new PmiServer(2, KVS, new PmiServer.Listener() {
            @Override
            public void aborted(int rank, int exitCode, String message) {
                events.add("abort " + rank + " " + exitCode + " " + message);
            }

            @Override
            public void protocolError(int rank, String message) {
                events.add("error " + rank + " " + message);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.close();
        pool.shutdownNow();
    }

    /** Plays a client transcript: "-> " lines are sent, "<- " lines must come back exactly. */
    private Future<List<String>> client(List<String> transcript) {
        return pool.submit(() -> {
            List<String> problems = new ArrayList<>();
            try (Socket s = new Socket("127.0.0.1", server.port());
                    BufferedReader in = new BufferedReader(
                            new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))) {
                OutputStream out = s.getOutputStream();
                int step = 0;
                for (String line : transcript) {
                    step++;
                    if (line.startsWith("-> ")) {
                        out.write((line.substring(3) + "\n").getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                    } else {
                        String got = in.readLine();
                        if (!line.substring(3).equals(String.valueOf(got))) {
                            problems.add("step " + step + ": expected '" + line.substring(3) + "', got '" + got + "'");
                            break;
                        }
                    }
                }
            }
            return problems;
        });
    }

    /** Section 1.3 (rank {@code rank} of 2), as Hydra answered it, with our KVS name. */
    private static List<String> hydraTranscript(int rank) {
        int other = 1 - rank;
        return List.of(
                "-> cmd=initack pmiid=" + rank,
                "<- cmd=initack",
                "<- cmd=set size=2",
                "<- cmd=set rank=" + rank,
                "<- cmd=set debug=0",
                "-> cmd=init pmi_version=1 pmi_subversion=1",
                "<- cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0",
                "-> cmd=get_maxes",
                "<- cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024",
                "-> cmd=get_appnum",
                "<- cmd=appnum appnum=0",
                "-> cmd=get_my_kvsname",
                "<- cmd=my_kvsname kvsname=" + KVS,
                "-> cmd=get_universe_size",
                "<- cmd=universe_size size=2",
                "-> cmd=put kvsname=" + KVS + " key=bc-" + rank + " value=tcp://127.0.0.1:4000" + rank,
                "<- cmd=put_result rc=0 msg=success",
                "-> cmd=barrier_in",
                "<- cmd=barrier_out",
                "-> cmd=get kvsname=" + KVS + " key=bc-" + other,
                "<- cmd=get_result rc=0 msg=success value=tcp://127.0.0.1:4000" + other,
                "-> cmd=get kvsname=" + KVS + " key=bc-" + rank,
                "<- cmd=get_result rc=0 msg=success value=tcp://127.0.0.1:4000" + rank,
                "-> cmd=get kvsname=" + KVS + " key=nosuchkey",
                "<- cmd=get_result rc=-1 msg=key_nosuchkey_not_found value=unknown",
                "-> cmd=get kvsname=" + KVS + " key=PMI_process_mapping",
                "<- cmd=get_result rc=0 msg=success value=(vector,(0,1,2))",
                "-> cmd=barrier_in",
                "<- cmd=barrier_out",
                "-> cmd=finalize",
                "<- cmd=finalize_ack");
    }

    @Test
    void answersLikeHydraInPmiPortMode() throws Exception {
        Future<List<String>> r0 = client(hydraTranscript(0));
        Future<List<String>> r1 = client(hydraTranscript(1));
        assertThat(r0.get()).isEmpty();
        assertThat(r1.get()).isEmpty();
        assertThat(server.initialized(0)).isTrue();
        assertThat(server.finalized(0)).isTrue();
        assertThat(server.finalized(1)).isTrue();
        assertThat(server.awaitDisconnected(0, Duration.ofSeconds(5))).isTrue();
        assertThat(events).isEmpty();
    }

    @Test
    void servesTheMpichSequence() throws Exception {
        // Section 7.3: MPICH reads the mapping before any barrier, rank 0 puts a bcast key between barriers.
        String k = " kvsname=" + KVS;
        Future<List<String>> r0 = client(List.of("-> cmd=initack pmiid=0", "<- cmd=initack", "<- cmd=set size=2",
                "<- cmd=set rank=0", "<- cmd=set debug=0", "-> cmd=init pmi_version=1 pmi_subversion=1",
                "<- cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0",
                "-> cmd=get" + k + " key=PMI_process_mapping",
                "<- cmd=get_result rc=0 msg=success value=(vector,(0,1,2))", "-> cmd=barrier_in",
                "<- cmd=barrier_out", "-> cmd=put" + k + " key=-bcast-1-0 value=2F6465762F73686D",
                "<- cmd=put_result rc=0 msg=success", "-> cmd=barrier_in", "<- cmd=barrier_out",
                "-> cmd=finalize", "<- cmd=finalize_ack"));
        Future<List<String>> r1 = client(List.of("-> cmd=initack pmiid=1", "<- cmd=initack", "<- cmd=set size=2",
                "<- cmd=set rank=1", "<- cmd=set debug=0", "-> cmd=init pmi_version=1 pmi_subversion=1",
                "<- cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0", "-> cmd=barrier_in",
                "<- cmd=barrier_out", "-> cmd=get" + k + " key=-bcast-1-0",
                "<- cmd=get_result rc=-1 msg=key_-bcast-1-0_not_found value=unknown", "-> cmd=barrier_in",
                "<- cmd=barrier_out", "-> cmd=get" + k + " key=-bcast-1-0",
                "<- cmd=get_result rc=0 msg=success value=2F6465762F73686D", "-> cmd=finalize",
                "<- cmd=finalize_ack"));
        assertThat(r0.get()).isEmpty();
        assertThat(r1.get()).isEmpty();
    }

    @Test
    void reportsAbortAndBadRequests() throws Exception {
        Future<List<String>> c = client(List.of("-> cmd=initack pmiid=1", "<- cmd=initack", "<- cmd=set size=2",
                "<- cmd=set rank=1", "<- cmd=set debug=0", "-> cmd=abort exitcode=7 error_msg=rank_1_gave_up"));
        assertThat(c.get()).isEmpty();
        assertThat(server.awaitDisconnected(1, Duration.ofSeconds(5))).isTrue();
        assertThat(events).containsExactly("abort 1 7 rank_1_gave_up");
        assertThat(server.initialized(1)).isFalse();

        Future<List<String>> bad = client(List.of("-> cmd=initack pmiid=0", "<- cmd=initack", "<- cmd=set size=2",
                "<- cmd=set rank=0", "<- cmd=set debug=0", "-> cmd=kvsput key=x value=y"));
        assertThat(bad.get()).isEmpty();
        assertThat(server.awaitDisconnected(0, Duration.ofSeconds(5))).isTrue();
        assertThat(events).hasSize(2);
        assertThat(events.get(1)).startsWith("error 0 unknown PMI command: cmd=kvsput");
    }

    @Test
    void refusesARepeatedOrOutOfRangeId() throws Exception {
        Future<List<String>> c = client(List.of("-> cmd=initack pmiid=5"));
        assertThat(c.get()).isEmpty();
        CompletableFuture<Void> seen = CompletableFuture.runAsync(() -> {
            while (events.isEmpty()) {
                Thread.onSpinWait();
            }
        });
        seen.get(5, TimeUnit.SECONDS);
        assertThat(events.get(0)).startsWith("error 5 bad PMI id 5");
    }

    /** A server that demands the secret {@code s3cret}; trusts the processes in {@code trusted}. */
    private PmiServer secured(List<ProcessHandle> trusted) throws IOException {
        server.close();
        server = PmiServer.options(2, KVS).secret("s3cret").trusted(() -> trusted).survivorsContinue(true)
                .listener(new PmiServer.Listener() {
                    @Override
                    public void aborted(int rank, int exitCode, String message) {
                        events.add("abort");
                    }

                    @Override
                    public void protocolError(int rank, String message) {
                        events.add("error " + message);
                    }

                    @Override
                    public void refused(String remote, String reason) {
                        events.add("refused " + reason);
                    }
                }).build();
        server.start();
        return server;
    }

    private void awaitEvents(int n) throws Exception {
        CompletableFuture.runAsync(() -> {
            while (events.size() < n) {
                Thread.onSpinWait();
            }
        }).get(5, TimeUnit.SECONDS);
    }

    @Test
    void aConnectionWithoutTheSecretIsRefused() throws Exception {
        secured(List.of());
        // no secret: the server closes the connection without a word, and the job is not disturbed
        assertThat(client(List.of("-> cmd=initack pmiid=0", "<- null")).get()).isEmpty();
        awaitEvents(1);
        assertThat(events.get(0)).isEqualTo("refused no job secret, and not a process of this job");
        assertThat(client(List.of("-> cmd=initack pmiid=0 jmpi_secret=guess", "<- null")).get()).isEmpty();
        awaitEvents(2);
        assertThat(events.get(1)).isEqualTo("refused wrong job secret");
        assertThat(client(List.of("-> cmd=init pmi_version=1 pmi_subversion=1", "<- null")).get()).isEmpty();
        awaitEvents(3);
        assertThat(events.get(2)).isEqualTo("refused the first request was not cmd=initack");
        // the right secret is served
        assertThat(client(List.of("-> cmd=initack pmiid=0 jmpi_secret=s3cret", "<- cmd=initack",
                "<- cmd=set size=2", "<- cmd=set rank=0", "<- cmd=set debug=0")).get()).isEmpty();
        assertThat(events).hasSize(3);
        assertThat(server.initialized(0)).isFalse();
    }

    @Test
    void aProcessOfTheJobNeedsNoSecret() throws Exception {
        // the kernel says this connection belongs to this JVM, which the server trusts (as it trusts its ranks)
        secured(List.of(ProcessHandle.current()));
        assertThat(client(List.of("-> cmd=initack pmiid=1", "<- cmd=initack", "<- cmd=set size=2",
                "<- cmd=set rank=1", "<- cmd=set debug=0")).get()).isEmpty();
        assertThat(events).isEmpty();
    }

    @Test
    void failureNoticesReachTheNoticeChannels() throws Exception {
        secured(List.of());
        try (Socket s = new Socket("127.0.0.1", server.port());
                BufferedReader in = new BufferedReader(
                        new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))) {
            s.getOutputStream().write("cmd=initack pmiid=0 jmpi_secret=s3cret jmpi_notices=1\n"
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(in.readLine()).isEqualTo("cmd=initack");
            server.notifyFailure(1, "exited with code 3");
            assertThat(in.readLine()).isEqualTo("cmd=jmpi_failed rank=1 reason=exited_with_code_3");
        }
    }

    @Test
    void aBarrierCompletesWithoutARankThatExited() throws Exception {
        secured(List.of());
        Future<List<String>> r0 = client(List.of("-> cmd=initack pmiid=0 jmpi_secret=s3cret", "<- cmd=initack",
                "<- cmd=set size=2", "<- cmd=set rank=0", "<- cmd=set debug=0", "-> cmd=put kvsname=" + KVS
                        + " key=a value=1", "<- cmd=put_result rc=0 msg=success", "-> cmd=barrier_in",
                "<- cmd=barrier_out", "-> cmd=get kvsname=" + KVS + " key=a",
                "<- cmd=get_result rc=0 msg=success value=1"));
        // rank 0 waits in the barrier for rank 1 ...
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> r0.get(200, TimeUnit.MILLISECONDS))
                .isInstanceOf(java.util.concurrent.TimeoutException.class);
        server.rankExited(1); // ... until rank 1 is known to be gone
        assertThat(r0.get(5, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void theFenceSeesEveryPutOfTheHostAndPublishesItsAnswer() throws Exception {
        server.close();
        List<java.util.Map<String, String>> fences = new CopyOnWriteArrayList<>();
        server = PmiServer.options(4, KVS).localRanks(new int[] {1, 3}).mapping("(vector,(0,2,1))")
                .fence(puts -> {
                    fences.add(puts);
                    return CompletableFuture.completedFuture(java.util.Map.of("k1", "v1", "k3", "v3", "k0", "v0"));
                }).build();
        server.start();
        Future<List<String>> r1 = client(List.of("-> cmd=initack pmiid=1", "<- cmd=initack", "<- cmd=set size=4",
                "<- cmd=set rank=1", "<- cmd=set debug=0", "-> cmd=put kvsname=" + KVS + " key=k1 value=v1",
                "<- cmd=put_result rc=0 msg=success", "-> cmd=barrier_in", "<- cmd=barrier_out",
                "-> cmd=get kvsname=" + KVS + " key=k0", "<- cmd=get_result rc=0 msg=success value=v0",
                "-> cmd=get kvsname=" + KVS + " key=PMI_process_mapping",
                "<- cmd=get_result rc=0 msg=success value=(vector,(0,2,1))"));
        Future<List<String>> r3 = client(List.of("-> cmd=initack pmiid=3", "<- cmd=initack", "<- cmd=set size=4",
                "<- cmd=set rank=3", "<- cmd=set debug=0", "-> cmd=put kvsname=" + KVS + " key=k3 value=v3",
                "<- cmd=put_result rc=0 msg=success", "-> cmd=barrier_in", "<- cmd=barrier_out"));
        assertThat(r1.get()).isEmpty();
        assertThat(r3.get()).isEmpty();
        assertThat(fences).containsExactly(java.util.Map.of("k1", "v1", "k3", "v3"));
    }

    @Test
    void servesOurOwnClient() throws Exception {
        server.close();
        server = new PmiServer(3, KVS, new PmiServer.Listener() {
            @Override
            public void aborted(int rank, int exitCode, String message) {
                events.add("abort");
            }

            @Override
            public void protocolError(int rank, String message) {
                events.add("error " + message);
            }
        });
        server.start();
        List<Future<String>> ranks = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            final int rank = r;
            ranks.add(pool.submit(() -> {
                try (Pmi1Bootstrap pmi = Pmi1Bootstrap.connect(server.address(), rank)) {
                    pmi.put("card-" + rank, "c" + rank);
                    String early = pmi.get("card-" + rank);
                    pmi.fence();
                    String all = pmi.get("card-0") + pmi.get("card-1") + pmi.get("card-2");
                    pmi.finalizeJob();
                    return pmi.rank() + "/" + pmi.size() + " " + pmi.jobId() + " early=" + early + " " + all;
                }
            }));
        }
        for (int r = 0; r < 3; r++) {
            assertThat(ranks.get(r).get()).isEqualTo(r + "/3 " + KVS + " early=null c0c1c2");
        }
        assertThat(events).isEmpty();
    }
}
