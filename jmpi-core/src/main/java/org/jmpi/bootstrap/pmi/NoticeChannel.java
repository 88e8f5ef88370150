package org.jmpi.bootstrap.pmi;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.jmpi.bootstrap.Agreement;
import org.jmpi.bootstrap.Bootstrap.FailureListener;

/**
 * jmpirun's notice channel (with {@code --continue-on-failure}): a second connection to the {@code PMI_PORT} server,
 * identified like the first plus {@code jmpi_notices=1}. Lines the server pushes:
 *
 * <pre>
 * cmd=jmpi_failed rank=R reason=text                   rank R failed (spaces in the reason are sent as _)
 * cmd=jmpi_agreed key=K flag=F failed=a,b|- ctx=C|-1   the decision of agreement K (see {@link Agreement})
 * </pre>
 *
 * and the line a rank sends to contribute to an agreement:
 *
 * <pre>
 * cmd=jmpi_agree key=K members=a,b,c flag=F ctx=0|1
 * </pre>
 *
 * Only jmpirun's server knows these requests. A daemon thread reads the channel; it ends when the connection closes,
 * and then fails every agreement still waiting.
 *
 * <p>Threading: {@link #agree} may be called by any thread; writes are serialised on the channel, answers are handed
 * over through futures keyed by the agreement's key.
 */
public final class NoticeChannel implements AutoCloseable, Agreement {
    private final SocketLineChannel channel;
    private final Map<String, CompletableFuture<Decision>> waiting = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private NoticeChannel(SocketLineChannel channel) {
        this.channel = channel;
    }

    /** Opens the channel to {@code hostPort} for {@code pmiId} and starts its reader. */
    static NoticeChannel open(String hostPort, int pmiId, String secret, int connectTimeoutMillis,
            FailureListener listener) {
        SocketLineChannel ch;
        try {
            ch = SocketLineChannel.connect(hostPort, connectTimeoutMillis);
            Map<String, String> fields = new java.util.LinkedHashMap<>();
            fields.put("pmiid", Integer.toString(pmiId));
            if (secret != null && !secret.isBlank()) {
                fields.put(Pmi1Bootstrap.SECRET_KEY, secret);
            }
            fields.put("jmpi_notices", "1");
            ch.writeLine(new Pmi1Message("initack", fields).format());
            String ack = ch.readLine();
            if (ack == null || !Pmi1Message.parse(ack).command().equals("initack")) {
                ch.close();
                throw new PmiException("the PMI server at " + hostPort + " refused the failure-notice channel: "
                        + ack);
            }
        } catch (IOException e) {
            throw new PmiException("cannot open the failure-notice channel to " + hostPort + ": " + e, e);
        }
        NoticeChannel n = new NoticeChannel(ch);
        Thread.ofPlatform().daemon().name("jmpi-failure-notices").start(() -> n.read(listener));
        return n;
    }

    private void read(FailureListener listener) {
        try {
            for (String line = channel.readLine(); line != null; line = channel.readLine()) {
                Pmi1Message m = Pmi1Message.parse(line);
                switch (m.command()) {
                    case "jmpi_failed" -> {
                        int r = m.intValue("rank", -1);
                        if (r >= 0) {
                            String reason = m.get("reason");
                            listener.failed(r, reason == null ? "failed" : reason.replace('_', ' '));
                        }
                    }
                    case "jmpi_agreed" -> {
                        CompletableFuture<Decision> f = waiting.remove(String.valueOf(m.get("key")));
                        if (f != null) {
                            f.complete(new Decision(m.intValue("flag", 0), ranks(m.get("failed")),
                                    m.intValue("ctx", -1)));
                        }
                    }
                    default -> {
                        // a later server's notice this rank does not know: ignore
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // the job is ending; nothing more will come
        } finally {
            closed = true;
            PmiException gone = new PmiException("the launcher's notice channel closed during an agreement");
            waiting.values().forEach(f -> f.completeExceptionally(gone));
        }
    }

    private static int[] ranks(String list) {
        if (list == null || list.isEmpty() || list.equals("-")) {
            return new int[0];
        }
        return java.util.Arrays.stream(list.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    @Override
    public CompletableFuture<Decision> agree(String key, int[] members, int flag, boolean newContext) {
        CompletableFuture<Decision> f = new CompletableFuture<>();
        if (waiting.putIfAbsent(key, f) != null) {
            return CompletableFuture.failedFuture(new IllegalStateException("agreement " + key + " is in progress"));
        }
        StringBuilder m = new StringBuilder();
        for (int w : members) {
            m.append(m.isEmpty() ? "" : ",").append(w);
        }
        try {
            synchronized (channel) {
                channel.writeLine("cmd=jmpi_agree key=" + key + " members=" + m + " flag=" + flag + " ctx="
                        + (newContext ? 1 : 0));
            }
        } catch (IOException e) {
            waiting.remove(key);
            return CompletableFuture.failedFuture(new PmiException("cannot reach the launcher: " + e, e));
        }
        if (closed && waiting.remove(key, f)) {
            return CompletableFuture.failedFuture(new PmiException("the launcher's notice channel is closed"));
        }
        return f;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
