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
 *       {@code org.jmpi.launcher.proxy.RankForker}). Since the JVM needs a few hundred milliseconds before this code
 *       runs, the parent may be gone already: jmpirun passes its pid as {@value #PARENT_PID_VARIABLE}, and when
 *       {@code getppid()} no longer names it after the {@code prctl}, the rank ends at once if that process is
 *       dead. (If it is alive, a wrapper such as a shell sits between them, and the rank relies on the second
 *       signal.)</li>
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
    static void name(String name) {
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
     * Arms the parent-death signal (once per process; later calls do nothing). Returns at once: linking the native
     * calls costs CPU time that start-up should not wait for, so a daemon thread does it, checks the parent as
     * described above, and then parks for good to keep the setting alive.
     *
     * @param env the environment ({@value #PARENT_PID_VARIABLE}, when set, is the expected parent)
     */
    public static void watchParent(Map<String, String> env) {
        if (!parentWatched.compareAndSet(false, true)) {
            return;
        }
        long expected = expectedParent(env);
        Thread.ofPlatform().daemon().name("jmpi-parent-death").start(() -> {
            try {
                Linker linker = Linker.nativeLinker();
                MethodHandle prctl = linker.downcallHandle(linker.defaultLookup().find("prctl").orElseThrow(),
                        FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG), Linker.Option.firstVariadicArg(1));
                MethodHandle getppid = linker.downcallHandle(linker.defaultLookup().find("getppid").orElseThrow(),
                        FunctionDescriptor.of(JAVA_INT));
                int rc = (int) prctl.invokeExact(PR_SET_PDEATHSIG, (long) SIGKILL);
                int parent = (int) getppid.invokeExact();
                if (rc == 0 && expected > 0 && parent != expected && !alive(expected)) {
                    launcherLost("the launcher (pid " + expected + ") ended before this rank started");
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
