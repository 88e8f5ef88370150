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
    void describeListsEveryParameterWithoutTheSecret() {
        Map<String, String> d = TcpConfig.defaults().withSecret("hidden").describe();
        assertThat(d).containsKeys("jmpi.tcp.host", "jmpi.tcp.port", "jmpi.tcp.socket.send.buffer",
                "jmpi.tcp.socket.receive.buffer", "jmpi.tcp.write.buffer", "jmpi.tcp.read.buffer", "jmpi.tcp.max.frame",
                "jmpi.tcp.eager.limit", "jmpi.tcp.chunk.bytes", "jmpi.secret");
        assertThat(d.toString()).doesNotContain("hidden");
        assertThat(TcpConfig.defaults().withSecret("hidden").toString()).doesNotContain("hidden");
    }
}
