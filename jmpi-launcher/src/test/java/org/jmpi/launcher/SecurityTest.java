package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jmpi.launcher.ranks.FaultRank;
import org.jmpi.launcher.ranks.TestRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every listener of a job refuses a connection that does not prove the job's secret: a proxy's PMI server on this
 * host and on another ("remote" through a fake ssh), the ranks' TCP transport, and the rendezvous server of
 * {@code jmpirun --kvs-server}. (The PMI server's own rules, including the /proc check for rank processes, are in
 * {@code PmiServerTest}.)
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SecurityTest {
    @TempDir
    Path dir;

    private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> notes = new ConcurrentLinkedQueue<>();

    /** Sends {@code hello} and says whether the other side closed the connection without a byte. */
    private static boolean closedWithoutAWord(String host, int port, byte[] hello) throws Exception {
        try (Socket s = new Socket(host, port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(hello);
            out.flush();
            return s.getInputStream().read() == -1;
        }
    }

    private static byte[] line(String s) {
        return (s + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * A TCP transport hello (TcpLayout): magic, the protocol's version (2), flags, rank, job id and secret lengths, then
     * both.
     */
    private static byte[] tcpHello(int rank, String jobId, String secret) {
        byte[] job = jobId.getBytes(StandardCharsets.UTF_8);
        byte[] sec = secret.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(16 + job.length + sec.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put("JMPI".getBytes(StandardCharsets.US_ASCII)).putShort((short) 2).putShort((short) 0).putInt(rank)
                .putShort((short) job.length).putShort((short) sec.length).put(job).put(sec);
        return b.array();
    }

    private Launcher.Builder job(int ranks, Class<?> main, String mode, CountDownLatch ready, String readyWord)
            throws Exception {
        return Launcher.builder().ranks(ranks).classpath(LauncherTest.testClasses()).mainClass(main.getName())
                .args(mode).jvmArgs(LauncherTest.FAST_JVM).timeout(Duration.ofSeconds(60)).notices(notes::add)
                .output((rank, stderr, l) -> {
                    lines.add(rank + (stderr ? " err: " : " out: ") + l);
                    if (l.startsWith(readyWord)) {
                        ready.countDown();
                    }
                });
    }

    @Test
    void theRanksTcpTransportRefusesAHelloWithoutTheSecret() throws Exception {
        CountDownLatch ready = new CountDownLatch(2);
        try (Launcher.Job job = job(2, FaultRank.class, "card", ready, "card ").build().start()) {
            assertThat(ready.await(60, TimeUnit.SECONDS)).as(lines.toString()).isTrue();
            Matcher m = Pattern.compile("0 out: card 0 (\\S+):(\\d+) job (\\S+)").matcher(String.join("\n", lines));
            assertThat(m.find()).as(lines.toString()).isTrue();
            String host = m.group(1);
            int port = Integer.parseInt(m.group(2));
            assertThat(host).as("one host: loopback only").isEqualTo("127.0.0.1");
            String jobId = m.group(3);
            assertThat(closedWithoutAWord(host, port, tcpHello(1, jobId, ""))).isTrue();
            assertThat(closedWithoutAWord(host, port, tcpHello(1, jobId, "guessed"))).isTrue();
            job.kill();
            assertThat(job.await().exitCode()).isEqualTo(LaunchResult.KILLED_EXIT_CODE);
        }
        assertThat(lines).anyMatch(l -> l.startsWith("0 err: ") && l.contains("refused a connection")
                && l.contains("wrong job id or secret"));
    }

    @Test
    void aRemoteProxysPmiServerRefusesAConnectionWithoutTheSecret() throws Exception {
        Path fakeSsh = dir.resolve("fakessh");
        Files.writeString(fakeSsh, "#!/bin/sh\nshift\nexec sh -c \"$1\"\n");
        Files.setPosixFilePermissions(fakeSsh, PosixFilePermissions.fromString("rwxr-xr-x"));
        CountDownLatch ready = new CountDownLatch(1);
        Launcher.Builder b = job(1, TestRank.class, "port", ready, "port ").hosts(List.of(HostSpec.of("nodeB")))
                .launchAgent(new LaunchAgent(LaunchAgent.Kind.SSH, List.of(fakeSsh.toString()), List.of()));
        try (Launcher.Job job = b.build().start()) {
            assertThat(ready.await(60, TimeUnit.SECONDS)).as(lines + " " + notes).isTrue();
            String port = lines.stream().filter(l -> l.contains("port ")).findFirst().orElseThrow();
            String[] hp = port.substring(port.indexOf("port ") + 5).split(":");
            assertThat(hp[0]).isEqualTo("127.0.0.1");
            assertThat(closedWithoutAWord(hp[0], Integer.parseInt(hp[1]), line("cmd=initack pmiid=0"))).isTrue();
            assertThat(closedWithoutAWord(hp[0], Integer.parseInt(hp[1]), line("cmd=initack pmiid=0 jmpi_secret=x")))
                    .isTrue();
            job.kill();
            assertThat(job.await().exitCode()).isEqualTo(LaunchResult.KILLED_EXIT_CODE);
        }
        assertThat(notes).anyMatch(n -> n.contains("host nodeB: refused a PMI connection") && n.contains("no job "
                + "secret"));
        assertThat(notes).anyMatch(n -> n.contains("wrong job secret"));
    }

    @Test
    void theRendezvousServerRefusesAConnectionWithoutTheSecret() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CompletableFuture<Integer> server = CompletableFuture.supplyAsync(() -> JmpiRun.execute(
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Map.of(), "--kvs-server"));
        String kvs = null;
        String secret = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (secret == null) {
            assertThat(System.nanoTime()).as("the server prints its address").isLessThan(deadline);
            for (String l : out.toString(StandardCharsets.UTF_8).lines().toList()) {
                if (l.startsWith("JMPI_KVS=")) {
                    kvs = l.substring(9);
                } else if (l.startsWith("JMPI_SECRET=")) {
                    secret = l.substring(12);
                }
            }
            try {
                server.get(20, TimeUnit.MILLISECONDS); // ended early: the assertions below say why
            } catch (java.util.concurrent.TimeoutException e) {
                // still serving, as it should
            }
        }
        String[] hp = kvs.split(":");
        int port = Integer.parseInt(hp[1]);
        assertThat(hp[0]).as("loopback by default").isEqualTo("127.0.0.1");
        assertThat(closedWithoutAWord(hp[0], port, line("cmd=initack pmiid=0 size=1"))).isTrue();
        assertThat(closedWithoutAWord(hp[0], port, line("cmd=initack pmiid=0 size=1 jmpi_secret=nope"))).isTrue();
        // with the secret a rank is served; its abort ends the server with that code
        try (Socket s = new Socket(hp[0], port)) {
            s.getOutputStream().write(line("cmd=initack pmiid=0 size=1 jmpi_secret=" + secret));
            InputStream in = s.getInputStream();
            byte[] buf = new byte[256];
            int n = in.read(buf);
            assertThat(new String(buf, 0, n, StandardCharsets.US_ASCII)).startsWith("cmd=initack");
            s.getOutputStream().write(line("cmd=abort exitcode=9 error_msg=done"));
        }
        assertThat(server.get(20, TimeUnit.SECONDS)).isEqualTo(9);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("refused a connection").contains("no job secret")
                .contains("wrong job secret");
    }
}
