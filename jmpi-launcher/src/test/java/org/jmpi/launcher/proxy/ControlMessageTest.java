package org.jmpi.launcher.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.util.List;
import java.util.Map;
import org.jmpi.launcher.proxy.ControlMessage.Aborted;
import org.jmpi.launcher.proxy.ControlMessage.Exited;
import org.jmpi.launcher.proxy.ControlMessage.FenceIn;
import org.jmpi.launcher.proxy.ControlMessage.FenceOut;
import org.jmpi.launcher.proxy.ControlMessage.Output;
import org.jmpi.launcher.proxy.ControlMessage.Signal;
import org.jmpi.launcher.proxy.ControlMessage.Spec;
import org.jmpi.launcher.proxy.ControlMessage.Stdin;
import org.jmpi.launcher.proxy.ProxySpec.RankLaunch;
import org.junit.jupiter.api.Test;

class ControlMessageTest {
    private static ControlMessage roundTrip(ControlMessage m) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        ControlMessage.write(out, m);
        out.flush();
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        ControlMessage back = ControlMessage.read(in);
        assertThat(in.available()).isZero();
        return back;
    }

    @Test
    void everyMessageSurvivesTheWire() throws Exception {
        for (ControlMessage m : List.of(new FenceOut(Map.of("a", "1", "ü", "∑")), new FenceIn(Map.of()),
                new ControlMessage.StdinEof(), new Signal(Signal.TERM), new ControlMessage.RankFailed(3, "gone"),
                new ControlMessage.Heartbeat(), new ControlMessage.Started(2, 1L << 40), new Output(1, true, "x y"),
                new Exited(5, 137, true, false), new Aborted(0, 7, "bye"), new ControlMessage.ProtocolError(1, "?"),
                new ControlMessage.Fatal("f"), new ControlMessage.Notice("n"))) {
            assertThat(roundTrip(m)).isEqualTo(m);
        }
        Stdin s = (Stdin) roundTrip(new Stdin(new byte[] {1, 2, 3}));
        assertThat(s.bytes()).containsExactly(1, 2, 3);
    }

    @Test
    void aSpecSurvivesTheWire() throws Exception {
        ProxySpec spec = new ProxySpec("job", "secret", 4, 1, "w1", "(vector,(0,2,2))", new int[] {0, 0, 1, 1},
                2000, 1000, 4000, true, "@ssh", Map.of("JMPI_X", "y"), List.of(
                        new RankLaunch(2, 0, List.of("java", "-cp", "a b", "Main"), Map.of("JMPI_RANK", "2"), "/w",
                                ProxySpec.Stdin.FORWARDED),
                        new RankLaunch(3, 1, List.of("java"), Map.of(), "", ProxySpec.Stdin.NONE)));
        ProxySpec back = ((Spec) roundTrip(new Spec(spec))).spec();
        assertThat(back.appnums()).containsExactly(0, 0, 1, 1);
        assertThat(back.ranks()).isEqualTo(spec.ranks());
        assertThat(back).usingRecursiveComparison().isEqualTo(spec);
        assertThat(back.rankNumbers()).containsExactly(2, 3);
    }

    @Test
    void corruptStreamsAreRejected() {
        assertThatThrownBy(() -> ControlMessage.read(new DataInputStream(new ByteArrayInputStream(new byte[0]))))
                .isInstanceOf(EOFException.class);
        assertThatThrownBy(() -> ControlMessage.read(new DataInputStream(new ByteArrayInputStream(
                new byte[] {0, 0, 0, 1, 99})))).hasMessageContaining("unknown control message type 99");
        assertThatThrownBy(() -> ControlMessage.read(new DataInputStream(new ByteArrayInputStream(
                new byte[] {(byte) 0x7f, 0, 0, 0})))).hasMessageContaining("corrupt");
        assertThatThrownBy(() -> ControlMessage.read(new DataInputStream(new ByteArrayInputStream(
                new byte[] {0, 0, 0, 3, 5, 0, 0})))).hasMessageContaining("truncated");
    }
}
