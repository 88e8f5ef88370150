package org.jmpi.launcher.proxy;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Starts every rank process of this JVM from one thread that lives as long as the JVM.
 *
 * <p>Why: a rank asks the kernel for {@code SIGKILL} when its parent ends ({@code PR_SET_PDEATHSIG}, see
 * {@code org.jmpi.bootstrap.Lifeline}). For that signal the kernel's "parent" is the <em>thread</em> that forked the
 * child, not the process: the signal fires when that thread ends, even if the process lives on. The JDK forks in the
 * thread that calls {@link ProcessBuilder#start()} ({@code posix_spawn} of {@code jspawnhelper}, which then executes
 * the command in the same process; the JDK's "process reaper" threads only wait for exits and come and go as the
 * JDK likes). A rank started from a virtual thread's carrier, a pool thread that idles out or a short-lived helper
 * thread would therefore be killed at a random moment. This class owns one platform daemon thread that never ends
 * and runs every {@code start()}: a rank then receives the signal exactly when the JVM ends, however it ends.
 *
 * <p>Threading: any thread may call {@link #start}; requests are queued and run one after the other.
 */
public final class RankForker {
    private RankForker() {}

    private record Request(ProcessBuilder builder, CompletableFuture<Process> result) {}

    private static final LinkedBlockingQueue<Request> QUEUE = new LinkedBlockingQueue<>();

    static {
        Thread.ofPlatform().daemon().name("jmpi-rank-forker").start(RankForker::serve);
    }

    private static void serve() {
        while (true) {
            Request r;
            try {
                r = QUEUE.take();
            } catch (InterruptedException e) {
                continue; // this thread must not end
            }
            try {
                org.jmpi.shared.StartupTrace.mark("jmpirun: starting a rank");
                r.result.complete(r.builder.start());
                org.jmpi.shared.StartupTrace.mark("jmpirun: rank started");
            } catch (Throwable t) {
                r.result.completeExceptionally(t);
            }
        }
    }

    /** {@code builder.start()}, run by the forker thread; blocks until it is done. */
    public static Process start(ProcessBuilder builder) throws IOException {
        CompletableFuture<Process> f = new CompletableFuture<>();
        QUEUE.add(new Request(builder, f));
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return f.get();
                } catch (InterruptedException e) {
                    interrupted = true; // the process may be started already: wait for it so it is not lost
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    if (c instanceof IOException io) {
                        throw io;
                    }
                    if (c instanceof RuntimeException re) {
                        throw re;
                    }
                    if (c instanceof Error err) {
                        throw err;
                    }
                    throw new IOException(c);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
