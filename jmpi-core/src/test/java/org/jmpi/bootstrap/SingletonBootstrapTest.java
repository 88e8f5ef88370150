package org.jmpi.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SingletonBootstrapTest {
    @Test
    void isRankZeroOfOneAndShowsPutsAfterTheFence() {
        try (SingletonBootstrap b = new SingletonBootstrap()) {
            assertThat(b.rank()).isZero();
            assertThat(b.size()).isEqualTo(1);
            assertThat(b.jobId()).startsWith("s" + ProcessHandle.current().pid());
            b.put("card-0", "tcp://x");
            assertThat(b.get("card-0")).isNull();
            b.fence();
            assertThat(b.get("card-0")).isEqualTo("tcp://x");
            assertThat(b.get("other")).isNull();
            b.abort(7, "why");
            b.abort(8, "later");
            assertThat(b.abortCode()).isEqualTo(7);
            b.finalizeJob();
            assertThat(b.finalized()).isTrue();
        }
        assertThat(new SingletonBootstrap().jobId()).isNotEqualTo(new SingletonBootstrap().jobId());
    }
}
