package org.jmpi.bootstrap.pmi;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * A PMI-1 server for tests. It either replays a transcript ({@code "-> "} lines are what the client must send,
 * {@code "<- "} lines are sent back, {@link #HANG_UP} closes the connection) and records every deviation, or answers
 * each request with a function. After the transcript it expects the client to close the connection.
 */
final class FakePmiServer implements AutoCloseable {
    /** A transcript step: the server closes the connection here. */
    static final String HANG_UP = "xx hang up";

    private final ServerSocket server;
    private final List<String> problems = new ArrayList<>();
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final Thread thread;

    private FakePmiServer(Body body) throws IOException {
        server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        thread = Thread.ofPlatform().daemon().name("fake-pmi-server").start(() -> {
            try (SocketLineChannel ch = new SocketLineChannel(server.accept())) {
                body.run(ch, this::record);
            } catch (IOException | RuntimeException e) {
                record("server failed: " + e);
            } finally {
                done.complete(null);
            }
        });
    }

    @FunctionalInterface
    interface Body {
        void run(LineChannel ch, Consumer<String> problems) throws IOException;
    }

    /** Replays {@code transcript} to the first client that connects over TCP. */
    static FakePmiServer replaying(List<String> transcript) throws IOException {
        return new FakePmiServer((ch, problems) -> replay(ch, transcript, problems));
    }

    /** Answers each request line with {@code reply.apply(line)} (null: no answer) until the client disconnects. */
    static FakePmiServer answering(UnaryOperator<String> reply) throws IOException {
        return new FakePmiServer((ch, problems) -> {
            for (String line = ch.readLine(); line != null; line = ch.readLine()) {
                String r = reply.apply(line);
                if (r != null) {
                    ch.writeLine(r);
                }
            }
        });
    }

    /** Replays a transcript on an already open channel; reports deviations to {@code problems}. */
    static void replay(LineChannel ch, List<String> transcript, Consumer<String> problems)
            throws IOException {
        int i = 0;
        for (String step : transcript) {
            i++;
            if (step.startsWith("-> ")) {
                String got = ch.readLine();
                if (!step.substring(3).equals(got)) {
                    problems.accept("step " + i + ": expected '" + step.substring(3) + "', got '" + got + "'");
                    return;
                }
            } else if (step.startsWith("<- ")) {
                ch.writeLine(step.substring(3));
            } else if (step.equals(HANG_UP)) {
                return;
            } else {
                throw new IllegalArgumentException("bad transcript step " + step);
            }
        }
        String extra = ch.readLine();
        if (extra != null) {
            problems.accept("client sent more than the transcript: '" + extra + "'");
        }
    }

    private synchronized void record(String problem) {
        problems.add(problem);
    }

    /** Every deviation from the transcript seen so far. */
    synchronized List<String> problems() {
        return List.copyOf(problems);
    }

    void awaitDone() throws Exception {
        done.get(5, TimeUnit.SECONDS);
    }

    String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        server.close();
        thread.interrupt();
    }
}
