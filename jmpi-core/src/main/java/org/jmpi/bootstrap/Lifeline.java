package org.jmpi.bootstrap;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.jmpi.shared.Syscall;

/**
 * Ends a rank whose launcher is gone, so that nothing of a job outlives it. Two independent signals, armed by
 * {@link BootstrapFactory#detect()} for a rank that a process manager started:
 *
 * <ul>
 *   <li><b>Parent death.</b> {@link #watchParent} asks the kernel for {@code SIGKILL} when the process that started
 *       this rank ends ({@code prctl(PR_SET_PDEATHSIG)} through {@code java.lang.foreign}). The kernel keeps this
 *       setting per <em>thread</em> and forgets it when that thread ends, so it is made by a daemon thread of its
 *       own that then parks for the life of the JVM (the thread that called {@code MPI_Init} may end long before the
 *       rank does). Likewise the "parent" the kernel watches is the parent's <em>thread</em> that forked this
 *       process: jmpirun and its host proxies fork every rank from one thread that lives as long as their JVM (see
 *       {@code org.jmpi.launcher.proxy.RankForker}). The signal is armed once the transport has linked the
 *       system call downcall, or ten seconds after start-up (see {@link #DEFAULT_ARM_DELAY_MILLIS}: a rank without
 *       the transport's link does not pay for one in its first timed loops), so the parent may be gone already:
 *       jmpirun passes its pid as {@value #PARENT_PID_VARIABLE}, and when the parent process no longer is that one
 *       after the {@code prctl}, the rank ends at once if that process is dead. (If it is alive, a wrapper such as
 *       a shell sits between them, and the rank relies on the second signal.)</li>
 *   <li><b>End of the PMI connection.</b> The bootstrap's connection to its process manager (jmpirun's host
 *       proxy, Hydra's {@code PMI_FD}, Slurm's PMI-2 descriptor, the rendezvous server) is watched; when the other
 *       side closes it before this rank said {@code finalize}, the process manager is gone and
 *       {@link #launcherLost} ends the rank. This also covers wrapped ranks, remote hosts and Hydra, whose proxy
 *       closes {@code PMI_FD} when {@code mpiexec} is killed.</li>
 * </ul>
 *
 * Before it halts, a rank runs the registered clean-up actions (the shared-memory transport removes its segment
 * file if it still exists).
 *
 * <p>Threading: {@code cleanups} is copy-on-write; {@code halting} makes sure only one thread halts.
 */
@SuppressWarnings("restricted")
public final class Lifeline {
    private Lifeline() {}

    /** The environment variable in which jmpirun passes the pid of the process that forks the rank. */
    public static final String PARENT_PID_VARIABLE = "JMPI_PARENT_PID";
    /** The exit code of a rank that ends because its launcher is gone (the launcher cannot see it anyway). */
    public static final int EXIT_LAUNCHER_LOST = 129;
    private static final int PR_SET_PDEATHSIG = 1;
    private static final int SIGKILL = 9;

    private static final List<Runnable> cleanups = new CopyOnWriteArrayList<>();
    private static final AtomicBoolean parentWatched = new AtomicBoolean();
    private static final AtomicBoolean halting = new AtomicBoolean();
    private static volatile String who = "rank";

    /** Registers an action run before the rank halts because its launcher is gone (must not block). */
    public static void addCleanup(Runnable action) {
        cleanups.add(action);
    }

    /** Removes an action added by {@link #addCleanup} (when it no longer applies, e.g. after MPI_Finalize). */
    public static void removeCleanup(Runnable action) {
        cleanups.remove(action);
    }

    /** Names this process in the line printed by {@link #launcherLost} ("rank 3"). */
    public static void name(String name) {
        who = name;
    }

    /**
     * The launcher is gone ({@code what} says how we know): prints one line on standard error, runs the clean-up
     * actions and halts the JVM with {@link #EXIT_LAUNCHER_LOST}. Does not return.
     */
    public static void launcherLost(String what) {
        if (!halting.compareAndSet(false, true)) {
            LockSupport.park(); // another thread is halting
        }
        try {
            System.err.println("jmpi: " + who + ": " + what + "; ending");
            System.err.flush();
        } catch (RuntimeException | Error e) {
            // halting anyway
        }
        for (Runnable r : cleanups) {
            try {
                r.run();
            } catch (RuntimeException | Error e) {
                // halting anyway
            }
        }
        Runtime.getRuntime().halt(EXIT_LAUNCHER_LOST);
    }

