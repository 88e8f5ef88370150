package org.jmpi.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JobBootstrapTest {
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    /** An in-memory process manager: N ranks, puts visible after the fence, counts fences. */
    static final class FakeJob {
        final int size;
        final Map<String, String> pending = new HashMap<>();
        final Map<String, String> visible = new HashMap<>();
        final CyclicBarrier barrier;
        final AtomicInteger fences = new AtomicInteger();

        FakeJob(int size) {
            this.size = size;
            this.barrier = new CyclicBarrier(size, () -> {
                synchronized (this) {
                    visible.putAll(pending);
                    pending.clear();
                }
                fences.incrementAndGet();
            });
        }

        Bootstrap rank(int r) {
            return new Bootstrap() {
                @Override
                public int rank() {
                    return r;
                }

                @Override
                public int size() {
                    return size;
                }

                @Override
                public String jobId() {
                    return "fake";
                }

                @Override
                public void put(String key, String value) {
                    synchronized (FakeJob.this) {
                        pending.put(key, value);
                    }
                }

                @Override
                public void fence() {
                    try {
                        barrier.await();
                    } catch (InterruptedException | BrokenBarrierException e) {
                        throw new IllegalStateException(e);
                    }
                }

                @Override
                public String get(String key) {
                    synchronized (FakeJob.this) {
                        return visible.get(key);
                    }
                }

                @Override
                public void abort(int exitCode, String message) {}

                @Override
                public void finalizeJob() {}

                @Override
                public void close() {}
            };
        }
    }

    private List<JobBootstrap> start(FakeJob job, String mapping, Function<Integer, Map<String, String>> env)
            throws Exception {
        List<Future<JobBootstrap>> fs = new ArrayList<>();
        for (int r = 0; r < job.size; r++) {
            int rank = r;
            fs.add(pool.submit(() -> new JobBootstrap(job.rank(rank), mapping, env.apply(rank))));
        }
        List<JobBootstrap> out = new ArrayList<>();
        for (Future<JobBootstrap> f : fs) {
            out.add(f.get());
        }
        return out;
    }

    @Test
    void underHydraRankZeroMakesTheSecretAndEveryoneGetsIt() throws Exception {
        FakeJob job = new FakeJob(3);
        List<JobBootstrap> ranks = start(job, "(vector,(0,1,1))", r -> Map.of());
        String secret = ranks.get(0).secret();
        assertThat(secret).matches("[0-9a-f]{32}");
        assertThat(ranks).allMatch(b -> b.secret().equals(secret));
        assertThat(job.fences.get()).isEqualTo(1);
        assertThat(ranks.get(1).isLocal(2)).isTrue();
        assertThat(ranks.get(1).listenHost()).as("one host: loopback").isNull();
        // a second job gets another secret
        assertThat(start(new FakeJob(2), null, r -> Map.of()).get(0).secret()).isNotEqualTo(secret);
    }

    @Test
    void underJmpirunNothingExtraHappensAtStartUp() throws Exception {
        FakeJob job = new FakeJob(2);
        List<JobBootstrap> ranks = start(job, "(vector,(0,2,1))", r -> Map.of("JMPI_SECRET", "given"));
        assertThat(job.fences.get()).isZero();
        assertThat(ranks.get(0).secret()).isEqualTo("given");
        assertThat(ranks.get(0).isLocal(1)).isFalse();
        assertThat(ranks.get(0).isLocal(0)).isTrue();
        assertThat(ranks.get(0).listenHost()).as("two hosts: every interface").isEqualTo("*");
    }

    @Test
    void withoutAMappingHostIdentitiesDecideLazily() throws Exception {
        FakeJob job = new FakeJob(3);
        List<JobBootstrap> ranks = start(job, null, r -> Map.of("JMPI_SECRET", "s", "JMPI_LOCAL_SIZE", "3"));
        assertThat(job.fences.get()).as("the identities are put before one fence").isEqualTo(1);
        assertThat(ranks.get(0).listenHost()).as("all local by JMPI_LOCAL_SIZE").isNull();
        // rank 2 "moves" to another network namespace before anyone asked about it: identities are read lazily
        job.visible.put(JobBootstrap.HOST_KEY_PREFIX + "2", "0123456789ab0123456789ab");
        assertThat(ranks.get(1).isLocal(2)).isFalse();
        assertThat(ranks.get(1).isLocal(0)).isTrue();
        assertThat(ranks.get(1).isLocal(7)).isFalse();
        // without a local-size hint a job without mapping may span hosts: listen on every interface
        assertThat(start(new FakeJob(2), null, r -> Map.of()).get(0).listenHost()).isEqualTo("*");
    }

    @Test
    void aNamedInterfaceHostThatIsOursIsUsedElseEveryInterface() throws Exception {
        FakeJob job = new FakeJob(2);
        List<JobBootstrap> ranks = start(job, "(vector,(0,2,1))", r -> Map.of("JMPI_SECRET", "s",
                "MPIR_CVAR_CH3_INTERFACE_HOSTNAME", "192.0.2.1"));
        assertThat(ranks.get(0).listenHost()).isEqualTo("*");
    }

    @Test
    void hostIdentityIsStableAndCompact() {
        assertThat(HostIdentity.get()).matches("[0-9a-f]{24}").isEqualTo(HostIdentity.get());
    }
}
