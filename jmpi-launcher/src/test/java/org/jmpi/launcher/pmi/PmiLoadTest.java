package org.jmpi.launcher.pmi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PmiFenceLoad} with 256 simulated ranks and a few fences, on the job server and the rendezvous server:
 * every value read is checked and the run must complete. No timing is asserted (the figures come from the program).
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PmiLoadTest {

    @ParameterizedTest
    @ValueSource(strings = {"pmi", "kvs"})
    void twoHundredFiftySixRanksPutFenceAndGet(String kind) throws Exception {
        PmiFenceLoad.Result r = PmiFenceLoad.run(kind, 256, 3, 2);
        assertThat(r.puts()).isEqualTo(256L * 3 * 2);
        assertThat(r.gets()).isEqualTo(256L * 3 * 2);
        assertThat(r.fenceNanos()).hasSize(3);
        assertThat(java.util.Arrays.stream(r.fenceNanos()).min().orElse(0)).isPositive();
    }
}
