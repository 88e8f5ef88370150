package org.jmpi.launcher.proxy;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jmpi.launcher.proxy.ControlMessage.Fatal;
import org.jmpi.launcher.proxy.ControlMessage.Heartbeat;
import org.jmpi.launcher.proxy.ControlMessage.Spec;

/**
 * The process jmpirun starts on every other host ({@code ssh host java ... org.jmpi.launcher.proxy.ProxyMain}): reads
 * a {@link ControlMessage.Spec} on standard input, runs a {@link HostProxy}, and talks to the front end over standard
 * input and output until every rank of the host has ended.
 *
 * <p>Losing the front end: end of standard input (the ssh session closed), or no message for the spec's link
 * timeout (a cut link, where TCP reports nothing): the proxy sends SIGTERM to its ranks, SIGKILL after the grace
 * period, and exits once they are gone, so nothing of the job is left behind on this host.
 *
 * <p>Exit status: 0 after a normal end, 3 when the front end was lost, 2 when the spec could not be read.
 *
 * <p>Threading: the main thread reads standard input and dispatches; one platform thread sends heartbeats and
 * watches the link; writes to standard output are serialised on {@code out}. {@code lastHeard} is volatile.
 */
public final class ProxyMain {
    private final DataOutputStream out;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile long lastHeard = System.nanoTime();
    private volatile boolean lost;
    private volatile boolean outputBroken;
    private HostProxy proxy;

    private ProxyMain(DataOutputStream out) {
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        // Standard output carries the protocol: keep stray prints (ours or a library's) off it.
        PrintStream stdout = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        stdout.print(ControlMessage.GREETING + "\n");
        stdout.flush();
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out),
                1 << 16));
        DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(FileDescriptor.in),
                1 << 16));
        System.exit(new ProxyMain(out).run(in));
    }

    private int run(DataInputStream in) throws InterruptedException {
        ProxySpec spec;
        try {
            ControlMessage first = ControlMessage.read(in);
            if (!(first instanceof Spec s)) {
                send(new Fatal("expected a job spec first, got " + first.getClass().getSimpleName()));
                return 2;
            }
            spec = s.spec();
        } catch (IOException e) {
            System.err.println("jmpi proxy: cannot read the job spec: " + e);
            return 2;
        }
        proxy = new HostProxy(spec, System.getenv(), this::send, finished::countDown);
        Thread.ofPlatform().daemon().name("jmpi-proxy-heartbeat").start(() -> heartbeat(spec));
        try {
            proxy.start();
        } catch (IOException | RuntimeException e) {
            send(new Fatal("host " + spec.hostName() + ": cannot start: " + e));
            proxy.close();
            return 2;
        }
        Thread reader = Thread.ofPlatform().daemon().name("jmpi-proxy-stdin").start(() -> {
            try {
                while (true) {
                    ControlMessage m = ControlMessage.read(in);
                    lastHeard = System.nanoTime();
                    proxy.handle(m);
                }
            } catch (EOFException e) {
                linkLost("the front end closed the connection");
            } catch (IOException | RuntimeException e) {
                linkLost("the connection to the front end failed: " + e);
            }
        });
        finished.await();
        // every exit is reported; flush and leave (the front end sees the end of our output)
        synchronized (out) {
            try {
                out.flush();
            } catch (IOException e) {
                // the front end is gone
            }
        }
        proxy.close();
        reader.interrupt();
        return lost ? 3 : 0;
    }

    private void heartbeat(ProxySpec spec) {
        long period = Math.max(100, spec.heartbeatMillis());
        long timeout = TimeUnit.MILLISECONDS.toNanos(Math.max(period * 2, spec.linkTimeoutMillis()));
        while (finished.getCount() > 0) {
            try {
                Thread.sleep(period);
            } catch (InterruptedException e) {
                return;
            }
            send(new Heartbeat());
            if (System.nanoTime() - lastHeard > timeout) {
                linkLost("no word from the front end for " + Duration.ofNanos(timeout).toSeconds() + " s");
            }
        }
    }

    private void linkLost(String why) {
        if (lost || finished.getCount() == 0) {
            return;
        }
        lost = true;
        System.err.println("jmpi proxy on " + proxy.spec().hostName() + ": " + why + "; ending this host's ranks");
        proxy.terminate();
    }

    /** Sends a message to the front end; any thread. Failures mean the front end is gone (the watchdog acts). */
    private void send(ControlMessage m) {
        boolean broke = false;
        synchronized (out) {
            if (outputBroken) {
                return;
            }
            try {
                ControlMessage.write(out, m);
                out.flush();
            } catch (IOException e) {
                outputBroken = true;
                broke = true;
            }
        }
        if (broke && proxy != null) {
            linkLost("cannot write to the front end");
        }
    }
}
