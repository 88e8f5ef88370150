package org.jmpi.bootstrap.pmi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** PMI over an inherited descriptor ({@code PMI_FD}), tested on a socketpair made through libc. */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PmiFdTest {

    /** A connected AF_UNIX stream pair, made through libc (also for {@link ConnectionEndTest}). */
    @SuppressWarnings("restricted")
    static int[] socketpair() throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle sp = linker.downcallHandle(linker.defaultLookup().find("socketpair").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(JAVA_INT, 2);
            int rc = (int) sp.invokeExact(1 /* AF_UNIX */, 1 /* SOCK_STREAM */, 0, fds);
            assertThat(rc).as("socketpair").isZero();
            return new int[] {fds.getAtIndex(JAVA_INT, 0), fds.getAtIndex(JAVA_INT, 1)};
        }
    }

    @Test
    void followsTheSlurmTranscriptOverPmiFd() throws Throwable {
        int[] fds = socketpair();
        List<String> problems = new CopyOnWriteArrayList<>();
        Thread server = Thread.ofPlatform().daemon().start(() -> {
            try (FdLineChannel ch = new FdLineChannel(fds[1])) {
                FakePmiServer.replay(ch, Transcripts.SLURM_PMI_FD_RANK1, problems::add);
            } catch (Exception e) {
                problems.add("server failed: " + e);
            }
        });
        Pmi1Bootstrap pmi = Pmi1Bootstrap.fromEnvironment(
                Map.of("PMI_FD", Integer.toString(fds[0]), "PMI_RANK", "1", "PMI_SIZE", "2", "PMI_PORT", "ignored:1"));
        assertThat(pmi.rank()).isEqualTo(1);
        assertThat(pmi.size()).isEqualTo(2);
        assertThat(pmi.jobId()).isEqualTo("7.0");
        pmi.put("bc-1", "tcp://127.0.0.1:40001");
        pmi.fence();
        assertThat(pmi.get("bc-0")).isEqualTo("tcp://127.0.0.1:40000");
        assertThat(pmi.get("bc-1")).isEqualTo("tcp://127.0.0.1:40001");
        assertThat(pmi.get("nosuchkey")).isNull();
        assertThat(pmi.processMapping()).isEqualTo("(vector,(0,1,2))");
        pmi.fence();
        pmi.finalizeJob();
        pmi.close();
        server.join(TimeUnit.SECONDS.toMillis(5));
        assertThat(server.isAlive()).isFalse();
        assertThat(problems).isEmpty();
    }
}
