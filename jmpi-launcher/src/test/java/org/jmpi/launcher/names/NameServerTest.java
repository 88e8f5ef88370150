package org.jmpi.launcher.names;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.jmpi.runtime.ErrorClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The name server's rules, and that it answers nothing to a request without its token. */
@Timeout(30)
class NameServerTest {
    @Test
    void publishLookupUnpublishFollowTheStandard() throws Exception {
        try (NameServer ns = NameServer.start(InetAddress.getLoopbackAddress(), 0)) {
            assertThat(ns.answer("lookup", "svc", null)).startsWith("err " + ErrorClass.ERR_NAME + " ");
            assertThat(ns.answer("publish", "svc", "port a")).isEqualTo("ok");
            assertThat(ns.answer("publish", "svc", "other")).startsWith("err " + ErrorClass.ERR_SERVICE + " ");
            assertThat(ns.answer("lookup", "svc", null)).isEqualTo("ok port+a");
            assertThat(ns.answer("unpublish", "svc", "other")).startsWith("err " + ErrorClass.ERR_SERVICE + " ");
            assertThat(ns.answer("unpublish", "svc", "port a")).isEqualTo("ok");
            assertThat(ns.answer("unpublish", "svc", "port a")).startsWith("err " + ErrorClass.ERR_SERVICE + " ");
            assertThat(ns.published()).isEmpty();
        }
    }

    @Test
    void aRequestWithoutTheTokenGetsNoAnswer() throws Exception {
        try (NameServer ns = NameServer.start(InetAddress.getLoopbackAddress(), 0)) {
            String[] a = ns.address().split(":");
            assertThat(request(Integer.parseInt(a[1]), "jmpi-ns/1 wrong lookup svc")).isNull();
            assertThat(request(Integer.parseInt(a[1]), "jmpi-ns/1 " + a[2] + " lookup svc"))
                    .startsWith("err " + ErrorClass.ERR_NAME);
        }
    }

    private static String request(int port, String line) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)).readLine();
        }
    }
}
