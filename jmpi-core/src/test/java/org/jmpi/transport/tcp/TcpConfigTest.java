package org.jmpi.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TcpConfigTest {
    private static TcpConfig from(Map<String, String> properties, Map<String, String> env) {
        return TcpConfig.from(properties::get, env::get);
    }

    @Test
    void defaultsWhenNothingIsSet() {
        assertThat(from(Map.of(), Map.of())).isEqualTo(TcpConfig.defaults());
        assertThat(TcpConfig.defaults().host()).isEqualTo("127.0.0.1");
        assertThat(TcpConfig.defaults().secret()).isEmpty();
    }

    @Test
    void propertiesWinOverEnvironmentAndSizesTakeSuffixes() {
        TcpConfig c = from(
                Map.of("jmpi.tcp.host", "eth0", "jmpi.tcp.write.buffer", "256k", "jmpi.tcp.chunk.bytes", "2m"),
                Map.of("JMPI_TCP_HOST", "10.0.0.1", "JMPI_TCP_SOCKET_SEND_BUFFER", "8m", "JMPI_TCP_MAX_FRAME", "1g",
                        "JMPI_SECRET", " s3cret"));
        assertThat(c.host()).isEqualTo("eth0");
        assertThat(c.writeBuffer()).isEqualTo(256 << 10);
        assertThat(c.chunkBytes()).isEqualTo(2 << 20);
        assertThat(c.socketSendBuffer()).isEqualTo(8 << 20);
        assertThat(c.maxFrame()).isEqualTo(1 << 30);
        assertThat(c.secret()).isEqualTo(" s3cret");
    }

    @Test
    void badValuesNameTheParameter() {
        assertThatThrownBy(() -> from(Map.of("jmpi.tcp.port", "http"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jmpi.tcp.port");
        assertThatThrownBy(() -> from(Map.of(), Map.of("JMPI_TCP_WRITE_BUFFER", "1k")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jmpi.tcp.write.buffer");
        assertThatThrownBy(() -> from(Map.of("jmpi.tcp.read.buffer", "4g"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jmpi.tcp.read.buffer");
        assertThatThrownBy(() -> from(Map.of("jmpi.tcp.chunk.bytes", "1k"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jmpi.tcp.chunk.bytes");
    }

    @Test
    void socketBuffersTheSystemWouldCapAreLeftToItsAutotuning() {
        assertThat(TcpConfig.settable(0, 4 << 20)).isZero();
        assertThat(TcpConfig.settable(4 << 20, 212_992)).isZero(); // Linux's default cap
        assertThat(TcpConfig.settable(4 << 20, 4 << 20)).isEqualTo(4 << 20);
        assertThat(TcpConfig.settable(8 << 10, 212_992)).isEqualTo(8 << 10);
        assertThat(TcpConfig.settable(4 << 20, -1)).isEqualTo(4 << 20); // no cap known: as asked
    }

    @Test
    void theDefaultSocketBuffersAreSetOnlyWhereThisSystemAllowsThem() throws Exception {
        java.nio.file.Path wmem = java.nio.file.Path.of("/proc/sys/net/core/wmem_max");
        java.nio.file.Path rmem = java.nio.file.Path.of("/proc/sys/net/core/rmem_max");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isReadable(wmem)
                && java.nio.file.Files.isReadable(rmem));
        TcpConfig d = TcpConfig.defaults();
        long wmax = Long.parseLong(java.nio.file.Files.readString(wmem).trim());
        long rmax = Long.parseLong(java.nio.file.Files.readString(rmem).trim());
        assertThat(d.sendBufferToSet()).isEqualTo(d.socketSendBuffer() <= wmax ? d.socketSendBuffer() : 0);
        assertThat(d.receiveBufferToSet()).isEqualTo(d.socketReceiveBuffer() <= rmax ? d.socketReceiveBuffer() : 0);
    }

    @Test
    void describeListsEveryParameterWithoutTheSecret() {
        Map<String, String> d = TcpConfig.defaults().withSecret("hidden").describe();
        assertThat(d).containsKeys("jmpi.tcp.host", "jmpi.tcp.port", "jmpi.tcp.socket.send.buffer",
                "jmpi.tcp.socket.receive.buffer", "jmpi.tcp.write.buffer", "jmpi.tcp.read.buffer", "jmpi.tcp.max.frame",
                "jmpi.tcp.eager.limit", "jmpi.tcp.chunk.bytes", "jmpi.secret");
        assertThat(d.toString()).doesNotContain("hidden");
        assertThat(TcpConfig.defaults().withSecret("hidden").toString()).doesNotContain("hidden");
    }
}
