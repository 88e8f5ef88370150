package org.jmpi.launcher;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

/**
 * Ctrl-C and SIGTERM for the {@code jmpirun} command: the first Ctrl-C is forwarded to every rank on every host
 * ({@link Launcher.Job#interrupt()}), a second one kills them all at once; SIGTERM and SIGHUP end the job
 * ({@link Launcher.Job#kill()}). Without this the JVM would run its shutdown hooks on the first Ctrl-C and there would
 * be no second chance.
 *
 * <p>The JDK has no public API for signal handlers; {@code sun.misc.Signal} in the {@code jdk.unsupported} module is
 * the supported escape hatch for exactly this. It is reached reflectively, so jmpi compiles without internal-API
 * warnings; where it is missing (another JDK), the shutdown hook of {@link Launcher} still ends the ranks.
 *
 * <p>Threading: handlers run on the JDK's signal dispatch thread and only post requests to the job.
 */
final class Signals {
    private Signals() {}

    /**
     * Installs handlers for a job that is about to start: installed before the first rank runs, so that a Ctrl-C
     * or SIGTERM during start-up (a rank can already print before {@link Launcher#start()} returns) reaches the job
     * instead of the JVM's default. What arrives before {@link Deferred#attach} is passed on there; a second Ctrl-C
     * before it exits at once, as without the handlers.
     */
    static Deferred installDeferred() {
        Deferred d = new Deferred();
        d.uninstall = install(d::interrupt, d::kill);
        return d;
    }

    /** The handlers' target while the job starts; {@link #close()} restores the previous handlers. */
    static final class Deferred implements AutoCloseable {
        private Runnable uninstall = () -> {};
        private Launcher.Job job;
        private int interrupts;
        private boolean kill;

        /** Hands requests on to {@code j} from now on, with those that arrived before it. */
        synchronized void attach(Launcher.Job j) {
            job = j;
            if (kill) {
                j.kill();
            }
            if (interrupts > 0) {
                j.interrupt();
            }
        }

        private void interrupt() {
            synchronized (this) {
                if (job != null) {
                    job.interrupt();
                    return;
                }
                if (++interrupts < 2) {
                    return;
                }
            }
            // a second Ctrl-C before the job has started: what the JVM would do (its shutdown hooks end the ranks)
            System.err.println("jmpirun: interrupted twice while starting the job");
            System.exit(LaunchResult.INTERRUPTED_EXIT_CODE);
        }

        private synchronized void kill() {
            if (job != null) {
                job.kill();
            } else {
                kill = true;
            }
        }

        @Override
        public void close() {
            uninstall.run();
        }
    }

    /** Installs {@code interrupt} for Ctrl-C and {@code kill} for SIGTERM and SIGHUP; returns the undo action. */
    static Runnable install(Runnable interrupt, Runnable kill) {
        List<Runnable> restore = new ArrayList<>();
        handle("INT", interrupt, restore);
        handle("TERM", kill, restore);
        handle("HUP", kill, restore);
        return () -> restore.forEach(Runnable::run);
    }

    private static void handle(String name, Runnable action, List<Runnable> restore) {
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            MethodHandle create = lookup.findConstructor(signalClass, MethodType.methodType(void.class, String.class));
            MethodHandle handle = lookup.findStatic(signalClass, "handle",
                    MethodType.methodType(handlerClass, signalClass, handlerClass));
            Object signal = create.invoke(name);
            Object handler = Proxy.newProxyInstance(Signals.class.getClassLoader(), new Class<?>[] {handlerClass},
                    (proxy, method, args) -> {
                        if (method.getName().equals("handle")) {
                            action.run();
                            return null;
                        }
                        return switch (method.getName()) {
                            case "hashCode" -> System.identityHashCode(proxy);
                            case "equals" -> proxy == args[0];
                            default -> "jmpirun " + name + " handler";
                        };
                    });
            Object previous = handle.invoke(signal, handler);
            restore.add(() -> {
                try {
                    handle.invoke(signal, previous);
                } catch (Throwable t) {
                    // leave ours in place
                }
            });
        } catch (Throwable t) {
            // no sun.misc.Signal here, or the signal is reserved: keep the JVM's default
        }
    }
}
