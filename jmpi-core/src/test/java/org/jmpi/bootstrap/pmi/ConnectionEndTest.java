package org.jmpi.bootstrap.pmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The end of a PMI connection is noticed while the rank makes no PMI call (what ends a rank whose launcher is gone),
 * and never after the rank closed its side or said finalize.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnectionEndTest {

    @Test
    void theEndOfAnInheritedDescriptorIsSeenWithoutReading() throws Throwable {
        int[] fds = PmiFdTest.socketpair();
        CountDownLatch ended = new CountDownLatch(1);
        try (FdLineChannel rank = new FdLineChannel(fds[0])) {
            rank.watchEnd(ended::countDown);
            FdLineChannel server = new FdLineChannel(fds[1]);
            server.writeLine("cmd=barrier_out rc=0");
            server.close();
            assertThat(ended.await(10, TimeUnit.SECONDS)).as("end seen").isTrue();
            assertThat(rank.readLine()).as("bytes sent before the end are still read").isEqualTo(
                    "cmd=barrier_out rc=0");
            assertThat(rank.readLine()).isNull();
        }
    }

    @Test
    void closingTheRanksOwnSideIsNotTheEndOfTheLauncher() throws Throwable {
        int[] fds = PmiFdTest.socketpair();
        CountDownLatch ended = new CountDownLatch(1);
        FdLineChannel server = new FdLineChannel(fds[1]);
        try {
            FdLineChannel rank = new FdLineChannel(fds[0]);
            rank.watchEnd(ended::countDown);
            rank.close();
            server.close(); // the descriptor number may now be reused; the watcher must stay quiet
            assertThat(ended.await(1500, TimeUnit.MILLISECONDS)).isFalse();
        } finally {
            server.close();
        }
    }

    @Test
    void theEndOfATcpConnectionIsSeenWithoutReading() throws Exception {
        try (ServerSocket ss = new ServerSocket()) {
            ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Socket client = new Socket(InetAddress.getLoopbackAddress(), ss.getLocalPort());
            CountDownLatch ended = new CountDownLatch(1);
            try (SocketLineChannel rank = new SocketLineChannel(client); Socket server = ss.accept()) {
                rank.watchEnd(ended::countDown);
                server.getOutputStream().write("cmd=set size=2\n".getBytes(StandardCharsets.US_ASCII));
                server.close();
                assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
                assertThat(rank.readLine()).isEqualTo("cmd=set size=2");
                assertThat(rank.readLine()).isNull();
            }
        }
    }

    @Test
    void aTcpConnectionClosedByTheRankIsQuiet() throws Exception {
        try (ServerSocket ss = new ServerSocket()) {
            ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Socket client = new Socket(InetAddress.getLoopbackAddress(), ss.getLocalPort());
            CountDownLatch ended = new CountDownLatch(1);
            try (Socket server = ss.accept()) {
                SocketLineChannel rank = new SocketLineChannel(client);
                rank.watchEnd(ended::countDown);
                rank.close();
                assertThat(server.getInputStream().read()).isEqualTo(-1);
                assertThat(ended.await(1500, TimeUnit.MILLISECONDS)).isFalse();
            }
        }
    }

    @Test
    void afterFinalizeTheServersCloseIsExpected() throws Exception {
        CountDownLatch ended = new CountDownLatch(1);
        List<String> script = new ArrayList<>(Transcripts.HYDRA_PMI_PORT_RANK1.subList(0, 11));
        script.add("-> cmd=finalize");
        script.add("<- cmd=finalize_ack");
        script.add(FakePmiServer.HANG_UP);
        try (FakePmiServer server = FakePmiServer.replaying(script)) {
            Pmi1Bootstrap pmi = Pmi1Bootstrap.connect(server.address(), 1);
            pmi.watchEnd(ended::countDown);
            pmi.finalizeJob();
            server.awaitDone();
            assertThat(ended.await(1500, TimeUnit.MILLISECONDS)).isFalse();
            pmi.close();
            assertThat(server.problems()).isEmpty();
        }
    }

    @Test
    void beforeFinalizeTheServersCloseEndsTheRank() throws Exception {
        CountDownLatch ended = new CountDownLatch(1);
        List<String> script = new ArrayList<>(Transcripts.HYDRA_PMI_PORT_RANK1.subList(0, 11));
        script.add(FakePmiServer.HANG_UP);
        try (FakePmiServer server = FakePmiServer.replaying(script)) {
            Pmi1Bootstrap pmi = Pmi1Bootstrap.connect(server.address(), 1);
            pmi.watchEnd(ended::countDown);
            assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
            pmi.close();
        }
    }
}