    /**
     * How long after {@link #watchParent} the parent-death signal is armed at the latest, in milliseconds
     * ({@code jmpi.lifeline.delay.millis}, default {@value #DEFAULT_ARM_DELAY_MILLIS}). It is armed as soon as the
     * downcall it shares ({@link Syscall}) has been linked by someone else, which the shared-memory transport does as
     * MPI_Init ends when the host has other ranks: arming then costs nothing more. Only a rank that has not linked it
     * by the deadline (a job of one, a rank alone on its host or over TCP only) links it itself: 30-40 ms of CPU time
     * (the JDK generates the downcall's code, and its compiler threads then compile what that ran), which a short
     * job never pays. It used to be linked a second after start-up,
     * in the middle of many programs' first timed loops: the link, the compilations it set off and the transport's own
     * linking that followed it stalled two ranks on two cores for 20-100 ms. Until the signal is armed the end of the
     * PMI connection (the second signal) ends a rank whose launcher is gone.
     */
    static final long DEFAULT_ARM_DELAY_MILLIS = 10_000;

    /**
     * Arms the parent-death signal (once per process; later calls do nothing). Returns at once: a daemon thread waits
     * until the shared downcall is linked or {@link #DEFAULT_ARM_DELAY_MILLIS} have passed, makes the call (linking the
     * downcall if it must), checks the parent as described above, and then parks for good to keep the setting alive.
     *
     * @param env the environment ({@value #PARENT_PID_VARIABLE}, when set, is the expected parent)
     */
    public static void watchParent(Map<String, String> env) {
        if (!parentWatched.compareAndSet(false, true)) {
            return;
        }
        long expected = expectedParent(env);
        long delayNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(armDelayMillis(env));
        armLater(delayNanos, () -> {
            try {
                int rc = armParentDeathSignal(SIGKILL);
                long parent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
                if (rc == 0 && expected > 0 && parent != expected && !alive(expected)) {
                    launcherLost("the launcher (pid " + expected + ") ended before this rank armed its parent-death "
                            + "signal");
                }
            } catch (Throwable t) {
                // no prctl (not Linux, native access denied): the PMI connection still ends the rank
                return;
            }
            while (true) {
                LockSupport.park(); // the kernel forgets the setting when this thread ends
            }
        });
    }

    /**
     * Starts the daemon thread that runs {@code arm} once the shared downcall is linked ({@link Syscall#awaitLinked}),
     * or after {@code delayNanos} if nobody links it before.
     */
    static Thread armLater(long delayNanos, Runnable arm) {
        return Thread.ofPlatform().daemon().name("jmpi-parent-death").start(() -> {
            try {
                Syscall.awaitLinked(delayNanos); // until someone else linked the downcall, or the deadline
            } catch (InterruptedException e) {
                // nobody interrupts this thread; arm now
            }
            arm.run();
        });
    }

    /**
     * {@code prctl(PR_SET_PDEATHSIG, signal)} for the calling thread (0 disarms). Through the C library's
     * {@code syscall} ({@link Syscall}), whose downcall the shared-memory transport has usually linked already for
     * {@code futex}: a downcall of its own would cost 30-40 ms of CPU time to link, a second into the program. Where
     * the system call's number is not known, through the C library's {@code prctl}.
     *
     * @return 0, or -1 when the kernel refused
     */
    static int armParentDeathSignal(int signal) throws Throwable {
        MethodHandle syscall = Syscall.PRCTL > 0 ? Syscall.handle() : null;
        if (syscall != null) {
            return (int) (long) syscall.invokeExact(Syscall.PRCTL, (long) PR_SET_PDEATHSIG, (long) signal, 0L, 0L, 0L,
                    0L);
        }
        Linker linker = Linker.nativeLinker();
        MethodHandle prctl = linker.downcallHandle(linker.defaultLookup().find("prctl").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG), Linker.Option.firstVariadicArg(1));
        return (int) prctl.invokeExact(PR_SET_PDEATHSIG, (long) signal);
    }

    /** {@code jmpi.lifeline.delay.millis} from the system properties or the environment, else the default. */
    static long armDelayMillis(Map<String, String> env) {
        String v = System.getProperty("jmpi.lifeline.delay.millis");
        if (v == null) {
            v = env.get("JMPI_LIFELINE_DELAY_MILLIS");
        }
        if (v == null) {
            return DEFAULT_ARM_DELAY_MILLIS;
        }
        try {
            return Math.max(0, Math.min(3_600_000L, Long.parseLong(v.trim())));
        } catch (NumberFormatException e) {
            return DEFAULT_ARM_DELAY_MILLIS;
        }
    }

    /** {@value #PARENT_PID_VARIABLE} as a number, or -1 when absent or malformed. */
    static long expectedParent(Map<String, String> env) {
        String v = env.get(PARENT_PID_VARIABLE);
        if (v == null) {
            return -1;
        }
        try {
            long pid = Long.parseLong(v.trim());
            return pid > 0 ? pid : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
